package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is a Limiter kept in Redis, so that every replica of the service shares each caller's
// budget. It keeps the same GCRA (generic cell rate algorithm) as Memory, one atomic Lua script
// a request (gcraScript), so at most Limit requests pass in a burst and then one every
// window/Limit, and it reports the same Decision as Memory for the same history (decide). The
// state is redis_rate's: a caller's TAT in seconds since 2017 under "rate:" and its key, so
// that a replica of an older version, which used redis_rate, shares the budget.
//
// When Redis cannot be reached, Allow lets the request through (fail open: refusing everyone
// because a counter is down would turn a limiter fault into an outage), returns ErrBackend so
// that the caller can count it, and logs the fault at most once per LogInterval. go-redis
// reconnects by itself, so limiting resumes as soon as Redis answers again.
type Redis struct {
	client   *redis.Client
	limit    int
	interval int64 // nanoseconds between requests at the steady rate: a minute/limit
	logger   *slog.Logger

	logEvery time.Duration
	mu       sync.Mutex
	lastLog  time.Time
	up       atomic.Bool
	retryAt  atomic.Int64 // after a fault, Redis is left alone until this time (Unix nanoseconds)
}

// Cooldown is how long, after a fault, requests are let through without asking Redis: an
// outage then costs each request nothing, and Redis is tried again once a second.
const Cooldown = time.Second

// LogInterval is how often a Redis fault is logged at most.
const LogInterval = 30 * time.Second

// NewRedis returns a limiter of limit requests per minute in the Redis at url
// (redis://[user:password@]host:port[/db]). Calls to Redis time out quickly (a request never
// waits long for its count) and are not retried.
func NewRedis(url string, limit int, logger *slog.Logger) (*Redis, error) {
	return newRedis(url, limit, logger, 100*time.Millisecond)
}

// newRedis is NewRedis with calls that time out after timeout (dialling after 2.5 times it):
// the tests that compare answers, not faults, give a loaded machine more time.
func newRedis(url string, limit int, logger *slog.Logger, timeout time.Duration) (*Redis, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("ratelimit: redis URL: %w", err)
	}
	opts.DialTimeout = timeout * 5 / 2
	opts.ReadTimeout = timeout
	opts.WriteTimeout = timeout
	opts.PoolTimeout = timeout
	opts.MaxRetries = -1              // no retries: fail open at once
	opts.ContextTimeoutEnabled = true // a caller's deadline shorter than these holds (Ping for /readyz)
	r := &Redis{client: redis.NewClient(opts), limit: limit, interval: max(int64(time.Minute)/int64(max(limit, 1)), 1),
		logger: logger, logEvery: LogInterval}
	r.up.Store(true)
	return r, nil
}

// errCoolingDown is the error of a request let through without asking Redis, shortly after a
// fault.
var errCoolingDown = errors.New("not asked: failed less than a second ago")

// ErrBackend wraps the error of a request let through because Redis failed.
type ErrBackend struct{ Err error }

func (e *ErrBackend) Error() string { return "ratelimit: redis: " + e.Err.Error() }
func (e *ErrBackend) Unwrap() error { return e.Err }

// Allow takes one request from caller's budget in Redis.
func (r *Redis) Allow(ctx context.Context, caller string) (Decision, error) {
	return r.AllowN(ctx, caller, 1)
}

// AllowN takes n requests from caller's budget in Redis, all or none: a refused batch leaves
// the budget as it was.
func (r *Redis) AllowN(ctx context.Context, caller string, n int) (Decision, error) {
	return r.run(ctx, caller, max(n, 1), false)
}

// Refund gives n requests back to caller's budget in Redis: its TAT moves back n intervals, to
// now at the earliest.
func (r *Redis) Refund(ctx context.Context, caller string, n int) (Decision, error) {
	return r.run(ctx, caller, max(n, 1), true)
}

