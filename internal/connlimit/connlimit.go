// Package connlimit bounds the connections a server holds open: in all, and from any one
// client, so that one client cannot take the file descriptors and memory that every other
// client, health checks included, needs. A connection over either bound is closed as soon as
// it is accepted, before a byte of it is read: refusing costs one accept and one close.
package connlimit

import (
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
)

// Config says how many connections a Listener keeps open.
type Config struct {
	// Total is the most connections open at once; 0 for no bound.
	Total int
	// PerClient is the most connections open at once from one client; 0 for no bound. A client
	// is an IPv4 address, or the IPv6 prefix of IPv6Prefix bits (an IPv6 host usually owns a
	// whole /64, so counting addresses would not bound it).
	PerClient int
	// IPv6Prefix is the length of the IPv6 prefix that counts as one client, 1 to 128.
	IPv6Prefix int
	// Exempt are the peers that PerClient does not bound, such as trusted reverse proxies,
	// through which many clients arrive over few addresses; Total still bounds them.
	Exempt []netip.Prefix
}

// Listener is a net.Listener that keeps at most Config's connections open.
type Listener struct {
	net.Listener
	cfg Config

	open    atomic.Int64 // connections open now
	refused atomic.Int64 // connections closed at once, since the start

	mu     sync.Mutex
	perKey map[netip.Prefix]int
}

// Wrap returns ln bounded by cfg.
func Wrap(ln net.Listener, cfg Config) *Listener {
	if cfg.IPv6Prefix <= 0 || cfg.IPv6Prefix > 128 {
		cfg.IPv6Prefix = 64
	}
	return &Listener{Listener: ln, cfg: cfg, perKey: make(map[netip.Prefix]int)}
}

// Refused returns how many connections have been closed at once for being over a bound.
func (l *Listener) Refused() int64 { return l.refused.Load() }

// Open returns how many accepted connections are open now.
func (l *Listener) Open() int64 { return l.open.Load() }

// Accept returns the next connection that is within the bounds, closing the others at once.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key, counted := l.client(c.RemoteAddr())
		if !l.admit(key, counted) {
			l.refused.Add(1)
			c.Close()
			continue
		}
		return &conn{Conn: c, l: l, key: key, counted: counted}, nil
	}
}

// client returns the key under which the peer at addr counts, and whether PerClient bounds it.
func (l *Listener) client(addr net.Addr) (netip.Prefix, bool) {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || l.cfg.PerClient <= 0 {
		return netip.Prefix{}, false
	}
	ap := tcp.AddrPort()
	a := ap.Addr().Unmap()
	for _, p := range l.cfg.Exempt {
		if p.Contains(a) {
			return netip.Prefix{}, false
		}
	}
	bits := a.BitLen()
	if a.Is6() {
		bits = l.cfg.IPv6Prefix
	}
	p, _ := a.Prefix(bits)
	return p, true
}

// admit counts a new connection of key, or reports false when it is over a bound.
func (l *Listener) admit(key netip.Prefix, counted bool) bool {
	if n := l.open.Add(1); l.cfg.Total > 0 && n > int64(l.cfg.Total) {
		l.open.Add(-1)
		return false
	}
	if !counted {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.perKey[key] >= l.cfg.PerClient {
		l.open.Add(-1)
		return false
	}
	l.perKey[key]++
	return true
}

// release uncounts a closed connection of key.
func (l *Listener) release(key netip.Prefix, counted bool) {
	l.open.Add(-1)
	if !counted {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.perKey[key]--; l.perKey[key] <= 0 {
		delete(l.perKey, key)
	}
}

// conn is an accepted connection that uncounts itself when it is closed, once.
type conn struct {
	net.Conn
	l       *Listener
	key     netip.Prefix
	counted bool
	closed  atomic.Bool
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	if !c.closed.Swap(true) {
		c.l.release(c.key, c.counted)
	}
	return err
}
