// Package ratelimit counts the codes each caller makes against a budget per minute: one
// interface, an in-memory implementation here, a shared one (Redis) for several replicas.
package ratelimit

import (
	"context"
	"sync"
	"time"
)

// Decision is the answer to one request: whether it may go on, and what the RateLimit-*
// headers say.
type Decision struct {
	Allowed   bool
	Limit     int           // the budget of a window
	Remaining int           // requests left in the window now
	Reset     time.Duration // until the oldest request counted leaves the window (0 when none is)
}

// A Limiter decides whether a caller may make one more code. Implementations are safe for
// concurrent use.
type Limiter interface {
	Allow(ctx context.Context, caller string) (Decision, error)
}

// Memory is a Limiter that keeps, in memory, the times of each caller's last Limit allowed
// requests: a request is allowed when fewer than Limit of them fall in the last Window (a
// sliding window, so no two windows' budgets add up at their boundary). Callers with nothing
// in the window are forgotten.
type Memory struct {
	limit  int
	window time.Duration
	now    func() time.Time

	mu      sync.Mutex
	callers map[string]*history
	swept   time.Time
}

// history is a ring of a caller's latest allowed request times, oldest at next once full.
type history struct {
	times []time.Time
	next  int
}

// NewMemory returns a Memory limiter of limit requests per window, on the clock now (time.Now
// when nil).
func NewMemory(limit int, window time.Duration, now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{limit: limit, window: window, now: now, callers: make(map[string]*history)}
}

// Allow counts a request of caller if the window has room for it.
func (m *Memory) Allow(_ context.Context, caller string) (Decision, error) {
	now := m.now()
	start := now.Add(-m.window)
	m.mu.Lock()
	defer m.mu.Unlock()
	if now.Sub(m.swept) > m.window {
		m.sweep(start)
	}
	h := m.callers[caller]
	if h == nil {
		// No room is reserved: most callers make a few codes and go, and append grows the ring
		// of those who stay up to limit.
		h = &history{}
		m.callers[caller] = h
	}
	d := Decision{Limit: m.limit}
	// The requests in the window are the ring's times after start; the oldest comes first.
	oldest := h.next % max(len(h.times), 1)
	used := 0
	for i := range h.times {
		if h.times[(oldest+i)%len(h.times)].After(start) {
			used = len(h.times) - i
			break
		}
	}
	if used < m.limit {
		d.Allowed = true
		if len(h.times) < m.limit {
			h.times = append(h.times, now)
		} else {
			h.times[h.next] = now
			h.next = (h.next + 1) % m.limit
		}
		used++
	}
	d.Remaining = m.limit - used
	if used > 0 {
		first := h.times[(h.next+len(h.times)-used)%len(h.times)]
		d.Reset = first.Add(m.window).Sub(now)
	}
	return d, nil
}

// sweep forgets the callers whose requests have all left the window.
func (m *Memory) sweep(start time.Time) {
	for caller, h := range m.callers {
		newest := h.times[(h.next+len(h.times)-1)%len(h.times)]
		if !newest.After(start) {
			delete(m.callers, caller)
		}
	}
	m.swept = start.Add(m.window)
}
