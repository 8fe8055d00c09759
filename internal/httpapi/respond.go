// Responses and errors: JSON bodies, and the API's error object with its status.

package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/bananaqr/bananaqr/api"
)

// writeJSON writes v as the JSON body of a response with status (HTML characters unescaped:
// the SVG markup stays readable). v is encoded straight into w, without a copy of the body:
// the API's types cannot fail to encode, so the only error left is the client's connection,
// which nothing can be done about once the status is sent.
func writeJSON(w http.ResponseWriter, status int, v any) {
	setShared(w.Header(), headerContentType, "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

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
		s.cfg.Logger.Error("request failed", "error", err.Error(), "request_id", requestID(w))
	}
	h := w.Header()
	for _, k := range codeHeaders {
		delete(h, k)
	}
	writeJSON(w, e.Status, e.Body())
}
