package admission

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// counts is an Observer that counts what it hears.
type counts struct{ allowed, failed, limited, started, finished, made atomic.Int64 }

func (c *counts) Decided(d LimitDecision) {
	[...]*atomic.Int64{Allowed: &c.allowed, Limited: &c.limited, FailedOpen: &c.failed}[d].Add(1)
}
func (c *counts) Started()                       { c.started.Add(1) }
func (c *counts) Finished()                      { c.finished.Add(1) }
func (c *counts) Made(api.Format, time.Duration) { c.made.Add(1) }

// limiter answers every call with d and err.
type limiter struct {
	d   ratelimit.Decision
	err error
}

func (l limiter) Allow(context.Context, string) (ratelimit.Decision, error) { return l.d, l.err }

func (l limiter) AllowN(context.Context, string, int) (ratelimit.Decision, error) { return l.d, l.err }

func (l limiter) Refund(context.Context, string, int) (ratelimit.Decision, error) { return l.d, l.err }

// TestAdmit checks the rate limit's decisions: none without a limiter, a refusal observed, and
// a failing backend let through (fail open) and observed unless the caller had hung up.
func TestAdmit(t *testing.T) {
	if d, ok := New(Config{}).Admit(context.Background(), "a"); !ok || d != (ratelimit.Decision{}) {
		t.Errorf("no limiter: %+v, %t", d, ok)
	}
	c := &counts{}
	refused := ratelimit.Decision{Limit: 5}
	if d, ok := New(Config{Limiter: limiter{d: refused}, Observer: c}).Admit(context.Background(), "a"); ok || d != refused || c.limited.Load() != 1 {
		t.Errorf("refused: %+v, %t, %d observed", d, ok, c.limited.Load())
	}
	allowed := ratelimit.Decision{Limit: 5, Allowed: true}
	if _, ok := New(Config{Limiter: limiter{d: allowed}, Observer: c}).Admit(context.Background(), "a"); !ok || c.allowed.Load() != 1 {
		t.Errorf("allowed: %t, %d observed", ok, c.allowed.Load())
	}
	g := New(Config{Limiter: limiter{err: errors.New("down")}, Observer: c})
	if _, ok := g.Admit(context.Background(), "a"); !ok || c.failed.Load() != 1 {
		t.Errorf("backend down: %t, %d failures", ok, c.failed.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok := g.Admit(ctx, "a"); !ok || c.failed.Load() != 1 {
		t.Errorf("caller gone: %t, %d failures", ok, c.failed.Load())
	}
	if c.allowed.Load() != 1 || c.limited.Load() != 1 {
		t.Errorf("%d allowed and %d limited, want 1 each", c.allowed.Load(), c.limited.Load())
	}
}

// TestCode checks the bound on work: a code made and observed, OVERLOADED when the one place
// and the one seat in the queue are taken, and a cancelled wait ending with ctx's error.
func TestCode(t *testing.T) {
	c := &counts{}
	g := New(Config{MaxActive: 1, MaxQueue: 1, Observer: c})
	req, err := api.DecodeJSON([]byte(`{"type":"text","text":"x","format":"svg"}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Code(context.Background(), &req)
	if err != nil {
		t.Fatal(err)
	}
	res.Release()
	if c.started.Load() != 1 || c.finished.Load() != 1 || c.made.Load() != 1 {
		t.Errorf("observed %d started, %d finished, %d made", c.started.Load(), c.finished.Load(), c.made.Load())
	}
	g.Acquire(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { _, err := g.Code(ctx, &req); done <- err }()
	for g.Waiting() < 1 {
		time.Sleep(time.Millisecond)
	}
	if _, err := g.Code(context.Background(), &req); api.ErrorOf(err).Reason != api.ReasonOverloaded {
		t.Errorf("a full queue: %v", err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled wait: %v", err)
	}
	g.Release()
}
