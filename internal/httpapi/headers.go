// Response headers on the hot path: their names in canonical form, and the values that repeat
// from response to response made once. http.Header.Set canonicalizes its key anew each time
// (an allocation for "X-QR-Payload", which is "X-Qr-Payload" on the wire anyway) and allocates
// the value's slice; a code's dozen headers cost a dozen allocations that way. Header names are
// case-insensitive (RFC 9110 5.1), so the canonical spelling is what clients see either way.

package httpapi

import (
	"net/http"
	"strconv"

	"github.com/bananaqr/bananaqr/internal/telemetry"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/payload"
)

// The headers a code's response carries, as http.CanonicalHeaderKey spells them.
const (
	headerCacheControl       = "Cache-Control"
	headerContentType        = "Content-Type"
	headerContentLength      = "Content-Length"
	headerContentDisposition = "Content-Disposition"
	headerRetryAfter         = "Retry-After"
	headerRequestID          = telemetry.HeaderRequestID
	headerRateLimitLimit     = "Ratelimit-Limit"
	headerRateLimitRemaining = "Ratelimit-Remaining"
	headerRateLimitReset     = "Ratelimit-Reset"
	headerPayloadType        = "X-Qr-Payload-Type"
	headerPayload            = "X-Qr-Payload"
	headerPayloadEncoding    = "X-Qr-Payload-Encoding"
	headerLogo               = "X-Qr-Logo"
	headerSize               = "X-Qr-Size"
	headerFormat             = "X-Qr-Format"
	headerVersion            = "X-Qr-Version"
	headerECC                = "X-Qr-Ecc"
	headerWarning            = "X-Qr-Warning"
)

// codeHeaders are the headers that describe a code, removed again when an error is written
// instead.
var codeHeaders = []string{headerContentDisposition, headerPayloadType, headerPayload, headerPayloadEncoding,
	headerLogo, headerSize, headerFormat, headerVersion, headerECC, headerWarning}

// mediaTypes are the Content-Types of the formats whose answer is the image itself. EPS has no
// media type of its own: it is PostScript (RFC 2046 4.5.2), and its file name says .eps.
var mediaTypes = map[api.Format]string{
	api.FormatSVG: "image/svg+xml",
	api.FormatPNG: "image/png",
	api.FormatPDF: "application/pdf",        // RFC 8118
	api.FormatEPS: "application/postscript", // RFC 2046 4.5.2
}

// sharedValues are header values that many responses carry, each made once: the formats' media
// types, the payload types, logo names, formats and the constant headers. Responses
// share the slices; net/http only reads them, and Header.Add would copy a full one.
var sharedValues = func() map[string][]string {
	values := []string{"private, no-store", "percent", "60", "1", "application/json"}
	for _, f := range api.StyleValues("format") {
		if t, ok := mediaTypes[api.Format(f)]; ok {
			values = append(values, t)
		}
	}
	for _, t := range payload.Types {
		values = append(values, string(t))
	}
	for _, name := range []string{"logo", "format", "ecc"} {
		values = append(values, api.StyleValues(name)...)
	}
	m := make(map[string][]string, len(values))
	for _, v := range values {
		m[v] = []string{v}
	}
	return m
}()

// setShared sets the header key, which must be canonical, to v, sharing the value's slice when
// v is one of sharedValues.
func setShared(h http.Header, key, v string) {
	if vs, ok := sharedValues[v]; ok {
		h[key] = vs
		return
	}
	h[key] = []string{v}
}

// sizeValues are the X-QR-Size values of every size, by size.
var sizeValues = func() [][]string {
	values := make([][]string, api.MaxSize+1)
	for size := api.MinSize; size <= api.MaxSize; size++ {
		values[size] = []string{strconv.Itoa(size)}
	}
	return values
}()

// versionValues are the X-QR-Version values of every version, by version.
var versionValues = func() [][]string {
	values := make([][]string, 41)
	for v := 1; v <= 40; v++ {
		values[v] = []string{strconv.Itoa(v)}
	}
	return values
}()

// setNumber sets the header key, which must be canonical, to n in decimal, from values[n] when
// it holds n's.
func setNumber(h http.Header, key string, n int, values [][]string) {
	if n >= 0 && n < len(values) && values[n] != nil {
		h[key] = values[n]
		return
	}
	h[key] = []string{strconv.Itoa(n)}
}

// dispositionKey names a Content-Disposition of a code: how it is shown, its type and format.
type dispositionKey struct {
	attachment bool
	typ        payload.Type
	format     api.Format
}

// dispositions are the Content-Disposition values of every code, made once.
var dispositions = func() map[dispositionKey][]string {
	m := map[dispositionKey][]string{}
	for _, attachment := range []bool{false, true} {
		for _, t := range payload.Types {
			for _, f := range api.StyleValues("format") {
				k := dispositionKey{attachment, t, api.Format(f)}
				m[k] = []string{disposition(k)}
			}
		}
	}
	return m
}()

// disposition returns the Content-Disposition of a code (RFC 6266): inline or attachment, with
// the file name qr-<type>.<format>.
func disposition(k dispositionKey) string {
	d := "inline"
	if k.attachment {
		d = "attachment"
	}
	return d + `; filename="qr-` + string(k.typ) + "." + string(k.format) + `"`
}

// setDisposition sets the Content-Disposition of a code.
func setDisposition(h http.Header, k dispositionKey) {
	if vs, ok := dispositions[k]; ok {
		h[headerContentDisposition] = vs
		return
	}
	h[headerContentDisposition] = []string{disposition(k)}
}
