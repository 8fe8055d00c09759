package httpapi

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// TestCallerForwardedForms reads each way a proxy writes its client into X-Forwarded-For (RFC
// 7239 section 6's nodes: with a port, bracketed, quoted) as that client, never as the proxy.
func TestCallerForwardedForms(t *testing.T) {
	s := New(Config{TrustedProxies: loopback, Logger: slog.New(slog.DiscardHandler)})
	for _, c := range []struct{ xff, want string }{
		{"203.0.113.1", "203.0.113.1"},
		{"203.0.113.1:1000", "203.0.113.1"},
		{"203.0.113.1:_port-1", "203.0.113.1"},
		{`"203.0.113.1:1000"`, "203.0.113.1"},
		{"2001:db8::1", "2001:db8::/64"},
		{"[2001:db8::1]", "2001:db8::/64"},
		{"[2001:db8::1]:443", "2001:db8::/64"},
		{`"[2001:db8::1]:443"`, "2001:db8::/64"},
		{"[::ffff:203.0.113.1]:80", "203.0.113.1"},
		{"fe80::1%eth0", "fe80::/64"},
		{"198.51.100.7, 203.0.113.1:1000, 127.0.0.1:8080", "203.0.113.1"}, // a trusted hop with a port is skipped
		{"203.0.113.1, ", "203.0.113.1"},                                  // an empty element is no hop
		{"", "127.0.0.1"},                                                 // the proxy calling for itself
		{"127.0.0.1:9, ::1", "127.0.0.1"},
		// Hops that are no address key the caller by the hop, not by the proxy.
		{"203.0.113.1, garbage", "forwarded:garbage"},
		{"unknown", "forwarded:unknown"},
		{"_hidden", "forwarded:_hidden"},
		{"203.0.113.1:", "forwarded:203.0.113.1:"},
		{"203.0.113.1:123456", "forwarded:203.0.113.1:123456"},
		{"[203.0.113.1]", "forwarded:[203.0.113.1]"},
		{"[2001:db8::1", "forwarded:[2001:db8::1"},
		{"[2001:db8::1]443", "forwarded:[2001:db8::1]443"},
		{"2001:db8::1:443x", "forwarded:2001:db8::1:443x"},
		{strings.Repeat("x", 65), "forwarded:sha256:"},
	} {
		r := httptest.NewRequest("GET", "/api/qr-code?text=x", nil)
		r.RemoteAddr = "127.0.0.1:5555"
		if c.xff != "" {
			r.Header.Set("X-Forwarded-For", c.xff)
		}
		got := s.caller(r)
		if strings.HasSuffix(c.want, "sha256:") {
			if !strings.HasPrefix(got, c.want) || len(got) != len(c.want)+32 {
				t.Errorf("%q: %q, want a hashed key", c.xff, got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.xff, got, c.want)
		}
	}
}

// TestForwardedPortsSeparateBudgets: two clients behind a proxy that writes ports into
// X-Forwarded-For (as RFC 7239 nodes) each get their own budget; before, both counted as the
// proxy and shared one.
func TestForwardedPortsSeparateBudgets(t *testing.T) {
	for _, pair := range [][2]string{
		{"203.0.113.1:1000", "203.0.113.2:1000"},
		{"[2001:db8:1::1]:443", "[2001:db8:2::1]:443"},
		{"[2001:db8:1::1]", `"[2001:db8:2::1]:443"`},
		{"unknown, garbage", "_obfuscated"},
	} {
		ts := newTestServer(t, Config{Limiter: ratelimit.NewMemory(3, time.Minute, nil), TrustedProxies: loopback})
		code := func(xff string) *result {
			return ts.do(t, "GET", "/api/qr-code.svg?text=x", "", map[string]string{"X-Forwarded-For": xff})
		}
		for i := range 3 {
			if r := code(pair[0]); r.status != http.StatusOK {
				t.Fatalf("%s: request %d: %d", pair[0], i+1, r.status)
			}
		}
		code(pair[0]).wantError(t, http.StatusTooManyRequests, api.ReasonRateLimited)
		if r := code(pair[1]); r.status != http.StatusOK {
			t.Errorf("%s after %s spent its budget: %d", pair[1], pair[0], r.status)
		}
		// The proxy's own budget is untouched.
		if r := ts.get(t, "/api/qr-code.svg?text=x"); r.status != http.StatusOK {
			t.Errorf("the proxy itself after %s: %d", pair[0], r.status)
		}
	}
}

// TestMalformedHostNoLink: a Host that net/http lets through but that no URL can hold is taken
// as no Host: the code is served without image_url and svg_url (warning NO_PUBLIC_URL), never
// with a broken link; a host and port of RFC 3986 still make the links.
func TestMalformedHostNoLink(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, c := range []struct {
		host string
		ok   bool
	}{
		{"a:b:c", false}, {"[::1", false}, {"[::1]x", false}, {"[203.0.113.1]", false}, {"x:99999", false},
		{"x:-1", false}, {"x%zz", false}, {":80", false},
		{"qr.example.com", true}, {"qr.example.com:8080", true}, {"[2001:db8::1]:8443", true}, {"[::1]", true},
		{"203.0.113.1:80", true}, {"xn--caf-dma.example", true}, {"a%41.example", true},
	} {
		res, body := raw(t, ts, "GET /api/qr-code?url=example.com&format=json HTTP/1.1\r\nHost: "+c.host+"\r\nConnection: close\r\n\r\n")
		var j api.Response
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &j) != nil {
			t.Fatalf("Host %s: %d %.200s", c.host, res.StatusCode, body)
		}
		if !c.ok {
			if j.ImageURL != nil || j.SVGURL != nil || len(j.Warnings) != 1 || j.Warnings[0].Reason != api.ReasonNoPublicURL {
				t.Errorf("Host %s: image_url %v, svg_url %v, warnings %+v", c.host, j.ImageURL, j.SVGURL, j.Warnings)
			}
			continue
		}
		if j.ImageURL == nil || !strings.HasPrefix(*j.ImageURL, "http://"+c.host+"/api/qr-code.png?") {
			t.Errorf("Host %s: image_url %v", c.host, j.ImageURL)
		}
	}
}
