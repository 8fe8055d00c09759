package httpapi

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/bananaqr/bananaqr/internal/testenv"
)

// redisLimiter returns a Redis limiter of limit a minute on the test Redis
// (BANANAQR_TEST_REDIS_URL), or skips; in CI a missing Redis fails the test.
func redisLimiter(t *testing.T, url string, limit int) *ratelimit.Redis {
	t.Helper()
	if url == "" {
		url = testenv.RedisURL(t)
	}
	r, err := ratelimit.NewRedis(url, limit, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestReplicasShareBudget runs two servers, each with its own Redis limiter on the same Redis:
// 10 codes a minute across both succeed, and the 11th gets 429 from either. (At 10 a minute a
// code comes back every 6 s, so a loaded machine cannot refill the budget mid-test, as it could
// at 60 a minute, one a second.)
func TestReplicasShareBudget(t *testing.T) {
	const limit = 10
	a := newTestServer(t, Config{Limiter: redisLimiter(t, "", limit), TrustedProxies: loopback})
	b := newTestServer(t, Config{Limiter: redisLimiter(t, "", limit), TrustedProxies: loopback})
	n := time.Now().UnixNano()
	caller := map[string]string{"X-Forwarded-For": fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)}
	for i := range limit {
		ts := []*testServer{a, b}[i%2]
		if r := ts.do(t, http.MethodGet, "/api/qr-code.svg?text=x", "", caller); r.status != http.StatusOK {
			t.Fatalf("code %d: %d", i+1, r.status)
		}
	}
	for _, ts := range []*testServer{a, b} {
		ts.do(t, http.MethodGet, "/api/qr-code.svg?text=x", "", caller).wantError(t, http.StatusTooManyRequests, api.ReasonRateLimited)
	}
	var ready Readiness
	if err := json.Unmarshal(a.get(t, "/readyz").body, &ready); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	if ready != (Readiness{OK: true, RateLimit: "redis", Backend: "up", RateLimitEnforced: true}) {
		t.Errorf("/readyz %+v", ready)
	}
}

// TestRedisDown serves with a Redis that does not answer: codes are made (fail open), /healthz
// is fine and /readyz says the backend is down.
func TestRedisDown(t *testing.T) {
	testenv.RedisURL(t) // the Redis tests are wanted here
	ts := newTestServer(t, Config{Limiter: redisLimiter(t, "redis://127.0.0.1:1/0", 1)})
	for range 5 {
		if r := ts.get(t, "/api/qr-code.svg?text=x"); r.status != http.StatusOK {
			t.Fatalf("Redis down: %d", r.status)
		}
	}
	if r := ts.get(t, "/healthz"); r.status != http.StatusOK {
		t.Fatalf("/healthz: %d", r.status)
	}
	var ready Readiness
	r := ts.get(t, "/readyz")
	if err := json.Unmarshal(r.body, &ready); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	if r.status != http.StatusOK || ready != (Readiness{OK: true, RateLimit: "redis", Backend: "down"}) {
		t.Errorf("/readyz %d %+v", r.status, ready)
	}
}
