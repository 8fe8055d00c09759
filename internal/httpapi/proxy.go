// Proxy trust: who is calling (the peer, or through trusted proxies X-Forwarded-For) and the
// scheme and host the service is reached at (X-Forwarded-Proto and -Host from them only).

package httpapi

import (
	"net/http"
	"net/netip"
	"strconv"
	"strings"
)

// caller returns who is asking, for the rate limit (clientaddr.Resolver.Key).
func (s *Server) caller(r *http.Request) string { return s.clients.Key(r) }

// baseURL returns the scheme and host that image URLs start with: the configured base URL, or
// the request's (X-Forwarded-Proto and X-Forwarded-Host believed from trusted proxies only); ""
// when there is neither (an HTTP/1.0 request without Host), or the host is none a URL can hold
// (see uriHost).
func (s *Server) baseURL(r *http.Request) string {
	if s.cfg.BaseURL != "" {
		return s.cfg.BaseURL
	}
	scheme, host := "http", r.Host
	if r.TLS != nil {
		scheme = "https"
	}
	if s.clients.TrustedPeer(r) {
		if p := r.Header.Get("X-Forwarded-Proto"); p == "http" || p == "https" {
			scheme = p
		}
		if h := r.Header.Get("X-Forwarded-Host"); h != "" && !strings.ContainsAny(h, "/?#@ ,") {
			host = h
		}
	}
	if !uriHost(host) {
		return "" // none, or none that a URL can hold: the answer names no link rather than a broken one
	}
	return scheme + "://" + host
}

// uriHost reports whether h is a URL's host and optional port (RFC 3986 3.2.2, 3.2.3): an IPv6
// address in brackets, or a name or IPv4 address of letters, digits, "-._~!$&'()*+,;=" and
// percent-encodings, then perhaps ":" and a port up to 65535. net/http refuses a Host with other
// bytes (ValidHostHeader) but lets "a:b:c", "[::1" and "x:99999" through.
func uriHost(h string) bool {
	host, port, hasPort := h, "", false
	if rest, ok := strings.CutPrefix(h, "["); ok {
		addr, after, closed := strings.Cut(rest, "]")
		if a, err := netip.ParseAddr(addr); !closed || err != nil || !a.Is6() || a.Zone() != "" {
			return false
		}
		if after != "" && after[0] != ':' {
			return false
		}
		host, port, hasPort = "", strings.TrimPrefix(after, ":"), after != ""
	} else {
		host, port, hasPort = strings.Cut(h, ":")
		if host == "" || !regName(host) {
			return false
		}
	}
	if hasPort && port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 0 || n > 65535 || port[0] == '+' || port[0] == '-' {
			return false
		}
	}
	return true
}

// regName reports whether s is an RFC 3986 reg-name (3.2.2), which covers IPv4 addresses:
// unreserved characters, sub-delims and percent-encodings.
func regName(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c|0x20 && c|0x20 <= 'z', '0' <= c && c <= '9', strings.IndexByte("-._~!$&'()*+,;=", c) >= 0:
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			i += 2
		default:
			return false
		}
	}
	return true
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f' }
