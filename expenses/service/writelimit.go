package service

import (
	"context"
	"math"
	"time"

	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// ReasonRateLimited is the tool error code of a write refused by the write limit; the error's
// RetryAfter says in how many seconds the next write is allowed.
const ReasonRateLimited = "RATE_LIMITED"

// DefaultWritesPerMinute is the write limit of "bananaqr expenses serve" unless configured.
const DefaultWritesPerMinute = 120

// LimitWrites makes the tools that write (add_expense, add_payment, delete_expense,
// restore_expense, create_group, join_group and add_friend) allow each user perMinute writes a
// minute, in bursts of up to perMinute; further writes are RATE_LIMITED with a RetryAfter.
// The limit is the generic cell rate algorithm of ratelimit.Memory, keyed by user, in this
// process: each replica limits on its own. perMinute 0 (the default of New) means no limit.
// Call it before serving.
func (s *Service) LimitWrites(perMinute int) {
	if perMinute <= 0 {
		s.writes = nil
		return
	}
	s.writes = ratelimit.NewMemory(perMinute, time.Minute, s.now)
}

// ObserveWrites has decided called with each decision of the write limit: true for a write
// allowed, false for one refused as RATE_LIMITED (a metric counts them). With no limit nothing is
// decided, and decided is not called. Call it before serving.
func (s *Service) ObserveWrites(decided func(allowed bool)) { s.writeDecided = decided }

// allowWrite spends one write of the caller's budget, or says when to come back.
func (s *Service) allowWrite(c Caller) error {
	if s.writes == nil {
		return nil
	}
	d, _ := s.writes.Allow(context.Background(), c.UserID) // the in-memory limiter cannot fail
	if s.writeDecided != nil {
		s.writeDecided(d.Allowed)
	}
	if d.Allowed {
		return nil
	}
	secs := int(math.Ceil(d.RetryAfter.Seconds()))
	e := errorf(ReasonRateLimited, "too many writes: each user may write %d times a minute; retry in %d s (retryAfter)",
		d.Limit, secs)
	e.RetryAfter = secs
	return e
}
