package httpapi

import (
	"net/http"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// TestRateLimitIPv6Prefix: IPv6 callers count by their /64 (Config.IPv6Prefix): a million
// addresses of one /64 are one caller; the next /64 is another.
func TestRateLimitIPv6Prefix(t *testing.T) {
	for _, c := range []struct {
		prefix   int
		sameBits string // an address that shares the first caller's prefix
	}{
		{0, "2001:db8:1:2:ffff:ffff:ffff:fffe"}, // the default, 64
		{48, "2001:db8:1:ffff::1"},
	} {
		ts := newTestServer(t, Config{Limiter: ratelimit.NewMemory(3, time.Minute, nil), TrustedProxies: loopback, IPv6Prefix: c.prefix})
		code := func(ip string) *result {
			return ts.do(t, "GET", "/api/qr-code.svg?text=x", "", map[string]string{"X-Forwarded-For": ip})
		}
		for _, ip := range []string{"2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:a:b:c:d"} {
			if r := code(ip); r.status != http.StatusOK {
				t.Fatalf("/%d: %s: %d", c.prefix, ip, r.status)
			}
		}
		code(c.sameBits).wantError(t, http.StatusTooManyRequests, api.ReasonRateLimited)
		if r := code("2001:db8:2::1"); r.status != http.StatusOK {
			t.Errorf("/%d: another prefix: %d", c.prefix, r.status)
		}
		if r := code("192.0.2.1"); r.status != http.StatusOK {
			t.Errorf("/%d: an IPv4 caller: %d", c.prefix, r.status)
		}
	}
}
