// Admission of requests that hold memory: a batch enters before its answer starts (a seat among
// the waiting and its bytes reserved, or OVERLOADED before anything is sent), and an answer
// holds its bytes while it is written.

package admission

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
)

// Busy is the error of a request refused because the service is busy: the queue is full or
// the memory budget is spent. It is the API's OVERLOADED (api.ErrorOf finds it), with how long
// the caller should wait.
type Busy struct {
	RetryAfter time.Duration
	err        *api.Error
}

// Error says why the request was refused.
func (b *Busy) Error() string { return b.err.Error() }

// Unwrap returns the API's OVERLOADED error.
func (b *Busy) Unwrap() error { return b.err }

// queueFull returns the error of a request that found the queue full: the codes ahead take
// milliseconds each, so a second (the least Retry-After can say) is enough.
func queueFull() *Busy {
	return &Busy{RetryAfter: time.Second,
		err: api.NewError(api.ReasonOverloaded, "", "Retry after a second.", "too many requests are waiting")}
}

// memorySpent returns the error of a request whose answer does not fit the memory budget now,
// which it would likely fit after wait.
func memorySpent(wait time.Duration) *Busy {
	seconds := int((wait + time.Second - 1) / time.Second)
	return &Busy{RetryAfter: wait, err: api.NewError(api.ReasonOverloaded, "",
		fmt.Sprintf("Retry after %d seconds, as Retry-After says: the answers being sent now should be through by then.", seconds),
		"the service holds as many answers in memory as it may")}
}

// RetryAfter returns how long a request refused with err should wait, and whether err is Busy.
func RetryAfter(err error) (time.Duration, bool) {
	var b *Busy
	if errors.As(err, &b) {
		return b.RetryAfter, true
	}
	return 0, false
}

// Ticket is a batch's admission: a seat among the waiting requests and bytes of the memory
// budget, both held until Done, so that once admitted it is never refused for being busy and its
// answer can be sent as it is made.
type Ticket struct {
	g      *Gate
	memory *Reservation
}

// Enter admits a request that will make codes and hold up to held bytes of them in memory
// beyond its places at work. It takes a seat among the waiting requests for as long as the
// ticket lasts (Busy when they are MaxQueue already) and reserves held bytes (Busy, with the time
// until they would likely be free, when the budget is spent). It never waits: a request it
// refuses has cost nothing.
func (g *Gate) Enter(held int64) (*Ticket, error) {
	if g.waiting.Add(1) > g.maxQueue {
		g.waiting.Add(-1)
		return nil, queueFull()
	}
	r, wait, ok := g.memory.Reserve(held)
	if !ok {
		g.waiting.Add(-1)
		return nil, memorySpent(wait)
	}
	return &Ticket{g: g, memory: r}, nil
}

// Code makes the code of c, a request that generate.Prepare checked, once it has a place at
// work, waiting for one as long as it takes (the ticket holds a seat already) or until ctx ends,
// and hands the code to use before the place is given back and the code released; it returns
// c.Make's error, use's, or ctx's.
func (t *Ticket) Code(ctx context.Context, c *generate.Prepared, use func(*generate.Result) error) error {
	g := t.g
	select {
	case g.active <- struct{}{}:
		g.observer.Started()
	case <-ctx.Done():
		return ctx.Err()
	}
	defer g.Release()
	start := time.Now()
	res, err := c.Make()
	if err != nil {
		return err
	}
	g.observer.Made(c.Request.Format, time.Since(start))
	defer res.Release()
	return use(res)
}

// Shrink lowers the ticket's bytes to held, when it holds more: for a request admitted by what
// it could hold at most, once it knows what it will.
func (t *Ticket) Shrink(held int64) {
	if t.memory != nil {
		t.memory.Shrink(held)
	}
}

// Done gives back the ticket's seat and bytes; a second Done does nothing.
func (t *Ticket) Done() {
	if t.memory == nil {
		return
	}
	t.memory.Release()
	t.memory = nil
	t.g.waiting.Add(-1)
}

// Hold reserves n bytes of the memory budget for an answer made and about to be written, or
// returns Busy with the time until they would likely be free. Release the reservation when the
// answer is written.
func (g *Gate) Hold(n int64) (*Reservation, error) {
	r, wait, ok := g.memory.Reserve(n)
	if !ok {
		return nil, memorySpent(wait)
	}
	return r, nil
}

// Buffered returns the bytes of the memory budget reserved now.
func (g *Gate) Buffered() int64 { return g.memory.Used() }
