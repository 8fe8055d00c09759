// Package client is the Go client of the bananaqr HTTP API. It follows the spec's client rules
// (7.2) so that programs get them without writing them:
//
//   - An answer of the API that is not a code (400, 413, 415, 422, 429, 503, ...) is an
//     *APIError with the status and the error object's code, message and hint (spec 2.3):
//     on 400 correct the request as the hint says; on 413 or 422 shorten the content, or
//     encode a URL that points to the full data.
//   - On 429, and on 503 with Retry-After (the service is busy), the client waits the seconds
//     of Retry-After and tries once more; a second refusal is returned. The wait honours the
//     context's cancellation and deadline (a Retry-After that ends after the deadline is
//     returned at once rather than waited for), a Retry-After longer than the longest wait
//     (WithMaxWait) is returned at once, and there is never a wait of less than a second.
//     Nothing else is retried automatically, a 503 without Retry-After neither.
//   - When the API is never reached (DNS, a refused or broken connection, TLS, a timeout, or a
//     foreign answer such as a proxy's or a captive portal's page), the error is a
//     *TransportError that also records what the liveness check (GET /healthz) said, so that
//     "the API said no" can be told from "we never reached it".
//   - It never falls back to generating a code locally: it has no encoder to fall back to.
//
// Each code comes as a *Code: its bytes beside what the answer's headers say (payload type,
// version, level, warnings, the caller's remaining budget, the request's id). Errors keep the
// request's id too (X-Request-Id), the one the service's logs know it by.
//
// Requests are the service's own type, api.Request (with payload.Request and the render and
// qr enumerations), so a program builds exactly what the service reads; every request is sent
// as a POST body (spec 4.2), which takes every payload type. What a request leaves at its zero
// value asks for the service's default (api.EncodeJSON): the zero api.Request with a payload
// is a code in the defaults, as api.NewRequest's is. Beyond the standard library the
// package imports only this module's wire types (api, and the payload, render and qr types a
// request is made of), which bring golang.org/x/net/idna (the URL rule's host names) and
// nothing else.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/api"
)

// Default settings of a Client.
const (
	DefaultRateLimitRetries = 1               // 429s and 503s waited out per call
	DefaultMaxWait          = 2 * time.Minute // the longest Retry-After waited for
	DefaultTimeout          = 30 * time.Second
	LivenessTimeout         = 5 * time.Second // the most the liveness check after a failure may take
	maxAnswer               = 64 << 20        // the most of an answer read: far more than the largest JSON response
)

