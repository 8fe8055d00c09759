// Responses and errors: JSON bodies, and the API's error object with its status.

package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	"github.com/bananaqr/bananaqr/api"
)

// writeJSON writes v as the JSON body of a response with status (HTML characters unescaped:
// the SVG markup stays readable). v is encoded into pooled memory first, so that the body goes
// out with its Content-Length in as few writes as the server's buffer allows, rather than in
// chunks as the encoder fills them; the API's types cannot fail to encode.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b := jsonBuffers.Get().(*bytes.Buffer)
	b.Reset()
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	setShared(w.Header(), headerContentType, "application/json")
	w.Header()[headerContentLength] = []string{strconv.Itoa(b.Len())}
	w.WriteHeader(status)
	w.Write(b.Bytes())
	if b.Cap() <= maxPooledJSON {
		jsonBuffers.Put(b)
	}
}

// jsonBuffers holds the memory JSON bodies are encoded into, between requests.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledJSON is the largest JSON body memory kept for other requests; a 2048 px code's
// answer, with its SVG and PNG, is less.
const maxPooledJSON = 1 << 20

// writeResponse writes the JSON answer of a code (api.Response.AppendJSON, in pooled memory).
func writeResponse(w http.ResponseWriter, resp *api.Response) {
	bp := responseBodies.Get().(*[]byte)
	b := resp.AppendJSON((*bp)[:0])
	setShared(w.Header(), headerContentType, "application/json")
	writeBody(w, b)
	if cap(b) <= maxPooledJSON {
		*bp = b
		responseBodies.Put(bp)
	}
}

// responseBodies holds the memory the JSON answers of codes are written into, between requests.
var responseBodies = sync.Pool{New: func() any { return new([]byte) }}

// writeBody writes body as the whole response body, with its Content-Length: the server then
// sends it as it is rather than in chunks (RFC 9112 7.1), and a body that fits its 4 KiB buffer
// with the headers goes out in one write.
func writeBody(w http.ResponseWriter, body []byte) {
	w.Header()[headerContentLength] = []string{strconv.Itoa(len(body))}
	w.Write(body)
}

// writeError writes err as the API's error object with its status; a fault of the service is
// logged (without the request's payload) and answered as INTERNAL_ERROR.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := api.ErrorOf(err)
	if e.Code == api.CodeInternal {
		s.cfg.Logger.ErrorContext(r.Context(), "request failed", "error", err.Error(), "request_id", requestID(w))
	}
	h := w.Header()
	for _, k := range codeHeaders {
		delete(h, k)
	}
	writeJSON(w, e.Status, e.Body())
}
