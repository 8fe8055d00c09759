// The handlers that make codes: GET of a query and POST of a JSON body, each admitted by the
// rate limit, then made within the bound on work and written as SVG, PNG, PDF, EPS or JSON; and the
// contrast check, which makes none.

package httpapi

import (
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/accesslog"
	"github.com/bananaqr/bananaqr/internal/admission"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// getCode answers a GET request for a code on route: the request read from the query string.
func (s *Server) getCode(w http.ResponseWriter, r *http.Request, route api.Route) {
	if !s.admit(w, r) {
		return
	}
	req, err := api.FromQuery(r.URL.RawQuery, route)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeCode(w, r, &req)
}

// postCode answers POST /api/qr-code: the request read from a JSON body of at most
// api.MaxBody bytes.
func (s *Server) postCode(w http.ResponseWriter, r *http.Request) {
	if !s.admit(w, r) {
		return
	}
	body, err := readJSONBody(w, r, api.MaxBody, "Send at most 64 KiB; a code holds far less.")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	req, err := api.DecodeJSON(body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeCode(w, r, &req)
}

// readJSONBody reads r's body, of at most max bytes and of Content-Type application/json, or
// returns the API's error: BODY_TOO_LARGE (with hint) or UNSUPPORTED_MEDIA_TYPE. A body declared
// too large is refused before a byte of it is read: with Expect: 100-continue the client then
// never gets 100 Continue and never sends it.
func readJSONBody(w http.ResponseWriter, r *http.Request, max int64, hint string) ([]byte, error) {
	tooLarge := api.NewError(api.ReasonBodyTooLarge, "", hint, "the body is larger than %d bytes", max)
	if r.ContentLength > max {
		return nil, tooLarge
	}
	if media, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || media != "application/json" {
		return nil, api.NewError(api.ReasonUnsupportedMedia, "", "Send the body as JSON with Content-Type: application/json.",
			"the body is not application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	var maxBytes *http.MaxBytesError
	if errors.As(err, &maxBytes) {
		return nil, tooLarge
	}
	if err != nil {
		return nil, api.NewError(api.ReasonInvalidJSON, "", "Send the whole body.", "the body could not be read")
	}
	return body, nil
}

// admit counts the request against its caller's budget and sets the RateLimit-* headers; over
// the budget it answers 429 and returns false.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) bool {
	h := w.Header()
	setShared(h, headerCacheControl, "private, no-store")
	d, ok := s.gate.Admit(r.Context(), s.caller(r))
	s.setBudget(h, d)
	if !ok {
		s.refuse(w, r, d, 1)
	}
	return ok
}

// refuse answers 429 to a request for n codes that the rate limit refused with decision d: the
// error and Retry-After of admission.RateLimited, the one rule of every edge.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, d ratelimit.Decision, n int) {
	err, seconds := admission.RateLimited(d, n)
	setNumber(w.Header(), headerRetryAfter, seconds, nil)
	s.writeError(w, r, err)
}

// setBudget sets the RateLimit-* headers of the caller's budget after decision d (none when
// the rate limit is off).
func (s *Server) setBudget(h http.Header, d ratelimit.Decision) {
	if d.Limit <= 0 {
		return
	}
	if d.Limit == s.cfg.RateLimit {
		h[headerRateLimitLimit] = s.limitValue
	} else {
		setNumber(h, headerRateLimitLimit, d.Limit, nil)
	}
	setNumber(h, headerRateLimitRemaining, d.Remaining, nil)
	setNumber(h, headerRateLimitReset, int((d.Reset+time.Second-1)/time.Second), nil)
}

// writeCode makes the code of req within the bound on work (admission.Gate.Code) and writes
// it as req.Format says, with its X-QR-* headers, or the error.
func (s *Server) writeCode(w http.ResponseWriter, r *http.Request, req *api.Request) {
	res, err := s.gate.Code(r.Context(), req)
	if err != nil {
		if r.Context().Err() != nil {
			// The client is gone: nothing is written, but the access log and the metrics get
			// 499, nginx's "client closed request", instead of the 200 of a response never sent.
			if rec, ok := w.(*accesslog.Recorder); ok {
				rec.Status = accesslog.StatusClientClosed
			}
			return
		}
		if api.ErrorOf(err).Reason == api.ReasonOverloaded {
			s.writeBusy(w, r, err, 1)
			return
		}
		s.writeError(w, r, err)
		return
	}
	defer res.Release()
	held, err := s.gate.Hold(answerBytes(req, res))
	if err != nil {
		s.writeBusy(w, r, err, 1)
		return
	}
	defer held.Release()
	p := res.Payload
	h := w.Header()
	setShared(h, headerPayloadType, string(p.Type))
	if !p.Private {
		v, encoded := headerValue(p.Text)
		h[headerPayload] = []string{v}
		if encoded {
			setShared(h, headerPayloadEncoding, "percent")
		}
	}
	setShared(h, headerLogo, req.Logo.String())
	setNumber(h, headerSize, req.Size, sizeValues)
	setShared(h, headerFormat, string(req.Format))
	setNumber(h, headerVersion, res.Symbol.Version(), versionValues)
	setShared(h, headerECC, res.Symbol.Level().String())
	if len(res.Warnings) > 0 {
		codes := make([]string, len(res.Warnings))
		for i, wn := range res.Warnings {
			codes[i] = wn.Reason
		}
		h[headerWarning] = []string{strings.Join(codes, ", ")}
	}
	setDisposition(h, dispositionKey{req.Download, p.Type, req.Format})
	if req.Format == api.FormatJSON {
		resp := s.jsonResponse(r, req, res)
		writeResponse(w, r, &resp)
		return
	}
	setShared(h, headerContentType, mediaTypes[req.Format])
	if req.Format == api.FormatPNG {
		writeBody(w, http.StatusOK, res.PNG) // deflated already
		return
	}
	writeCompressible(w, r, res.Image(req.Format))
}

// answerBytes returns about the memory the answer of res holds while it is written, for the
// memory budget: its image, and as much again for the gzip copy of a compressible one; for JSON,
// the SVG three times (the result's, the answer's string, the body) and the PNG six (the result's,
// its base64 a third larger in the data URL, in the body twice and in a private code's Markdown).
func answerBytes(req *api.Request, res *generate.Result) int64 {
	switch req.Format {
	case api.FormatJSON:
		return 3 * int64(len(res.SVG)+2*len(res.PNG))
	case api.FormatPNG:
		return int64(len(res.PNG))
	}
	return 2 * int64(len(res.Image(req.Format)))
}

// jsonResponse returns the JSON response of a code (spec 2.2).
func (s *Server) jsonResponse(r *http.Request, req *api.Request, res *generate.Result) api.Response {
	p := res.Payload
	// The data URL is built once, in one allocation; png_base64 is its base64 part, sharing
	// its memory.
	const dataURLPrefix = "data:image/png;base64,"
	var b strings.Builder
	b.Grow(len(dataURLPrefix) + base64.StdEncoding.EncodedLen(len(res.PNG)))
	b.WriteString(dataURLPrefix)
	enc := base64.NewEncoder(base64.StdEncoding, &b)
	enc.Write(res.PNG)
	enc.Close()
	pngDataURL := b.String()
	out := api.Response{
		OK: true, Type: string(p.Type), PayloadType: string(p.Type), Format: string(api.FormatJSON),
		MimeType: "image/png", Size: req.Size, Logo: req.Logo.String(),
		Color: api.FormatColor(req.Color), Background: api.FormatColor(req.Background),
		SVG: string(res.SVG), PNGBase64: pngDataURL[len(dataURLPrefix):], PNGDataURL: pngDataURL,
		Version: res.Symbol.Version(), ECC: res.Symbol.Level().String(), Modules: res.Symbol.Size(),
		Margin: req.Margin, ModulePx: res.ModulePx, Warnings: res.Warnings,
	}
	if out.Warnings == nil {
		out.Warnings = []api.Warning{}
	}
	if p.Private {
		out.Markdown = api.MarkdownImage(out.PNGDataURL)
		return out
	}
	text, query := p.Text, req.Query(p)
	out.Payload = &text
	base := s.baseURL(r)
	if base == "" {
		out.Markdown = api.MarkdownImage(out.PNGDataURL)
		out.Warnings = append(out.Warnings, api.Warning{Reason: api.ReasonNoPublicURL, Field: "",
			Message: "The request named no host and the service has no base URL configured, so image_url and svg_url are null; the Markdown embeds the image."})
		return out
	}
	imageURL, svgURL := base+"/api/qr-code.png?"+query, base+"/api/qr-code.svg?"+query
	out.ImageURL, out.SVGURL = &imageURL, &svgURL
	out.Markdown = api.MarkdownImage(imageURL)
	return out
}

// headerValue returns a public payload as X-QR-Payload carries it: as it is when every byte is
// printable ASCII and it neither starts nor ends with a space, else percent-encoded as UTF-8
// with RFC 3986's unreserved characters kept (encoded true). A field value's leading and
// trailing white space is not part of it (RFC 9110 5.5): clients drop it.
func headerValue(text string) (string, bool) {
	printable := text == "" || text[0] != ' ' && text[len(text)-1] != ' '
	for i := range len(text) {
		if text[i] < 0x20 || text[i] > 0x7e {
			printable = false
			break
		}
	}
	if printable {
		return text, false
	}
	var b strings.Builder
	const hex = "0123456789ABCDEF"
	for i := range len(text) {
		c := text[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			b.WriteString("%" + string(hex[c>>4]) + string(hex[c&15]))
		}
	}
	return b.String(), true
}

// contrast answers GET /api/contrast: whether readers can tell color from background, by the
// rule every code is held to. It makes no code, so it is not rate-limited; its answer depends
// on the query alone and may be cached.
func (s *Server) contrast(w http.ResponseWriter, r *http.Request) {
	req, err := api.ColorsFromQuery(r.URL.RawQuery)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=86400")
	writeJSON(w, http.StatusOK, generate.Contrast(&req))
}