// run counts n requests of caller (or gives them back, refund) by gcraScript, failing open.
func (r *Redis) run(ctx context.Context, caller string, n int, refund bool) (Decision, error) {
	open := Decision{Allowed: true, Limit: r.limit, Remaining: r.limit}
	if time.Now().UnixNano() < r.retryAt.Load() {
		return open, &ErrBackend{errCoolingDown}
	}
	mode := "allow"
	if refund {
		mode = "refund"
	}
	res, err := gcraScript.Run(ctx, r.client, []string{"rate:bananaqr:ratelimit:" + caller},
		r.limit, float64(r.interval)/1e9, n, mode).Slice()
	if err != nil && ctx.Err() != nil {
		// The caller gave up, not Redis: no fault, or one client hanging up would lift the
		// limit for everyone for the cooldown.
		return open, ctx.Err()
	}
	var debt float64
	if err == nil {
		err = errUnexpected
		if len(res) == 2 {
			if s, ok := res[1].(string); ok {
				debt, err = strconv.ParseFloat(s, 64)
			}
		}
	}
	if err != nil {
		r.fault(err)
		return open, &ErrBackend{err}
	}
	r.recovered()
	allowed, _ := res[0].(int64)
	return decide(r.limit, r.interval, int64(math.Round(debt*1e9)), n, allowed == 1), nil
}

// errUnexpected is the error of an answer of gcraScript that is not {allowed, debt}.
var errUnexpected = errors.New("unexpected answer of the rate limit's script")

// gcraScript counts ARGV[3] requests against the budget of ARGV[1] requests, one every ARGV[2]
// seconds, kept at KEYS[1] (mode "allow": all or none), or gives them back (mode "refund"),
// by the same arithmetic as Memory; it answers whether they were counted (1 or 0; 1 for a
// refund) and the debt afterwards, the TAT less now in seconds, as a string (Lua's numbers
// would reach Go as integers). The TAT is redis_rate's: seconds since 2017-01-01, a double
// precise to well under a microsecond until 2048. Redis's own clock (TIME) is every
// replica's. Scripts are replicated by their effects (the default since Redis 5).
var gcraScript = redis.NewScript(`
local limit = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local t = redis.call("TIME")
local now = (tonumber(t[1]) - 1483228800) + tonumber(t[2]) / 1000000
local tat = tonumber(redis.call("GET", KEYS[1]) or now)
tat = math.max(tat, now)
local counted = 0
if ARGV[4] == "refund" then
  tat = math.max(tat - n * interval, now)
  counted = 1
elseif tat + (n - 1) * interval - now <= (limit - 1) * interval then
  tat = tat + n * interval
  counted = 1
end
if counted == 1 then
  if tat > now then
    redis.call("SET", KEYS[1], string.format("%.6f", tat), "PX", math.ceil((tat - now) * 1000))
  else
    redis.call("DEL", KEYS[1])
  end
end
return {counted, string.format("%.9f", tat - now)}
`)

// fault notes that Redis failed, logging it at most once per interval.
func (r *Redis) fault(err error) {
	r.up.Store(false)
	r.retryAt.Store(time.Now().Add(Cooldown).UnixNano())
	r.mu.Lock()
	defer r.mu.Unlock()
	if now := time.Now(); now.Sub(r.lastLog) >= r.logEvery {
		r.lastLog = now
		r.logger.Error("rate limiter: redis unreachable; requests are let through until it answers", "error", err.Error())
	}
}

// Ping reports whether Redis answers before ctx's deadline, for the readiness check, and keeps
// the answer (Up). No answer before the deadline is a fault, as it is for a request; a ctx
// cancelled (the prober hung up) is not.
func (r *Redis) Ping(ctx context.Context) error {
	err := r.client.Ping(ctx).Err()
	switch {
	case err == nil:
		r.recovered()
	case !errors.Is(ctx.Err(), context.Canceled):
		r.fault(err)
	}
	return err
}

// Up reports whether Redis answered the last time it was asked (a request's count or Ping);
// true before it was ever asked.
func (r *Redis) Up() bool { return r.up.Load() }

// recovered notes that Redis answered, logging its return after a fault.
func (r *Redis) recovered() {
	if !r.up.Swap(true) {
		r.logger.Info("rate limiter: redis is back")
	}
}

// Close closes the connections to Redis.
func (r *Redis) Close() error { return r.client.Close() }