// Client makes QR codes through a bananaqr service. It is safe for concurrent use.
type Client struct {
	base      *url.URL
	http      *http.Client
	retries   int
	maxWait   time.Duration
	userAgent string
	onWait    func(time.Duration)
	// wait sleeps d or until ctx is done (time's timer; tests replace it).
	wait func(ctx context.Context, d time.Duration) error
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient makes the client send its requests with h (its transport, proxy and TLS
// settings, timeout) instead of a client with DefaultTimeout.
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithRateLimitRetries sets how many 429 answers, and 503 answers with Retry-After, a call waits
// out (DefaultRateLimitRetries); 0 returns the first at once.
func WithRateLimitRetries(n int) Option { return func(c *Client) { c.retries = max(n, 0) } }

// WithMaxWait sets the longest Retry-After the client waits for (DefaultMaxWait); a longer one
// is returned at once as the 429's or 503's *APIError.
func WithMaxWait(d time.Duration) Option { return func(c *Client) { c.maxWait = d } }

// OnRateLimitWait has f called with the wait before each wait on a 429 or a 503, for a program
// to say why it pauses.
func OnRateLimitWait(f func(wait time.Duration)) Option { return func(c *Client) { c.onWait = f } }

// WithUserAgent sets the User-Agent header of the requests.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// New returns a client of the service at baseURL, such as "https://qr.example.com" (a path,
// as in "https://example.com/qr", is kept as the prefix of the API's paths).
func New(baseURL string, opts ...Option) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("bananaqr client: base URL %q: want http:// or https:// with a host, and no query", baseURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	c := &Client{base: u, http: &http.Client{Timeout: DefaultTimeout}, retries: DefaultRateLimitRetries,
		maxWait: DefaultMaxWait, userAgent: "bananaqr-go-client", wait: sleep}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// SVG returns the code of r as an SVG document (r.Format is ignored).
func (c *Client) SVG(ctx context.Context, r api.Request) (*Code, error) {
	return c.code(ctx, r, api.FormatSVG)
}

// PNG returns the code of r as a PNG image (r.Format is ignored).
func (c *Client) PNG(ctx context.Context, r api.Request) (*Code, error) {
	return c.code(ctx, r, api.FormatPNG)
}

// PDF returns the code of r as a PDF document for print, one page of r.Size pixels at 300 dpi
// (r.Format is ignored; a bananaqr extension).
func (c *Client) PDF(ctx context.Context, r api.Request) (*Code, error) {
	return c.code(ctx, r, api.FormatPDF)
}

// EPS returns the code of r as an Encapsulated PostScript file for print, r.Size pixels at 300
// dpi (r.Format is ignored; a bananaqr extension).
func (c *Client) EPS(ctx context.Context, r api.Request) (*Code, error) {
	return c.code(ctx, r, api.FormatEPS)
}

// JSON returns the code of r with its JSON response (spec 2.2) in Response: the SVG, the PNG in
// Base64, the payload when it is public, and the symbol's version, level and geometry
// (r.Format is ignored).
func (c *Client) JSON(ctx context.Context, r api.Request) (*Code, error) {
	code, err := c.code(ctx, r, api.FormatJSON)
	if err != nil {
		return nil, err
	}
	var res api.Response
	if err := json.Unmarshal(code.Bytes, &res); err != nil || !res.OK {
		if err == nil {
			err = errors.New(`"ok" is not true`)
		}
		te := c.foreign(ctx, "POST "+c.endpoint("/api/qr-code"), fmt.Errorf("the JSON response cannot be read: %w", err))
		te.RequestID = code.RequestID
		return nil, te
	}
	code.Response = &res
	return code, nil
}

// Contrast says whether QR readers can tell fg from bg (GET /api/contrast, a bananaqr
// extension), by the rule every code's colours are held to, with the figures behind the
// verdict and a nearby pair that readers can read. A colour whose alpha is 0, such as the
// zero color.RGBA, is the service's default (api.NewRequest's); the others are judged opaque.
// It makes no code and is not rate-limited.
func (c *Client) Contrast(ctx context.Context, fg, bg color.RGBA) (*api.Contrast, error) {
	q := url.Values{}
	for name, v := range map[string]color.RGBA{"color": fg, "background": bg} {
		if v.A != 0 {
			q.Set(name, fmt.Sprintf("%02X%02X%02X", v.R, v.G, v.B))
		}
	}
	path := "/api/contrast"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	a, err := c.send(ctx, http.MethodGet, path, nil, "application/json")
	if err != nil {
		return nil, err
	}
	var res api.Contrast
	if err := json.Unmarshal(a.body, &res); err != nil || res.Color == "" {
		if err == nil {
			err = errors.New("no colour judged")
		}
		te := c.foreign(ctx, "GET "+c.endpoint(path), fmt.Errorf("the contrast answer cannot be read: %w", err))
		te.RequestID = a.header.Get("X-Request-Id")
		return nil, te
	}
	return &res, nil
}

// Health runs the liveness check (GET /healthz, spec 4.6): nil when the service answers
// {"ok": true}, else an *APIError or a *TransportError (whose Liveness is not filled in).
func (c *Client) Health(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.endpoint("/healthz"), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	a, err := c.do(req, "application/json")
	if err != nil {
		return err
	}
	var h api.Health
	if err := json.Unmarshal(a.body, &h); err != nil || !h.OK {
		return &TransportError{Op: "GET " + req.URL.String(), Failure: FailureForeign, RequestID: a.header.Get("X-Request-Id"),
			Err: fmt.Errorf("the answer is not {\"ok\": true}: %.80q", a.body)}
	}
	return nil
}

// formats are the media types of the formats.
var formats = map[api.Format]string{api.FormatSVG: "image/svg+xml", api.FormatPNG: "image/png", api.FormatJSON: "application/json",
	api.FormatPDF: "application/pdf", api.FormatEPS: "application/postscript"}

// code POSTs r with format f and returns the code answered, waiting out 429s and 503s as the
// client is configured to.
func (c *Client) code(ctx context.Context, r api.Request, f api.Format) (*Code, error) {
	r.Format = f
	body, err := api.EncodeJSON(&r)
	if err != nil {
		return nil, err
	}
	a, err := c.send(ctx, http.MethodPost, "/api/qr-code", body, formats[f])
	if err != nil {
		return nil, err
	}
	return codeOf(a.body, a.header), nil
}

// answer is a 2xx answer of the API: its body and headers.
type answer struct {
	body   []byte
	header http.Header
}

// send sends a request of method to path, with the JSON body when it is not nil, accepting an
// answer of mediaType, and returns the answer, waiting out 429s, and 503s with Retry-After, as
// the client is configured to; a transport error says what the liveness check found.
func (c *Client) send(ctx context.Context, method, path string, body []byte, mediaType string) (*answer, error) {
	for attempt := 0; ; attempt++ {
		var content io.Reader
		if body != nil {
			content = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, c.endpoint(path), content)
		if err != nil {
			return nil, err
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Accept", mediaType)
		a, err := c.do(req, mediaType)
		var apiErr *APIError
		if errors.As(err, &apiErr) && retried(apiErr) && attempt < c.retries {
			if werr := c.waitOut(ctx, apiErr); werr != nil {
				return nil, werr
			}
			continue
		}
		var te *TransportError
		if errors.As(err, &te) {
			te.Liveness = c.liveness(ctx)
		}
		return a, err
	}
}

// retried reports whether a refusal is waited out and tried again: a 429 (the caller's budget
// is spent), and a 503 that says with Retry-After when the service expects to have room (RFC
// 9110 15.6.4); a 503 without it is no promise, and is returned.
func retried(e *APIError) bool {
	return e.Status == http.StatusTooManyRequests || e.Status == http.StatusServiceUnavailable && e.RetryAfter > 0
}

// waitOut waits the Retry-After of a 429 or 503, or says why it will not: no time before the
// context's deadline, a wait longer than the client's longest, or the context done meanwhile.
func (c *Client) waitOut(ctx context.Context, e *APIError) error {
	d := max(e.RetryAfter, time.Second) // never a tight loop, even without Retry-After
	if d > c.maxWait {
		return e
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
		return e
	}
	if c.onWait != nil {
		c.onWait(d)
	}
	if err := c.wait(ctx, d); err != nil {
		return fmt.Errorf("waiting out a %d (Retry-After %s): %w; %w", e.Status, d, err, e)
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// do sends req and returns a 2xx answer of media type want; other answers are an *APIError
// (the API's error object) or a *TransportError, and the context's end is returned as the
// context's error.
func (c *Client) do(req *http.Request, want string) (*answer, error) {
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}
	op := req.Method + " " + req.URL.String()
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, transportError(req.Context(), op, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err == nil && len(body) > maxAnswer {
		err = fmt.Errorf("the answer is larger than %d bytes", maxAnswer)
	}
	if err != nil {
		return nil, transportError(req.Context(), op, err)
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	id := resp.Header.Get("X-Request-Id")
	if resp.StatusCode/100 == 2 {
		if mediaType != want {
			return nil, &TransportError{Op: op, Failure: FailureForeign, RequestID: id,
				Err: fmt.Errorf("status %d with Content-Type %q, not %s", resp.StatusCode, mediaType, want)}
		}
		return &answer{body: body, header: resp.Header}, nil
	}
	var eb struct {
		api.ErrorBody
		Items []ItemError `json:"items"` // a batch's failing requests (batch.go)
	}
	if mediaType != "application/json" || json.Unmarshal(body, &eb) != nil || eb.Reason == "" {
		return nil, &TransportError{Op: op, Failure: FailureForeign, RequestID: id,
			Err: fmt.Errorf("status %d (%s) without the API's error object: %.80q", resp.StatusCode, mediaType, body)}
	}
	return nil, &APIError{Status: resp.StatusCode, Reason: api.Reason(eb.Reason), Message: eb.Message, Hint: eb.Hint,
		RetryAfter: retryAfter(resp.Header.Get("Retry-After"), time.Now()), RateLimit: rateLimitOf(resp.Header),
		RequestID: id, Items: eb.Items}
}

// foreign is the *TransportError of an answer that is not the API's, with the liveness check.
func (c *Client) foreign(ctx context.Context, op string, err error) *TransportError {
	return &TransportError{Op: op, Failure: FailureForeign, Err: err, Liveness: c.liveness(ctx)}
}

// liveness runs the liveness check after a failure, for at most LivenessTimeout.
func (c *Client) liveness(ctx context.Context) Liveness {
	if ctx.Err() != nil {
		return Liveness{Err: ctx.Err()}
	}
	ctx, cancel := context.WithTimeout(ctx, LivenessTimeout)
	defer cancel()
	err := c.Health(ctx)
	return Liveness{Checked: true, OK: err == nil, Err: err}
}

// endpoint returns the URL of path, which may end in a query string, under the base URL.
func (c *Client) endpoint(path string) string {
	u := *c.base
	path, u.RawQuery, _ = strings.Cut(path, "?")
	u.Path += path
	return u.String()
}
