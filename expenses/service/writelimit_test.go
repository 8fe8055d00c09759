package service

import (
	"context"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/must"
)

// TestWriteLimit: a burst of writes passes, the next is RATE_LIMITED with the seconds to wait,
// reads and other users go on, and after the wait one more write passes.
func TestWriteLimit(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t, storetest.SQLitePath(t))
	now := time.Date(2026, 3, 31, 12, 0, 0, 0, time.UTC)
	svc := New(st, func() time.Time { return now })
	svc.LimitWrites(3) // 3 at once, then one every 20 s
	caller := func(name string) Caller {
		u := must.Get(st.CreateUser(ctx, name))(t)
		return Caller{UserID: u.ID, Name: u.Name, PersonID: u.PersonID}
	}
	anna, ben := caller("Anna"), caller("Ben")
	g := must.Get(svc.CreateGroup(ctx, anna, CreateGroupInput{Name: "Home", Currency: "EUR"}))(t)
	for range 2 {
		must.Get(svc.AddExpense(ctx, anna, AddExpenseInput{Title: "Tea", Amount: "1", Group: g.ID}))(t)
	}
	_, err := svc.AddPayment(ctx, anna, AddPaymentInput{Amount: "1", Currency: "EUR", To: "me"})
	wantReason(t, err, ReasonRateLimited, "3 times a minute", "retry in 20 s")
	if e := err.(*Error); e.RetryAfter != 20 {
		t.Fatalf("retryAfter %d, want 20", e.RetryAfter)
	}
	must.Get(svc.GetBalances(ctx, anna))(t) // reads are not limited
	must.Get(svc.CreateGroup(ctx, ben, CreateGroupInput{Name: "Home", Currency: "EUR"}))(t)
	now = now.Add(15 * time.Second)
	_, err = svc.CreateGroup(ctx, anna, CreateGroupInput{Name: "Trip", Currency: "EUR"})
	wantReason(t, err, ReasonRateLimited, "retry in 5 s")
	now = now.Add(5 * time.Second)
	must.Get(svc.CreateGroup(ctx, anna, CreateGroupInput{Name: "Trip", Currency: "EUR"}))(t)
	_, err = svc.DeleteExpense(ctx, anna, IDInput{ID: "x"})
	wantReason(t, err, ReasonRateLimited)
}
