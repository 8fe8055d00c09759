// Package ratelimit counts the codes each caller makes against a budget per minute: one
// interface, an in-memory implementation here, a shared one (Redis) for several replicas.
package ratelimit

import (
	"context"
	"hash/maphash"
	"math"
	"sync"
	"time"
)

// Decision is the answer to one request: whether it may go on, and what the RateLimit-*
// headers say.
type Decision struct {
	Allowed   bool
	Limit     int           // the budget of a window
	Remaining int           // requests left in the window now
	Reset     time.Duration // until the whole budget is back (0 when it is)
	// RetryAfter is, for a request refused, how long until the next one is allowed (0 when
	// allowed).
	RetryAfter time.Duration
}

// A Limiter decides whether a caller may make one more code (Allow), or n more at once
// (AllowN: all or none, so a caller whose budget has room for fewer than n has none of them
// counted), and gives back codes counted but not made (Refund: the service was too busy to make
// them). Implementations are safe for concurrent use, and both report the same Decision for the
// same history: Remaining, Reset and RetryAfter follow from the caller's TAT alone (decide).
type Limiter interface {
	Allow(ctx context.Context, caller string) (Decision, error)
	AllowN(ctx context.Context, caller string, n int) (Decision, error)
	// Refund gives n codes back to caller's budget, as if they had never been counted: by GCRA
	// it moves the TAT back n intervals, never before now (a budget is never more than whole).
	// Its Decision is the budget afterwards, Allowed true.
	Refund(ctx context.Context, caller string, n int) (Decision, error)
}

// Memory is a Limiter that keeps each caller's budget in memory by GCRA, the generic cell rate
// algorithm, as the Redis limiter does: Limit requests may come at once, and then one every
// Window/Limit, so a caller who waits a Window has the whole budget back. A caller's whole state
// is one number, its theoretical arrival time (TAT: when its budget would be whole again, less
// one interval), kept under a 64-bit hash of the caller: 8 bytes a caller whatever the budget,
// about 20 bytes with the map's own. Callers whose TAT has passed have the whole budget and are
// forgotten.
//
// At most MaxCallers are remembered (DefaultMaxCallers unless WithMaxCallers says otherwise).
// When the table is full, a new caller first has the forgotten ones swept out, and if that
// frees no room, takes the place of the caller with the least debt of eight sampled at random,
// who thereby gets its budget back early: the heavy users, whose limit matters, stay counted.
type Memory struct {
	limit      int
	interval   int64 // nanoseconds between requests at the steady rate: Window/Limit
	burst      int64 // how far ahead of now a TAT may be and still admit a request
	maxCallers int
	now        func() time.Time
	seed       maphash.Seed

	mu    sync.Mutex
	tat   map[uint64]int64 // caller's hash → TAT, Unix nanoseconds
	swept int64            // when the forgotten callers were last swept out
}

// DefaultMaxCallers is how many callers a Memory limiter remembers unless told otherwise:
// some 20 to 40 MB.
const DefaultMaxCallers = 1_000_000

// sweepEvery is how often, at most, a full table is swept of callers whose budget is whole.
const sweepEvery = int64(time.Second)

// NewMemory returns a Memory limiter of limit requests per window, on the clock now (time.Now
// when nil).
func NewMemory(limit int, window time.Duration, now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	interval := max(int64(window)/int64(max(limit, 1)), 1)
	return &Memory{limit: limit, interval: interval, burst: interval * int64(limit-1), maxCallers: DefaultMaxCallers,
		now: now, seed: maphash.MakeSeed(), tat: make(map[uint64]int64)}
}

// WithMaxCallers sets how many callers m remembers at most (at least 1), and returns m.
func (m *Memory) WithMaxCallers(n int) *Memory {
	m.maxCallers = max(n, 1)
	return m
}

// Allow counts a request of caller if its budget has room for it.
func (m *Memory) Allow(ctx context.Context, caller string) (Decision, error) {
	return m.AllowN(ctx, caller, 1)
}

// AllowN counts n requests of caller if its budget has room for all of them, and none
// otherwise: by GCRA, n requests advance the TAT by n intervals, which must leave the last of
// them within the burst.
func (m *Memory) AllowN(_ context.Context, caller string, n int) (Decision, error) {
	n = max(n, 1)
	now := m.now().UnixNano()
	key := maphash.String(m.seed, caller)
	m.mu.Lock()
	defer m.mu.Unlock()
	if now-m.swept > m.interval*int64(m.limit) {
		m.sweep(now)
	}
	tat, seen := m.tat[key]
	tat = max(tat, now)
	allowed := tat+int64(n-1)*m.interval-now <= m.burst
	if allowed {
		tat += int64(n) * m.interval
		if !seen && len(m.tat) >= m.maxCallers {
			m.makeRoom(now)
		}
		m.tat[key] = tat
	}
	return decide(m.limit, m.interval, tat-now, n, allowed), nil
}

// Refund gives n codes back to caller's budget: its TAT moves back n intervals, to now at the
// earliest, and a caller whose budget is whole again is forgotten.
func (m *Memory) Refund(_ context.Context, caller string, n int) (Decision, error) {
	n = max(n, 1)
	now := m.now().UnixNano()
	key := maphash.String(m.seed, caller)
	m.mu.Lock()
	defer m.mu.Unlock()
	tat, seen := m.tat[key]
	tat = max(tat-int64(n)*m.interval, now)
	if seen && tat > now {
		m.tat[key] = tat
	} else {
		delete(m.tat, key)
	}
	return decide(m.limit, m.interval, tat-now, 0, true), nil
}

// decide returns the Decision of a GCRA budget of limit codes, one every interval nanoseconds,
// whose TAT is debt nanoseconds ahead of now once a request of n codes was counted (allowed) or
// refused: Remaining is how many single codes would pass now, Reset how long until the budget
// is whole, and RetryAfter, for a request refused, how long until the same request would pass.
// Both limiters decide by it, so that they report the same budget.
func decide(limit int, interval, debt int64, n int, allowed bool) Decision {
	burst := interval * int64(limit-1) // how far ahead of now a TAT may be and still admit one
	d := Decision{Allowed: allowed, Limit: limit, Reset: time.Duration(debt)}
	d.Remaining = int(max(0, (burst+interval-debt)/interval))
	if !allowed {
		d.RetryAfter = time.Duration(max(0, debt+int64(n-1)*interval-burst))
	}
	return d
}

// sweep forgets the callers whose budget is whole again.
func (m *Memory) sweep(now int64) {
	for key, tat := range m.tat {
		if tat <= now {
			delete(m.tat, key)
		}
	}
	m.swept = now
}

// makeRoom frees a place in a full table: by a sweep, at most every sweepEvery, and otherwise
// by forgetting the caller with the least debt of eight sampled (map iteration starts at random).
func (m *Memory) makeRoom(now int64) {
	if now-m.swept >= sweepEvery {
		if m.sweep(now); len(m.tat) < m.maxCallers {
			return
		}
	}
	var victim uint64
	least, n := int64(math.MaxInt64), 0
	for key, tat := range m.tat {
		if tat < least {
			victim, least = key, tat
		}
		if n++; n == 8 {
			break
		}
	}
	delete(m.tat, victim)
}
