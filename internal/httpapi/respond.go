package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/api"
)

// writeJSON writes v as the JSON body of a response with status (HTML characters unescaped:
// the SVG markup stays readable). v is encoded straight into w, without a copy of the body:
// the API's types cannot fail to encode, so the only error left is the client's connection,
// which nothing can be done about once the status is sent.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// writeError writes err as the API's error object with its status; a fault of the service is
// logged (without the request's payload) and answered as INTERNAL_ERROR.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := api.ErrorOf(err)
	if e.Code == api.CodeInternal {
		s.cfg.Logger.Error("request failed", "error", err.Error(), "request_id", requestID(r))
	}
	h := w.Header()
	for _, k := range []string{"Content-Disposition", "X-QR-Payload-Type", "X-QR-Payload", "X-QR-Payload-Encoding",
		"X-QR-Logo", "X-QR-Size", "X-QR-Format", "X-QR-Warning"} {
		h.Del(k)
	}
	writeJSON(w, e.Status, e.Body())
}

// caller returns who is asking, for the rate limit: the peer's address, or when the peer is a
// trusted proxy the right-most address of X-Forwarded-For that is not a trusted proxy. An IPv6
// address counts by its prefix of Config.IPv6Prefix bits (a /64 by default): an IPv6 host
// usually owns a whole /64 and could otherwise be a million callers.
func (s *Server) caller(r *http.Request) string {
	peer := peerAddr(r)
	if !s.trusted(peer) {
		return s.callerKey(peer)
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // a malformed hop: trust nothing before it
		}
		if a = a.Unmap(); !s.trusted(a) {
			return s.callerKey(a)
		}
		peer = a
	}
	return s.callerKey(peer)
}

// callerKey returns the rate limit's key of a caller at a: the IPv4 address, or the IPv6
// prefix of Config.IPv6Prefix bits.
func (s *Server) callerKey(a netip.Addr) string {
	if !a.Is6() || s.cfg.IPv6Prefix >= 128 {
		return a.String()
	}
	p, _ := a.Prefix(s.cfg.IPv6Prefix)
	return p.String()
}

// peerAddr returns the address of the connection's other end.
func peerAddr(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, _ := netip.ParseAddr(host)
	return a.Unmap()
}

// trusted reports whether a is one of the trusted proxies.
func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// baseURL returns the scheme and host that image URLs start with: the configured base URL, or
// the request's (X-Forwarded-Proto and X-Forwarded-Host believed from trusted proxies only); ""
// when there is neither (an HTTP/1.0 request without Host).
func (s *Server) baseURL(r *http.Request) string {
	if s.cfg.BaseURL != "" {
		return s.cfg.BaseURL
	}
	scheme, host := "http", r.Host
	if r.TLS != nil {
		scheme = "https"
	}
	if s.trusted(peerAddr(r)) {
		if p := r.Header.Get("X-Forwarded-Proto"); p == "http" || p == "https" {
			scheme = p
		}
		if h := r.Header.Get("X-Forwarded-Host"); h != "" && !strings.ContainsAny(h, "/?#@ ,") {
			host = h
		}
	}
	if host == "" {
		return ""
	}
	return scheme + "://" + host
}

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
