package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// Redis is a Limiter kept in Redis, so that every replica of the service shares each caller's
// budget. It uses redis_rate's GCRA (generic cell rate algorithm: a leaky bucket of Limit
// requests that drains evenly over the window, one atomic Lua script a request), so at most
// Limit requests pass in a burst and then one every window/Limit.
//
// When Redis cannot be reached, Allow lets the request through (fail open: refusing everyone
// because a counter is down would turn a limiter fault into an outage), returns ErrBackend so
// that the caller can count it, and logs the fault at most once per LogInterval. go-redis
// reconnects by itself, so limiting resumes as soon as Redis answers again.
type Redis struct {
	client  *redis.Client
	limiter *redis_rate.Limiter
	limit   redis_rate.Limit
	logger  *slog.Logger

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
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("ratelimit: redis URL: %w", err)
	}
	opts.DialTimeout = 250 * time.Millisecond
	opts.ReadTimeout = 100 * time.Millisecond
	opts.WriteTimeout = 100 * time.Millisecond
	opts.PoolTimeout = 100 * time.Millisecond
	opts.MaxRetries = -1 // no retries: fail open at once
	client := redis.NewClient(opts)
	r := &Redis{client: client, limiter: redis_rate.NewLimiter(client), limit: redis_rate.PerMinute(limit),
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

// AllowN takes n requests from caller's budget in Redis, all or none (redis_rate's AllowN: a
// refused batch leaves the budget as it was).
func (r *Redis) AllowN(ctx context.Context, caller string, n int) (Decision, error) {
	n = max(n, 1)
	open := Decision{Allowed: true, Limit: r.limit.Rate, Remaining: r.limit.Rate}
	if time.Now().UnixNano() < r.retryAt.Load() {
		return open, &ErrBackend{errCoolingDown}
	}
	res, err := r.limiter.AllowN(ctx, "bananaqr:ratelimit:"+caller, r.limit, n)
	if err != nil && ctx.Err() != nil {
		// The caller gave up, not Redis: no fault, or one client hanging up would lift the
		// limit for everyone for the cooldown.
		return open, ctx.Err()
	}
	if err != nil {
		r.fault(err)
		return open, &ErrBackend{err}
	}
	if !r.up.Swap(true) {
		r.logger.Info("rate limiter: redis is back")
	}
	d := Decision{Allowed: res.Allowed > 0, Limit: r.limit.Rate, Remaining: res.Remaining, Reset: res.ResetAfter}
	if !d.Allowed {
		d.RetryAfter = max(res.RetryAfter, 0)
	}
	return d, nil
}

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

// Ping reports whether Redis answers, for the readiness check.
func (r *Redis) Ping(ctx context.Context) error {
	err := r.client.Ping(ctx).Err()
	if err != nil && ctx.Err() == nil {
		r.fault(err)
	}
	return err
}

// Close closes the connections to Redis.
func (r *Redis) Close() error { return r.client.Close() }
