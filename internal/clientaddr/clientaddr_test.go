package clientaddr

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

// loopback trusts this machine's addresses as proxies.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// TestUnusableHopWarns logs an unusable hop once per forwardWarnInterval, with the
// proxy's address, the hop and its key, and how many went unlogged.
func TestUnusableHopWarns(t *testing.T) {
	var log bytes.Buffer
	s := New(loopback, 0, slog.New(slog.NewJSONHandler(&log, nil)))
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "127.0.0.1:5555"
	r.Header.Set("X-Forwarded-For", "unknown")
	for range 1000 {
		s.Key(r)
	}
	if n := strings.Count(log.String(), "\n"); n != 1 || !strings.Contains(log.String(), `"level":"WARN"`) ||
		!strings.Contains(log.String(), `"proxy":"127.0.0.1","hop":"unknown","key":"forwarded:unknown"`) {
		t.Fatalf("%d lines: %s", n, log.String())
	}
	log.Reset()
	s.warnedAt.Add(-int64(forwardWarnInterval)) // a minute on
	s.Key(r)
	if !strings.Contains(log.String(), `"not_logged_since_last":999`) {
		t.Errorf("the next warning: %s", log.String())
	}
}

// FuzzForwardedNode: any hop is read without a panic, and an address read from one reads back as
// itself, bare, bracketed with a port and quoted.
func FuzzForwardedNode(f *testing.F) {
	for _, s := range []string{"203.0.113.1:1000", "[2001:db8::1]:443", `"[2001:db8::1]"`, "unknown", "_x", "[", `"`, "1.2.3.4:_a.b-c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, hop string) {
		a, ok := forwardedNode(hop)
		if !ok {
			return
		}
		if a.Zone() != "" || a.Is4In6() {
			t.Fatalf("%q: %s keeps a zone or a mapping", hop, a)
		}
		bracketed := "[" + a.String() + "]:1"
		if a.Is4() {
			bracketed = a.String() + ":1"
		}
		for _, again := range []string{a.String(), bracketed, `"` + bracketed + `"`} {
			if b, ok := forwardedNode(again); !ok || b != a {
				t.Fatalf("%q read as %s, but %q as %s, %v", hop, a, again, b, ok)
			}
		}
	})
}
