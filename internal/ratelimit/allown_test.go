package ratelimit

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/internal/testenv"
)

// TestAllowN checks batches against both limiters: 50 of 60 pass, then 20 are refused whole
// and nothing of them is counted (the 10 left still pass one by one), and a batch larger than
// the whole budget never passes.
func TestAllowN(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	limiters := bothLimiters(t, func() time.Time { return now })
	ctx := context.Background()
	for name, l := range limiters {
		caller := uniqueCaller("allown-" + name)
		if d, err := l.AllowN(ctx, caller, 50); err != nil || !d.Allowed || d.Remaining != 10 {
			t.Fatalf("%s: 50 of 60: %+v %v", name, d, err)
		}
		d, err := l.AllowN(ctx, caller, 20)
		if err != nil || d.Allowed || d.RetryAfter <= 0 {
			t.Fatalf("%s: 20 more of 10 left: %+v %v", name, d, err)
		}
		if d.RetryAfter < 9*time.Second || d.RetryAfter > 10*time.Second {
			t.Errorf("%s: 20 with 10 left: retry after %v, want about 10 s (ten more places)", name, d.RetryAfter)
		}
		for i := range 10 {
			if d, err := l.Allow(ctx, caller); err != nil || !d.Allowed {
				t.Fatalf("%s: single %d after the refused batch: %+v %v", name, i+1, d, err)
			}
		}
		if d, _ := l.Allow(ctx, caller); d.Allowed {
			t.Errorf("%s: the 61st: %+v", name, d)
		}
		if d, _ := l.AllowN(ctx, uniqueCaller("allown-big-"+name), 61); d.Allowed {
			t.Errorf("%s: 61 at once passed: %+v", name, d)
		}
		if d, _ := l.AllowN(ctx, uniqueCaller("allown-all-"+name), 60); !d.Allowed || d.Remaining != 0 {
			t.Errorf("%s: the whole budget at once: %+v", name, d)
		}
	}
}

// testRedisURLOrEmpty returns the test Redis's URL, or "" (after saying so) when it is not set
// outside CI.
func testRedisURLOrEmpty(t *testing.T) string {
	t.Helper()
	url := os.Getenv("BANANAQR_TEST_REDIS_URL")
	testenv.Optional(t, url != "", "BANANAQR_TEST_REDIS_URL is not set: the Redis limiter is not tested")
	return url
}

// patientTimeout is the Redis timeout of the tests that compare the limiters' answers: NewRedis's
// 100 ms fails open on a CI machine loaded by the race detector and other test groups, which
// those tests do not test (redis_test.go does).
const patientTimeout = 2 * time.Second

// bothLimiters returns the limiters of 60 codes a minute to hold to the same behaviour: a Memory
// on the clock now, and a Redis one when BANANAQR_TEST_REDIS_URL names a Redis.
func bothLimiters(t *testing.T, now func() time.Time) map[string]Limiter {
	t.Helper()
	limiters := map[string]Limiter{"memory": NewMemory(60, time.Minute, now)}
	if url := testRedisURLOrEmpty(t); url != "" {
		r, err := newRedis(url, 60, slog.New(slog.DiscardHandler), patientTimeout)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		limiters["redis"] = r
	}
	return limiters
}
