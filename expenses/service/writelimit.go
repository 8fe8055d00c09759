package service

import (
	"math"
	"sync"
	"time"
)

// CodeRateLimited is the tool error code of a write refused by the write limit; the error's
// RetryAfter says in how many seconds the next write is allowed.
const CodeRateLimited = "RATE_LIMITED"

// DefaultWritesPerMinute is the write limit of "bananaqr expenses serve" unless configured.
const DefaultWritesPerMinute = 120

// writeLimit bounds each user's writes with the generic cell rate algorithm: perMinute
// writes may come at once, then one every minute/perMinute, so a user who pauses a minute
// has the whole budget back. It keeps one time per user who wrote (users are registered by
// an operator, so the map is bounded), in this process: each replica limits on its own.
type writeLimit struct {
	mu       sync.Mutex
	interval time.Duration        // the time one write costs
	burst    time.Duration        // how far ahead of now a user's budget may be spent
	tat      map[string]time.Time // per user: when their budget is whole again
}

// LimitWrites makes the tools that write (add_expense, add_payment, delete_expense,
// restore_expense, create_group and the friend tools) allow each user perMinute writes a
// minute, in bursts of up to perMinute; further writes are RATE_LIMITED with a RetryAfter.
// perMinute 0 (the default of New) means no limit. Call it before serving.
func (s *Service) LimitWrites(perMinute int) {
	if perMinute <= 0 {
		s.writes = nil
		return
	}
	interval := time.Minute / time.Duration(perMinute)
	s.writes = &writeLimit{interval: interval, burst: interval * time.Duration(perMinute), tat: map[string]time.Time{}}
}

// allowWrite spends one write of the caller's budget, or says when to come back.
func (s *Service) allowWrite(c Caller) error {
	w := s.writes
	if w == nil {
		return nil
	}
	now := s.now()
	w.mu.Lock()
	defer w.mu.Unlock()
	tat := w.tat[c.UserID]
	if tat.Before(now) {
		tat = now
	}
	next := tat.Add(w.interval)
	if wait := next.Sub(now) - w.burst; wait > 0 {
		secs := int(math.Ceil(wait.Seconds()))
		e := errorf(CodeRateLimited, "too many writes: each user may write %d times a minute; retry in %d s (retryAfter)",
			int(time.Minute/w.interval), secs)
		e.RetryAfter = secs
		return e
	}
	w.tat[c.UserID] = next
	return nil
}
