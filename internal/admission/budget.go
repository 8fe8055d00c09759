// The bound on memory: a budget of bytes shared by every request, which a request reserves
// for what it holds in memory beyond its place at work (an answer being written, the codes of a
// batch waiting for their turn in its archive) and gives back when it is written.

package admission

import (
	"slices"
	"sync"
	"time"
)

// Budget is a number of bytes that requests reserve and release. A reservation is all or
// nothing and never waits: a request that does not fit is refused at once, with how long
// until it would fit, estimated from the reservations held now and how long the last ones were
// held. It is safe for concurrent use.
type Budget struct {
	total int64
	now   func() time.Time

	mu   sync.Mutex
	used int64
	held map[*Reservation]struct{}
	// hold is a moving average of how long reservations were held before their release: the
	// basis of the time a refused request is told to wait.
	hold time.Duration
}

// Reservation is bytes of a Budget held by one request, until Release.
type Reservation struct {
	b     *Budget
	bytes int64
	since time.Time
}

// NewBudget returns a budget of total bytes, on the clock now (time.Now when nil).
func NewBudget(total int64, now func() time.Time) *Budget {
	if now == nil {
		now = time.Now
	}
	return &Budget{total: total, now: now, held: map[*Reservation]struct{}{}}
}

// Reserve reserves n bytes, or returns false and how long until they would likely be free:
// the time until enough of the reservations held now end, each expected to last as long as
// reservations lasted lately (a second at least). A request larger than the whole budget is
// told to wait until every reservation now held has ended, and then it is admitted alone: a
// budget never refuses a request that nothing else is holding memory for.
func (b *Budget) Reserve(n int64) (*Reservation, time.Duration, bool) {
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.total && b.used > 0 {
		return nil, b.wait(n, now), false
	}
	r := &Reservation{b: b, bytes: n, since: now}
	b.used += n
	b.held[r] = struct{}{}
	return r, 0, true
}

// wait returns how long, from now, until n bytes are likely free: the reservations held end in
// the order they began, each the average hold (a second at least) after it began, or a second
// from now if it is held longer than that already.
func (b *Budget) wait(n int64, now time.Time) time.Duration {
	held := make([]*Reservation, 0, len(b.held))
	for r := range b.held {
		held = append(held, r)
	}
	slices.SortFunc(held, func(x, y *Reservation) int { return x.since.Compare(y.since) })
	hold := max(b.hold, time.Second)
	free := b.total - b.used
	var wait time.Duration
	for _, r := range held {
		end := r.since.Add(hold).Sub(now)
		if end <= 0 { // held longer than usual already: count on a second more
			end = time.Second
		}
		wait = max(wait, end)
		if free += r.bytes; free >= n {
			break
		}
	}
	return max(wait, time.Second)
}

// Used returns the bytes reserved now.
func (b *Budget) Used() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Shrink lowers the reservation to n bytes, when it holds more, giving the rest back.
func (r *Reservation) Shrink(n int64) {
	b := r.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.held[r]; ok && n < r.bytes {
		b.used -= r.bytes - max(n, 0)
		r.bytes = max(n, 0)
	}
}

// Release gives the reservation's bytes back; a second Release does nothing. A nil
// Reservation is nothing to release.
func (r *Reservation) Release() {
	if r == nil {
		return
	}
	b := r.b
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.held[r]; !ok {
		return
	}
	delete(b.held, r)
	b.used -= r.bytes
	// An exponentially weighted moving average over about the last eight reservations.
	held := now.Sub(r.since)
	if b.hold == 0 {
		b.hold = held
	} else {
		b.hold += (held - b.hold) / 8
	}
}
