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
// counted). Implementations are safe for concurrent use.
type Limiter interface {
	Allow(ctx context.Context, caller string) (Decision, error)
	AllowN(ctx context.Context, caller string, n int) (Decision, error)
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
	d := Decision{Limit: m.limit}
	if tat+int64(n-1)*m.interval-now <= m.burst {
		d.Allowed = true
		tat += int64(n) * m.interval
		if !seen && len(m.tat) >= m.maxCallers {
			m.makeRoom(now)
		}
		m.tat[key] = tat
	}
	debt := tat - now // until the budget is whole again
	d.Remaining = int(max(0, (m.burst+m.interval-debt)/m.interval))
	d.Reset = time.Duration(debt)
	if !d.Allowed {
		d.RetryAfter = time.Duration(debt + int64(n-1)*m.interval - m.burst)
	}
	return d, nil
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
