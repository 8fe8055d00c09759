// Package admission decides whether a request for a code goes ahead, the same way for both
// edges: the rate limit of its caller, then a place among the codes being made at once.
//
// It is a package of its own rather than a part of internal/generate because generate is the
// core's one way through, a plain function that does no I/O and never waits, which the CLI
// calls offline too; admission is the service's policy around it: it asks a limiter that may be
// Redis over the network, queues requests and gives up on cancelled ones. The HTTP edge
// (internal/httpapi) and the MCP edge (internal/mcpserver) both go through one Gate, so a
// caller's budget and the bound on simultaneous work are shared by the two and neither edge
// calls into the other.
package admission

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/bananaqr/bananaqr/internal/telemetry"
)

// Observer hears what a Gate decides, for metrics. Its methods are called concurrently.
type Observer interface {
	// Decided: the rate limit decided d for a request (nothing is heard when there is no limit,
	// nor when the limiter failed after the caller had gone).
	Decided(d LimitDecision)
	// Started and Finished bracket the time a request holds a place (codes in flight).
	Started()
	Finished()
	// Made: a code of format took d to make.
	Made(format api.Format, d time.Duration)
}

// LimitDecision is what the rate limit decided for a request.
type LimitDecision int

// The rate limit's decisions.
const (
	Allowed    LimitDecision = iota // within the caller's budget
	Limited                         // refused: over the budget
	FailedOpen                      // the limiter's backend failed: let through without a limit
)

// String returns d's name as metrics label it: allowed, limited or failed_open.
func (d LimitDecision) String() string {
	return [...]string{"allowed", "limited", "failed_open"}[d]
}

// Config configures a Gate.
type Config struct {
	// Limiter counts the codes each caller makes; nil for no limit.
	Limiter ratelimit.Limiter
	// MaxActive codes are made at once (default GOMAXPROCS); up to MaxQueue more requests wait
	// (default 256), and beyond that they are refused with OVERLOADED.
	MaxActive, MaxQueue int
	// MaxBuffered is the bytes that requests may hold in memory at once beyond their places at
	// work: answers made and being written, codes of batches waiting for their turn in the
	// archive (default DefaultMaxBuffered). A request that would go over it is refused with
	// OVERLOADED and the time until it would likely fit.
	MaxBuffered int64
	// Observer hears the Gate's decisions; nil for none.
	Observer Observer
	// Tracing, when set, adds a span for encoding each code and one for drawing it, below the
	// span in the context of the request; nil for tracing off.
	Tracing *telemetry.Tracing
}

// Gate admits callers by the rate limit and bounds the codes made at once. It is safe for
// concurrent use.
type Gate struct {
	limiter  ratelimit.Limiter
	maxQueue int64
	observer Observer
	tracing  *telemetry.Tracing
	active   chan struct{} // a token per place at work
	waiting  atomic.Int64  // requests waiting for a token, and batches admitted (Enter)
	memory   *Budget
}

// DefaultMaxBuffered is the memory requests may hold beyond their places unless
// Config.MaxBuffered says otherwise: 48 MiB, which keeps the service within some 150 MB
// whatever its callers ask (bench/memory.sh).
const DefaultMaxBuffered = 48 << 20

// New returns the Gate of cfg.
func New(cfg Config) *Gate {
	if cfg.MaxActive <= 0 {
		cfg.MaxActive = runtime.GOMAXPROCS(0)
	}
	if cfg.MaxQueue <= 0 {
		cfg.MaxQueue = 256
	}
	if cfg.Observer == nil {
		cfg.Observer = nop{}
	}
	if cfg.MaxBuffered <= 0 {
		cfg.MaxBuffered = DefaultMaxBuffered
	}
	return &Gate{limiter: cfg.Limiter, maxQueue: int64(cfg.MaxQueue), observer: cfg.Observer, tracing: cfg.Tracing,
		active: make(chan struct{}, cfg.MaxActive), memory: NewBudget(cfg.MaxBuffered, nil)}
}

