package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"
)

// step is one call of a sequence: AllowN of n codes, or Refund of n.
type step struct {
	refund bool
	n      int
}

func (s step) String() string {
	if s.refund {
		return fmt.Sprintf("Refund(%d)", s.n)
	}
	return fmt.Sprintf("AllowN(%d)", s.n)
}

// repeat returns n steps s.
func repeat(s step, n int) []step {
	out := make([]step, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestLimitersAgree drives the in-memory and the Redis limiter through the same sequences of
// singles, batches allowed and refused, and refunds, a step of one right after the same step of
// the other, and holds their Decisions to each other: Allowed, Limit and Remaining exactly,
// Reset and RetryAfter within the little time between the two calls. Issue 26 (11): after 59
// singles and a refused batch of 2, Redis said 0 left when 1 was (redis_rate's script answers
// 0 for any refusal). Redis may say one more left when a second passes between the two calls.
func TestLimitersAgree(t *testing.T) {
	url := testRedisURL(t)
	one, two := step{n: 1}, step{n: 2}
	sequences := map[string][]step{
		"59 singles, a batch of 2 refused, a batch of 1": append(repeat(one, 59), two, one, one, two),
		"a batch refused, refunds, a batch": {{n: 50}, {n: 20}, {refund: true, n: 5}, {n: 16}, {n: 15}, one,
			{refund: true, n: 60}, one, {n: 60}, {n: 59}},
		"a refund of nothing":            {{refund: true, n: 3}, one, {refund: true, n: 1}, {refund: true, n: 1}, one},
		"more than the budget, then all": {{n: 61}, {n: 60}, one, {refund: true, n: 1}, one, one},
	}
	rng := rand.New(rand.NewPCG(26, 11))
	var random []step
	for range 300 {
		random = append(random, step{refund: rng.IntN(4) == 0, n: 1 + rng.IntN(8)})
	}
	sequences["300 random steps"] = random
	const tolerance = 100 * time.Millisecond
	for name, steps := range sequences {
		t.Run(name, func(t *testing.T) {
			memory := NewMemory(60, time.Minute, nil)
			redis, err := newRedis(url, 60, slog.New(slog.DiscardHandler), patientTimeout)
			if err != nil {
				t.Fatal(err)
			}
			defer redis.Close()
			caller := uniqueCaller("agree")
			for i, s := range steps {
				var decisions [2]Decision
				start := time.Now()
				for j, l := range []Limiter{memory, redis} {
					call := l.AllowN
					if s.refund {
						call = l.Refund
					}
					d, err := call(context.Background(), caller, s.n)
					if err != nil {
						t.Fatalf("step %d, %v: %v", i, s, err)
					}
					decisions[j] = d
				}
				m, r := decisions[0], decisions[1]
				// Redis is asked just after memory: when a second's code is regained between the
				// two calls (a slow machine), Redis may have one more left, never one fewer; and its
				// durations, counted from a later now, may be shorter by the time the calls took.
				late := tolerance + time.Since(start)
				if m.Allowed != r.Allowed || m.Limit != r.Limit || r.Remaining != m.Remaining && r.Remaining != m.Remaining+1 ||
					(m.Reset-r.Reset).Abs() > late || (m.RetryAfter-r.RetryAfter).Abs() > late {
					t.Fatalf("step %d, %v: memory %+v, redis %+v", i, s, m, r)
				}
			}
		})
	}
}

// TestRefund checks Refund on both limiters: codes given back pass again, a refund never makes a
// budget more than whole, and a refund's Decision is the budget afterwards.
func TestRefund(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	limiters := bothLimiters(t, func() time.Time { return now })
	ctx := context.Background()
	for name, l := range limiters {
		caller := uniqueCaller("refund-" + name)
		if d, err := l.AllowN(ctx, caller, 60); err != nil || !d.Allowed || d.Remaining != 0 {
			t.Fatalf("%s: the whole budget: %+v %v", name, d, err)
		}
		if d, err := l.Refund(ctx, caller, 45); err != nil || !d.Allowed || d.Remaining != 45 {
			t.Fatalf("%s: 45 given back: %+v %v", name, d, err)
		}
		if d, _ := l.AllowN(ctx, caller, 45); !d.Allowed || d.Remaining != 0 {
			t.Fatalf("%s: the 45 given back, spent again: %+v", name, d)
		}
		if d, _ := l.Refund(ctx, caller, 1000); d.Remaining != 60 || d.Reset > time.Millisecond {
			t.Fatalf("%s: more given back than was spent: %+v, want the whole budget and no more", name, d)
		}
		if d, _ := l.AllowN(ctx, caller, 61); d.Allowed {
			t.Fatalf("%s: 61 after a refund of 1000: %+v", name, d)
		}
	}
}
