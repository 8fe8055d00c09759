// Proxy trust: who is calling (the peer, or through trusted proxies X-Forwarded-For) and the
// scheme and host the service is reached at (X-Forwarded-Proto and -Host from them only).

package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// caller returns who is asking, for the rate limit: the peer's address, or when the peer is a
// trusted proxy the right-most hop of X-Forwarded-For that is not a trusted proxy. An IPv6
// address counts by its prefix of Config.IPv6Prefix bits (a /64 by default): an IPv6 host
// usually owns a whole /64 and could otherwise be a million callers.
//
// A hop is read as an RFC 7239 node (section 6), the form proxies write with a port:
// 203.0.113.1, 203.0.113.1:1000, [2001:db8::1], [2001:db8::1]:443, each perhaps in quotes as a
// Forwarded header's for= writes it (see forwardedNode). Only X-Forwarded-For is read, never the
// Forwarded header: a proxy that sets one and passes the other on from the client unchecked would
// let a client choose its own key, and there is one header to configure a proxy for.
//
// The right-most untrusted hop was written by the trusted proxy to its right, so when that hop
// is no address ("unknown", an obfuscated identifier such as _hidden, or garbage) the caller is
// keyed by the hop itself (unusableHopKey), never by the trusted proxy's address: that address is
// the connection's and is shared by every client behind the proxy, so falling back to it would
// give the whole site one budget. A warning is logged at most once per forwardWarnInterval.
func (s *Server) caller(r *http.Request) string {
	peer := peerAddr(r)
	if !s.trusted(peer) {
		return s.callerKey(peer)
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop := strings.TrimSpace(hops[i])
		if hop == "" {
			continue // an empty list element, which RFC 9110 section 5.6.1 says to ignore
		}
		a, ok := forwardedNode(hop)
		if !ok {
			s.warnUnusableHop(peer, hop)
			return unusableHopKey(hop)
		}
		if !s.trusted(a) {
			return s.callerKey(a)
		}
		peer = a
	}
	return s.callerKey(peer)
}

// forwardedNode returns the address of one X-Forwarded-For hop written as an RFC 7239 node
// (section 6: node = nodename [ ":" node-port ]), inside the quotes of a quoted-string (section
// 4) if any: an IPv4 address or a bracketed IPv6 address, each with or without a port, or a bare
// IPv6 address as X-Forwarded-For writes it. A port (digits, or an obfuscated port: "_" and then
// letters, digits, ".", "_" and "-", section 6.3) is read and dropped, and so is an IPv6 zone.
// ok is false for anything else, "unknown" and obfuscated node names included.
func forwardedNode(hop string) (a netip.Addr, ok bool) {
	if len(hop) >= 2 && hop[0] == '"' && hop[len(hop)-1] == '"' {
		hop = hop[1 : len(hop)-1]
	}
	host, port, bracketed := hop, "", false
	if rest, found := strings.CutPrefix(hop, "["); found {
		h, after, closed := strings.Cut(rest, "]")
		if !closed || after != "" && after[0] != ':' {
			return netip.Addr{}, false
		}
		host, port, bracketed = h, after, true
	} else if _, err := netip.ParseAddr(hop); err != nil {
		host, port, _ = strings.Cut(hop, ":") // an IPv4 address and its port
		port = hop[len(host):]
	}
	a, err := netip.ParseAddr(host)
	if err != nil || bracketed && !a.Is6() || port != "" && (!nodePort(port[1:]) || !bracketed && !a.Is4()) {
		return netip.Addr{}, false
	}
	return a.WithZone("").Unmap(), true
}

// nodePort reports whether p is an RFC 7239 node-port (section 6): a port of 1 to 5 digits, or
// an obfuscated port, "_" and then letters, digits, ".", "_" and "-".
func nodePort(p string) bool {
	obfuscated := strings.HasPrefix(p, "_")
	if p == "" || p == "_" || !obfuscated && len(p) > 5 {
		return false
	}
	for _, c := range []byte(p) {
		digit := '0' <= c && c <= '9'
		if !digit && !(obfuscated && (c == '.' || c == '_' || c == '-' || 'a' <= c|0x20 && c|0x20 <= 'z')) {
			return false
		}
	}
	return true
}

// maxHopKey bounds how much of an unusable hop becomes a rate-limit key: more than any address
// with its port takes (55 bytes for a quoted, bracketed IPv6 address and port); a longer hop is
// keyed by its hash.
const maxHopKey = 64

// unusableHopKey returns the rate-limit key of a caller whose right-most untrusted hop is no
// address. The trusted proxy wrote the hop, so the hop names that proxy's client as well as the
// proxy can: an obfuscated identifier (RFC 7239 section 6.3) is usually one client's, and
// "unknown" is all the proxy's clients it cannot name, who then share a budget as the proxy chose;
// neither is the budget of every client behind the proxy. The key's "forwarded:" prefix cannot
// be an address's key; a hop longer than maxHopKey is keyed by its SHA-256, so no key is long.
func unusableHopKey(hop string) string {
	if len(hop) > maxHopKey {
		sum := sha256.Sum256([]byte(hop))
		return "forwarded:sha256:" + hex.EncodeToString(sum[:16])
	}
	return "forwarded:" + hop
}

// forwardWarnInterval is how often an unusable X-Forwarded-For hop is logged at most, so that a
// flood of them cannot fill the log.
const forwardWarnInterval = time.Minute

// warnUnusableHop logs, at most once per forwardWarnInterval, that the trusted proxy at proxy
// wrote hop where its client's address belongs, with how many were not logged since the last
// warning.
func (s *Server) warnUnusableHop(proxy netip.Addr, hop string) {
	now := time.Now().UnixNano()
	last := s.hopWarnedAt.Load()
	if now-last < int64(forwardWarnInterval) || !s.hopWarnedAt.CompareAndSwap(last, now) {
		s.hopWarnSkipped.Add(1)
		return
	}
	key := unusableHopKey(hop)
	if len(hop) > maxHopKey {
		hop = strings.ToValidUTF8(hop[:maxHopKey], "") + "…"
	}
	s.cfg.Logger.Warn("X-Forwarded-For: the right-most untrusted hop is no address; the caller is rate-limited by the hop itself",
		"proxy", proxy.String(), "hop", hop, "key", key, "not_logged_since_last", s.hopWarnSkipped.Swap(0))
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
	if s.trusted(peerAddr(r)) {
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
