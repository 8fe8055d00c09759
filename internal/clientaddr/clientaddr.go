// Package clientaddr names the client of an HTTP request, for rate limits: the connection's
// other end, or, when that is a trusted reverse proxy, the client the proxies name in
// X-Forwarded-For. Both servers use it: bananaqr serve's rate limit (internal/httpapi) and the
// expenses server's authorization server (expenses/oauth).
package clientaddr

import (
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"
)

// A Resolver names clients behind a set of trusted proxies. It is safe for concurrent use.
type Resolver struct {
	proxies    []netip.Prefix
	ipv6Prefix int
	logger     *slog.Logger
	// warnedAt is when an unusable X-Forwarded-For hop was last logged (Unix nanoseconds), and
	// skipped how many were not logged since.
	warnedAt, skipped atomic.Int64
}

// New returns the Resolver that believes the X-Forwarded-For of the peers in proxies, counts an
// IPv6 client by its prefix of ipv6Prefix bits (64 when out of 1 to 128), and logs unusable hops
// to logger (slog.Default() when nil).
func New(proxies []netip.Prefix, ipv6Prefix int, logger *slog.Logger) *Resolver {
	if ipv6Prefix <= 0 || ipv6Prefix > 128 {
		ipv6Prefix = 64
	}
	if logger == nil {
		logger = slog.Default()
	}
	return &Resolver{proxies: proxies, ipv6Prefix: ipv6Prefix, logger: logger}
}

// TrustedPeer reports whether the connection of r comes from a trusted proxy, whose
// X-Forwarded-* headers may be believed.
func (s *Resolver) TrustedPeer(r *http.Request) bool { return s.trusted(Peer(r)) }

// Key returns who is asking, for a rate limit: the peer's address, or when the peer is a
// trusted proxy the right-most hop of X-Forwarded-For that is not a trusted proxy. An IPv6
// address counts by its prefix of the resolver's IPv6 prefix bits (a /64 by default): an IPv6 host
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
func (s *Resolver) Key(r *http.Request) string {
	peer := Peer(r)
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
func (s *Resolver) warnUnusableHop(proxy netip.Addr, hop string) {
	now := time.Now().UnixNano()
	last := s.warnedAt.Load()
	if now-last < int64(forwardWarnInterval) || !s.warnedAt.CompareAndSwap(last, now) {
		s.skipped.Add(1)
		return
	}
	key := unusableHopKey(hop)
	if len(hop) > maxHopKey {
		hop = strings.ToValidUTF8(hop[:maxHopKey], "") + "…"
	}
	s.logger.Warn("X-Forwarded-For: the right-most untrusted hop is no address; the caller is rate-limited by the hop itself",
		"proxy", proxy.String(), "hop", hop, "key", key, "not_logged_since_last", s.skipped.Swap(0))
}

// callerKey returns the rate limit's key of a caller at a: the IPv4 address, or the IPv6
// prefix of the resolver's IPv6 prefix bits.
func (s *Resolver) callerKey(a netip.Addr) string {
	if !a.Is6() || s.ipv6Prefix >= 128 {
		return a.String()
	}
	p, _ := a.Prefix(s.ipv6Prefix)
	return p.String()
}

// Peer returns the address of the connection's other end.
func Peer(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, _ := netip.ParseAddr(host)
	return a.Unmap()
}

// trusted reports whether a is one of the trusted proxies.
func (s *Resolver) trusted(a netip.Addr) bool {
	for _, p := range s.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
