package ratelimit

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// bucket is the simple model of one caller's window that Memory must agree with: a leaky
// bucket that holds limit intervals of work, drains one nanosecond of it a nanosecond, and
// takes a request when the request's interval still fits.
type bucket struct {
	level, last int64 // nanoseconds of work in the bucket, when it was last drained
}

// allow drains the bucket to now and adds a request if it fits: the decision and the
// RateLimit figures the model gives.
func (b *bucket) allow(now, interval int64, limit int) Decision {
	b.level = max(0, b.level-(now-b.last))
	b.last = now
	d := Decision{Limit: limit}
	if capacity := interval * int64(limit); b.level+interval <= capacity {
		d.Allowed = true
		b.level += interval
	} else {
		d.RetryAfter = time.Duration(b.level + interval - capacity)
	}
	d.Remaining = int((interval*int64(limit) - b.level) / interval)
	d.Reset = time.Duration(b.level)
	return d
}

// TestMemoryAgainstModel: random arrivals of a few callers, bursts and pauses, give the same
// answer, request by request, from Memory as from the bucket model, for budgets from 1 to
// 100,000,000 a minute; Memory keeps at most one entry per caller whatever the budget.
func TestMemoryAgainstModel(t *testing.T) {
	for _, limit := range []int{1, 2, 7, 60, 1000, 100_000_000} {
		t.Run(strconv.Itoa(limit), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(limit), 17))
			now := time.Unix(1_000_000, 0)
			m := NewMemory(limit, time.Minute, func() time.Time { return now })
			interval := m.interval
			model := map[string]*bucket{}
			for i := range 20_000 {
				switch r := rng.IntN(100); {
				case r < 60: // a burst: no time passes
				case r < 95: // about the steady rate
					now = now.Add(time.Duration(rng.Int64N(2*interval + 1)))
				default: // a pause of up to two windows
					now = now.Add(time.Duration(rng.Int64N(int64(2 * time.Minute))))
				}
				caller := "caller-" + strconv.Itoa(rng.IntN(4))
				if model[caller] == nil {
					model[caller] = &bucket{last: now.UnixNano()}
				}
				want := model[caller].allow(now.UnixNano(), interval, limit)
				got, err := m.Allow(context.Background(), caller)
				if err != nil || got != want {
					t.Fatalf("request %d of %s at %v: %+v, %v; the model says %+v", i, caller, now, got, err, want)
				}
				if len(m.tat) > len(model) {
					t.Fatalf("%d entries for %d callers", len(m.tat), len(model))
				}
			}
		})
	}
}

// BenchmarkMemoryAllow: the cost of a request is the same whatever the budget (compare the
// sub-benchmarks): one hash, one map entry, a few comparisons.
func BenchmarkMemoryAllow(b *testing.B) {
	for _, limit := range []int{60, 100_000_000} {
		b.Run(strconv.Itoa(limit), func(b *testing.B) {
			m := NewMemory(limit, time.Minute, nil)
			callers := make([]string, 1024)
			for i := range callers {
				callers[i] = "192.0.2." + strconv.Itoa(i)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				m.Allow(context.Background(), callers[i&1023])
				i++
			}
		})
	}
}
