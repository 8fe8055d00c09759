// The access log: request ids, one log line and one counted request per response, and the
// recorder that notes each response's status and size.

package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"time"
)

// requestIDHeader is the header that holds a request's id, where the access log and errors find it.
const requestIDHeader = "X-Request-Id"

// requestID returns the id logged{} gave r.
func requestID(r *http.Request) string { return r.Header.Get(requestIDHeader) }

// logged wraps next with request ids (the client's X-Request-Id when it is short and plain, else
// a new one; echoed in the response) and an access log line per request: method, route, status,
// bytes, duration and id. Never the query string nor the body, which may hold payloads.
func (s *Server) logged(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get(requestIDHeader)
		if !plainID(id) {
			var b [8]byte
			rand.Read(b[:])
			id = hex.EncodeToString(b[:])
			r.Header.Set(requestIDHeader, id)
		}
		w.Header().Set(requestIDHeader, id)
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		route := r.URL.Path
		if _, ok := s.routes[route]; !ok {
			route = "(unknown)"
		}
		s.metrics.observeRequest(route, rec.status, rec.Header().Get("X-QR-Format"))
		s.cfg.Logger.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method), slog.String("route", route), slog.Int("status", rec.status),
			slog.Int("bytes", rec.bytes), slog.Duration("duration", time.Since(start)), slog.String("request_id", id))
	})
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

// recorder notes a response's status and size for the access log.
type recorder struct {
	http.ResponseWriter
	status, bytes int
	wrote         bool
}

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}
