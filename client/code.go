package client

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/api"
)

// Code is a code the service made: the answer's body, and what the answer's headers say about
// the code (spec 2.2), the caller's budget and the request.
type Code struct {
	// Bytes is the answer's body: the SVG, PNG, PDF or EPS file, or for Client.JSON the JSON
	// response as sent.
	Bytes []byte
	// Response is the JSON response read from Bytes, for Client.JSON; nil for the other
	// formats.
	Response *api.Response

	Format      api.Format // X-QR-Format: svg, png, json, pdf or eps
	PayloadType string     // X-QR-Payload-Type: url, text, wifi, ...
	// Payload is the text the code holds when it is public (url and text codes, X-QR-Payload,
	// percent-decoded when X-QR-Payload-Encoding says percent); nil for a private payload,
	// which the service does not echo.
	Payload *string
	Version int    // X-QR-Version: the symbol's version, 1 to 40
	ECC     string // X-QR-ECC: the level the symbol was made at (L, M, Q or H), the one asked for or stronger
	Size    int    // X-QR-Size: the image's side in pixels
	Logo    string // X-QR-Logo: none or banana
	// Warnings are the codes of the warnings of X-QR-Warning, such as SMALL_QUIET_ZONE: what
	// about the code some readers mishandle, though it was made. Nil when there are none; the
	// JSON response's warnings carry their messages too.
	Warnings []string

	RateLimit RateLimit // the caller's budget after this code
	RequestID string    // X-Request-Id: the id the service's logs know the request by
}

// RateLimit is the caller's budget after a request, as the RateLimit-* headers say (the IETF
// HTTPAPI working group's RateLimit header fields draft). It is the zero value when the service
// sent none: its rate limit is off, or the route is not rate-limited.
type RateLimit struct {
	Limit     int           // RateLimit-Limit: the codes a caller may make a minute
	Remaining int           // RateLimit-Remaining: the codes the caller may make now
	Reset     time.Duration // RateLimit-Reset: until the whole budget is back, to the second
}

// Archive is the answer of a batch: a ZIP archive of its codes, the caller's budget after them,
// and the request's id.
type Archive struct {
	ZIP       []byte    // the archive, a file a request in their order
	RateLimit RateLimit // the caller's budget after the batch, which counted each of its codes
	RequestID string    // X-Request-Id
}

// codeOf returns the Code of an answer with body and header h, as the service's X-QR-* headers
// describe it.
func codeOf(body []byte, h http.Header) *Code {
	c := &Code{Bytes: body, Format: api.Format(h.Get("X-QR-Format")), PayloadType: h.Get("X-QR-Payload-Type"),
		ECC: h.Get("X-QR-ECC"), Logo: h.Get("X-QR-Logo"), Version: headerInt(h, "X-QR-Version"), Size: headerInt(h, "X-QR-Size"),
		RateLimit: rateLimitOf(h), RequestID: h.Get("X-Request-Id")}
	if vs := h.Values("X-QR-Payload"); len(vs) > 0 {
		p := vs[0]
		if h.Get("X-QR-Payload-Encoding") == "percent" {
			// Percent-encoded UTF-8 with RFC 3986's unreserved characters kept; a space is %20,
			// never +, so it is a path's unescaping, not a query's.
			if decoded, err := url.PathUnescape(p); err == nil {
				p = decoded
			}
		}
		c.Payload = &p
	}
	for _, v := range h.Values("X-QR-Warning") { // a list of codes (RFC 9110 5.6.1)
		for code := range strings.SplitSeq(v, ",") {
			if code = strings.TrimSpace(code); code != "" {
				c.Warnings = append(c.Warnings, code)
			}
		}
	}
	return c
}

// rateLimitOf reads the RateLimit-* headers; the zero RateLimit when there are none.
func rateLimitOf(h http.Header) RateLimit {
	return RateLimit{Limit: headerInt(h, "RateLimit-Limit"), Remaining: headerInt(h, "RateLimit-Remaining"),
		Reset: time.Duration(headerInt(h, "RateLimit-Reset")) * time.Second}
}

// headerInt reads a header whose value is a non-negative decimal integer; 0 when it is absent
// or not one.
func headerInt(h http.Header, name string) int {
	n, err := strconv.ParseUint(strings.TrimSpace(h.Get(name)), 10, 31)
	if err != nil {
		return 0
	}
	return int(n)
}