// Admit counts a request of caller against its budget: false when over it, with the limiter's
// decision (zero when there is no limiter). When the limiter's backend fails the request goes
// on (fail open; the limiter logs it) and the failure is observed, unless ctx was cancelled: a
// client that hung up is no fault of the backend.
func (g *Gate) Admit(ctx context.Context, caller string) (ratelimit.Decision, bool) {
	return g.AdmitN(ctx, caller, 1)
}

// AdmitN counts n codes of caller against its budget at once, as Admit counts one: all of them
// or, over the budget, none.
func (g *Gate) AdmitN(ctx context.Context, caller string, n int) (ratelimit.Decision, bool) {
	if g.limiter == nil {
		return ratelimit.Decision{}, true
	}
	d, err := g.limiter.AllowN(ctx, caller, max(n, 1))
	if err != nil {
		if ctx.Err() == nil {
			g.observer.Decided(FailedOpen)
		}
		return ratelimit.Decision{}, true
	}
	if d.Allowed {
		g.observer.Decided(Allowed)
	} else {
		g.observer.Decided(Limited)
	}
	return d, d.Allowed
}

// Refund gives n codes of caller back to its budget: codes counted by Admit or AdmitN that were
// not made because the service was busy (OVERLOADED), so that only what is made is charged. It
// returns the budget afterwards (zero when there is no limiter, or the limiter failed: it logs
// that itself, and the codes stay counted).
func (g *Gate) Refund(ctx context.Context, caller string, n int) ratelimit.Decision {
	if g.limiter == nil || n <= 0 {
		return ratelimit.Decision{}
	}
	d, err := g.limiter.Refund(context.WithoutCancel(ctx), caller, n)
	if err != nil {
		return ratelimit.Decision{}
	}
	return d
}

// Code makes the code of req (generate.Code) once it has a place, timing it. Its errors are
// generate.Code's, OVERLOADED when the queue is full, and ctx's error when the request is
// cancelled while it waits.
func (g *Gate) Code(ctx context.Context, req *api.Request) (*generate.Result, error) {
	if err := g.Acquire(ctx); err != nil {
		if errors.Is(err, ErrOverloaded) {
			return nil, queueFull()
		}
		return nil, err
	}
	start := time.Now()
	res, err := g.code(ctx, req)
	g.Release()
	if err == nil {
		g.observer.Made(req.Format, time.Since(start))
	}
	return res, err
}

// code makes the code of req, with a span for its encoding and one for its drawing when
// tracing is on (generate.Code's two steps, apart).
func (g *Gate) code(ctx context.Context, req *api.Request) (*generate.Result, error) {
	if g.tracing == nil {
		return generate.Code(req)
	}
	_, end := g.tracing.Start(ctx, "encode")
	p, s, err := generate.Symbol(req)
	end()
	if err != nil {
		return nil, err
	}
	_, end = g.tracing.Start(ctx, "render")
	defer end()
	return generate.Draw(req, p, s)
}

// ErrOverloaded is Acquire's error when the queue is full.
var ErrOverloaded = errors.New("admission: too many requests waiting")

// Acquire takes a place at work, waiting in the queue when all are taken; it fails with
// ErrOverloaded when the queue is full, or with ctx's error when ctx ends first. Release gives
// the place back. Code does both; they are exported for tests that hold places.
func (g *Gate) Acquire(ctx context.Context) error {
	select {
	case g.active <- struct{}{}:
		g.observer.Started()
		return nil
	default:
	}
	if g.waiting.Add(1) > g.maxQueue {
		g.waiting.Add(-1)
		return ErrOverloaded
	}
	defer g.waiting.Add(-1)
	select {
	case g.active <- struct{}{}:
		g.observer.Started()
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Release gives back a place taken by Acquire.
func (g *Gate) Release() {
	g.observer.Finished()
	<-g.active
}

// Waiting returns how many requests wait for a place now, the batches admitted (Enter)
// included.
func (g *Gate) Waiting() int { return int(g.waiting.Load()) }

// nop is the Observer of a Gate configured without one.
type nop struct{}

func (nop) Decided(LimitDecision)          {}
func (nop) Started()                       {}
func (nop) Finished()                      {}
func (nop) Made(api.Format, time.Duration) {}
