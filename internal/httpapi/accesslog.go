// The access log: request ids, one log line and one counted request per response (the
// response's status and size noted by accesslog.Recorder).

package httpapi

import (
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/bananaqr/bananaqr/internal/accesslog"
)

// requestID returns the id the access log gave the request answered on w (see logged).
func requestID(w http.ResponseWriter) string { return w.Header().Get(headerRequestID) }

// logged wraps next with request ids (the client's X-Request-Id when it is short and plain, else
// a new one; echoed in the response) and an access log line per request: method, route, status,
// bytes, duration and id. Never the query string nor the body, which may hold payloads.
func (s *Server) logged(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get(headerRequestID)
		if !plainID(id) {
			id = newRequestID()
		}
		w.Header()[headerRequestID] = []string{id}
		rec := accesslog.NewRecorder(w)
		next.ServeHTTP(rec, r)
		route := r.URL.Path
		if _, ok := s.routes[route]; !ok {
			route = "(unknown)"
		}
		s.metrics.observeRequest(route, rec.Status, rec.Header().Get(headerFormat))
		end := time.Now()
		s.access.Write(accesslog.Entry{Time: end, Method: r.Method, Route: route, Status: rec.Status, Bytes: rec.Bytes,
			Duration: end.Sub(start), RequestID: id})
	})
}

// newRequestID returns a new request id: 16 hexadecimal digits from the runtime's random
// source (ChaCha8, per thread: no system call and no lock), unique enough to find a request's
// lines in the logs of every replica.
func newRequestID() string {
	const digits = "0123456789abcdef"
	var b [16]byte
	n := rand.Uint64()
	for i := range b {
		b[i] = digits[n>>60]
		n <<= 4
	}
	return string(b[:])
}

// plainID reports whether a client's request id can be logged as it is.
func plainID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// statusClientClosed is the status recorded for a request whose client went away before it
// was answered: nginx's 499 "client closed request". It is never sent, only logged and counted.
const statusClientClosed = 499
