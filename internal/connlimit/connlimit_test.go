package connlimit

import (
	"io"
	"net"
	"net/netip"
	"testing"
	"time"
)

// dialFrom connects to addr from the local address from, and reports whether the server keeps
// the connection open (a read times out) rather than closing it at once (EOF).
func dialFrom(t *testing.T, from, addr string) (net.Conn, bool) {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(150 * time.Millisecond))
	_, err = c.Read(make([]byte, 1))
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return c, true
	}
	if err != io.EOF && err != nil {
		t.Logf("read: %v", err)
	}
	return c, false
}

// serveHolding accepts connections from l and holds them open until the test ends.
func serveHolding(t *testing.T, l *Listener) {
	t.Cleanup(func() { l.Close() })
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
}

// TestPerClientAndTotal: a client past its bound is cut off at once, another client is not, a
// closed connection frees its place, and the total bounds everyone, exempt peers included.
func TestPerClientAndTotal(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := Wrap(ln, Config{Total: 6, PerClient: 3, Exempt: []netip.Prefix{netip.MustParsePrefix("127.0.0.9/32")}})
	serveHolding(t, l)
	addr := ln.Addr().String()
	var first []net.Conn
	for i := range 5 {
		c, open := dialFrom(t, "127.0.0.1", addr)
		defer c.Close()
		if open != (i < 3) {
			t.Fatalf("connection %d from 127.0.0.1: open %v", i+1, open)
		}
		first = append(first, c)
	}
	if c, open := dialFrom(t, "127.0.0.2", addr); !open {
		t.Fatal("another client is refused")
	} else {
		defer c.Close()
	}
	// The client closing first[0] frees nothing while the server holds its side (it never
	// reads here): the bounds count the server's open connections.
	first[0].Close()
	if l.Open() != 4 {
		t.Fatalf("%d open, want 4", l.Open())
	}
	// The exempt peer is bounded by the total only: 2 places are left.
	for i := range 3 {
		c, open := dialFrom(t, "127.0.0.9", addr)
		defer c.Close()
		if open != (i < 2) {
			t.Fatalf("connection %d from the exempt peer: open %v", i+1, open)
		}
	}
	if l.Refused() != 3 {
		t.Fatalf("%d refused, want 3", l.Refused())
	}
}

// TestReleaseOnClose: when the server closes a connection, its client's place is free again.
func TestReleaseOnClose(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := Wrap(ln, Config{PerClient: 1})
	t.Cleanup(func() { l.Close() })
	accepted := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	c1, open := dialFrom(t, "127.0.0.1", ln.Addr().String())
	defer c1.Close()
	if !open {
		t.Fatal("the first connection is refused")
	}
	if _, open := dialFrom(t, "127.0.0.1", ln.Addr().String()); open {
		t.Fatal("a second connection is kept")
	}
	s := <-accepted
	s.Close()
	s.Close() // twice: counted once
	if c, open := dialFrom(t, "127.0.0.1", ln.Addr().String()); !open {
		t.Fatal("the place of a closed connection is not free")
	} else {
		c.Close()
	}
	if l.Open() != 1 {
		t.Fatalf("%d open, want 1", l.Open())
	}
}

// TestIPv6Prefix: IPv6 clients count by their /64 (or the prefix configured).
func TestIPv6Prefix(t *testing.T) {
	l := Wrap(nil, Config{PerClient: 1})
	a, _ := l.client(&net.TCPAddr{IP: net.ParseIP("2001:db8:1:2::1"), Port: 1})
	b, _ := l.client(&net.TCPAddr{IP: net.ParseIP("2001:db8:1:2:ffff::9"), Port: 2})
	c, _ := l.client(&net.TCPAddr{IP: net.ParseIP("2001:db8:1:3::1"), Port: 3})
	if a != b || a == c || a.Bits() != 64 {
		t.Fatalf("%v %v %v", a, b, c)
	}
	v4, _ := l.client(&net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 4})
	if v4.Bits() != 32 {
		t.Fatalf("%v", v4)
	}
}
