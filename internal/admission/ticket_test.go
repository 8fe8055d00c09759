package admission

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// TestRefund: codes counted and then refunded are back in the caller's budget (issue 26, item 3:
// a batch refused OVERLOADED spent the caller's whole minute).
func TestRefund(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	g := New(Config{Limiter: ratelimit.NewMemory(60, time.Minute, func() time.Time { return now })})
	ctx := context.Background()
	if _, ok := g.AdmitN(ctx, "a", 60); !ok {
		t.Fatal("60 of 60 refused")
	}
	if d := g.Refund(ctx, "a", 59); d.Remaining != 59 {
		t.Errorf("after a refund of 59: %+v", d)
	}
	if _, ok := g.AdmitN(ctx, "a", 59); !ok {
		t.Error("the 59 refunded are not back")
	}
	if d := New(Config{}).Refund(ctx, "a", 5); d != (ratelimit.Decision{}) {
		t.Errorf("no limiter: %+v", d)
	}
}

// TestEnter: a batch takes a seat for as long as its ticket lasts, so with one seat a second
// batch and a single code find the queue full; an admitted batch's codes wait for a place and
// are never refused; Done gives the seat back.
func TestEnter(t *testing.T) {
	g := New(Config{MaxActive: 1, MaxQueue: 1})
	first, err := g.Enter(1000)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Enter(1000); api.ErrorOf(err).Reason != api.ReasonOverloaded {
		t.Fatalf("a second batch with the one seat taken: %v", err)
	}
	req, err := api.DecodeJSON([]byte(`{"type":"text","text":"x","format":"svg"}`))
	if err != nil {
		t.Fatal(err)
	}
	g.Acquire(context.Background()) // the one place taken
	if _, err = g.Code(context.Background(), &req); api.ErrorOf(err).Reason != api.ReasonOverloaded {
		t.Fatalf("a single code with the seat taken: %v", err)
	}
	if d, ok := RetryAfter(err); !ok || d != time.Second {
		t.Errorf("queue full: retry after %v, %t", d, ok)
	}
	var wg sync.WaitGroup
	var made []byte
	wg.Go(func() {
		var c generate.Prepared
		if c, err = generate.Prepare(&req); err != nil {
			return
		}
		err = first.Code(context.Background(), &c, func(res *generate.Result) error {
			made = append(made, res.SVG...)
			return nil
		})
	})
	time.Sleep(20 * time.Millisecond)
	g.Release()
	wg.Wait()
	if err != nil || len(made) == 0 {
		t.Fatalf("the admitted batch's code: %v, %d bytes", err, len(made))
	}
	first.Done()
	first.Done()
	if g.Waiting() != 0 {
		t.Errorf("%d waiting after Done", g.Waiting())
	}
	if _, err := g.Enter(1000); err != nil {
		t.Errorf("after Done: %v", err)
	}
}

// TestBudget: reservations are all or nothing up to the total; a refused one is told to wait
// until the reservations ahead of it would end, by how long the last ones were held; a request
// larger than the whole budget passes alone.
func TestBudget(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	b := NewBudget(100, func() time.Time { return now })
	r1, _, ok := b.Reserve(60)
	if !ok {
		t.Fatal("60 of 100")
	}
	now = now.Add(4 * time.Second)
	r1.Release() // held 4 s
	r1.Release()
	if b.Used() != 0 {
		t.Fatalf("used %d after release", b.Used())
	}
	r2, _, _ := b.Reserve(50)
	now = now.Add(time.Second)
	r3, _, _ := b.Reserve(40)
	_, wait, ok := b.Reserve(30)
	// r2 began a second ago and reservations last about 4 s: 50 bytes free in 3 s.
	if ok || wait != 3*time.Second {
		t.Errorf("30 more: %t, wait %v; want refused, 3s", ok, wait)
	}
	// 80 bytes need r2's and r3's end: in 4 s.
	if _, wait, _ := b.Reserve(80); wait != 4*time.Second {
		t.Errorf("80 more: wait %v, want 4s", wait)
	}
	r2.Shrink(10) // 50 → 10: 40 bytes back
	if b.Used() != 50 {
		t.Errorf("used %d after shrinking 50 to 10, want 50", b.Used())
	}
	r2.Shrink(30) // never grows
	r2.Release()
	r3.Release()
	if b.Used() != 0 {
		t.Errorf("used %d after all released", b.Used())
	}
	if r, _, ok := b.Reserve(500); !ok || b.Used() != 500 {
		t.Errorf("more than the budget, alone: %t", ok)
	} else {
		r.Release()
	}
	g := New(Config{MaxBuffered: 100})
	h, err := g.Hold(100)
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Hold(1)
	if d, ok := RetryAfter(err); !ok || d < time.Second || api.ErrorOf(err).Reason != api.ReasonOverloaded {
		t.Errorf("budget spent: %v, retry after %v", err, d)
	}
	if _, err := g.Enter(1); !errors.As(err, new(*Busy)) || g.Waiting() != 0 {
		t.Errorf("a batch with the budget spent: %v, %d waiting", err, g.Waiting())
	}
	h.Release()
}
