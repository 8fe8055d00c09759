// Responses and errors: JSON bodies, and the API's error object with its status.

package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/telemetry"
)

// writeJSON writes v as the JSON body of a response with status (HTML characters unescaped:
// the SVG markup stays readable); the API's types cannot fail to encode. The answers of codes,
// the large and frequent ones, are written by writeResponse instead.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	setShared(w.Header(), headerContentType, "application/json")
	writeBody(w, status, b.Bytes())
}

// maxPooledJSON is the largest JSON answer memory kept for other requests; a 2048 px code's
// answer, with its SVG and PNG, is less.
const maxPooledJSON = 1 << 20

// writeResponse writes the JSON answer of a code to r (api.Response.AppendJSON, in pooled
// memory), compressed if r accepts it.
func writeResponse(w http.ResponseWriter, r *http.Request, resp *api.Response) {
	bp := responseBodies.Get().(*[]byte)
	b := resp.AppendJSON((*bp)[:0])
	setShared(w.Header(), headerContentType, "application/json")
	writeCompressible(w, r, b)
	if cap(b) <= maxPooledJSON {
		*bp = b
		responseBodies.Put(bp)
	}
}

// responseBodies holds the memory the JSON answers of codes are written into, between requests.
var responseBodies = sync.Pool{New: func() any { return new([]byte) }}

// writeBody writes body as the whole body of a response with status, with its
// Content-Length: the server then sends it as it is rather than in chunks (RFC 9112 7.1), and
// a body that fits its 4 KiB buffer with the headers goes out in one write.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	w.Header()[headerContentLength] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write(body)
}

// writeError writes err as the API's error object with its status; a fault of the service is
// logged (without the request's payload) and answered as INTERNAL_ERROR.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := api.ErrorOf(err)
	if e.Reason == api.ReasonInternal {
		s.cfg.Logger.ErrorContext(r.Context(), "request failed", "error", err.Error(), "request_id", telemetry.ResponseRequestID(w))
	}
	h := w.Header()
	for _, k := range codeHeaders {
		delete(h, k)
	}
	writeJSON(w, e.Status, e.Body())
}
