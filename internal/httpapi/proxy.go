// Proxy trust: who is calling (the peer, or through trusted proxies X-Forwarded-For) and the
// scheme and host the service is reached at (X-Forwarded-Proto and -Host from them only).

package httpapi

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

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
