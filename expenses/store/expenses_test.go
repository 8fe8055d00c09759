package store_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/must"
)

func TestExpenses(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "Alice"))(t)
		bob := must.Get(s.CreateUser(ctx, "Bob"))(t)
		carol := must.Get(s.CreateUser(ctx, "Carol"))(t)
		sam := must.Get(s.AddFriend(ctx, alice.ID, "Sam", nil))(t)
		g := must.Get(s.CreateGroup(ctx, alice.ID, "Trip", "EUR", "travel", []string{bob.PersonID}))(t)

		e := must.Get(s.AddExpense(ctx, store.Expense{
			Title: "Dinner", Currency: "EUR", AmountMinor: 3000, PaidBy: alice.PersonID, Date: "2026-05-01",
			CreatedBy: alice.ID, Shares: []store.Share{{alice.PersonID, 1500}, {sam.ID, 1500}},
		}))(t)
		if e.ID == "" || e.CreatedAt.IsZero() {
			t.Fatalf("AddExpense = %+v", e)
		}
		got := must.Get(s.ExpenseByID(ctx, e.ID))(t)
		sortShares(&got)
		sortShares(&e)
		if !reflect.DeepEqual(got, e) {
			t.Errorf("ExpenseByID = %+v\nwant %+v", got, e)
		}
		ge := must.Get(s.AddExpense(ctx, store.Expense{
			GroupID: &g.ID, Title: "Fuel", Currency: "EUR", AmountMinor: 100, PaidBy: bob.PersonID, Date: "2026-05-02",
			Recurring: true, CreatedBy: bob.ID, Shares: []store.Share{{bob.PersonID, 100}},
		}))(t)

		// A bad share rolls the whole expense back.
		_, err := s.AddExpense(ctx, store.Expense{ID: "half", Title: "Half", Currency: "EUR", AmountMinor: 1,
			PaidBy: alice.PersonID, Date: "2026-05-03", CreatedBy: alice.ID,
			Shares: []store.Share{{alice.PersonID, 1}, {"nobody", 0}}})
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown share person: %v", err)
		}
		if _, err := s.ExpenseByID(ctx, "half"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("half-written expense: %v", err)
		}

		// Visibility: Bob sees the group expense only; Carol sees nothing.
		ids := func(u store.User, f store.ExpenseFilter) []string {
			es, _ := must2(s.ListExpenses(ctx, u.ID, f, 0, ""))(t)
			var out []string
			for _, e := range es {
				out = append(out, e.ID)
			}
			return out
		}
		if got := ids(alice, store.ExpenseFilter{}); !reflect.DeepEqual(got, []string{ge.ID, e.ID}) {
			t.Errorf("alice sees %v", got)
		}
		if got := ids(bob, store.ExpenseFilter{}); !reflect.DeepEqual(got, []string{ge.ID}) {
			t.Errorf("bob sees %v", got)
		}
		if got := ids(carol, store.ExpenseFilter{}); len(got) != 0 {
			t.Errorf("carol sees %v", got)
		}
		if _, err := s.ExpenseForUser(ctx, carol.ID, e.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("carol gets the dinner: %v", err)
		}
		if _, err := s.ExpenseForUser(ctx, bob.ID, ge.ID); err != nil {
			t.Errorf("bob's fuel: %v", err)
		}
		if got := ids(alice, store.ExpenseFilter{GroupID: &g.ID}); !reflect.DeepEqual(got, []string{ge.ID}) {
			t.Errorf("group filter: %v", got)
		}
		if got := ids(alice, store.ExpenseFilter{Recurring: ptr(false)}); !reflect.DeepEqual(got, []string{e.ID}) {
			t.Errorf("recurring filter: %v", got)
		}

		// Soft delete and restore.
		at := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
		if err := s.SoftDelete(ctx, e.ID, alice.ID, at); err != nil {
			t.Fatal(err)
		}
		if err := s.SoftDelete(ctx, e.ID, alice.ID, at); !errors.Is(err, store.ErrConflict) {
			t.Errorf("second delete: %v", err)
		}
		if err := s.SoftDelete(ctx, "nope", alice.ID, at); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("delete unknown: %v", err)
		}
		d := must.Get(s.ExpenseForUser(ctx, alice.ID, e.ID))(t)
		if d.DeletedAt == nil || !d.DeletedAt.Equal(at) || d.DeletedBy == nil || *d.DeletedBy != alice.ID {
			t.Errorf("deleted expense = %+v", d)
		}
		if got := ids(alice, store.ExpenseFilter{}); !reflect.DeepEqual(got, []string{ge.ID}) {
			t.Errorf("after delete alice sees %v", got)
		}
		if l := must.Get(s.LedgerFor(ctx, alice.ID))(t); len(l.Expenses) != 0 {
			t.Errorf("deleted expense in ledger: %+v", l.Expenses)
		}
		if err := s.Restore(ctx, e.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.Restore(ctx, e.ID); !errors.Is(err, store.ErrConflict) {
			t.Errorf("second restore: %v", err)
		}
		if r := must.Get(s.ExpenseByID(ctx, e.ID))(t); r.DeletedAt != nil || r.DeletedBy != nil {
			t.Errorf("restored = %+v", r)
		}
		if got := ids(alice, store.ExpenseFilter{}); len(got) != 2 {
			t.Errorf("after restore alice sees %v", got)
		}
	})
}

func sortShares(e *store.Expense) {
	for i := range e.Shares {
		for j := i + 1; j < len(e.Shares); j++ {
			if e.Shares[j].PersonID < e.Shares[i].PersonID {
				e.Shares[i], e.Shares[j] = e.Shares[j], e.Shares[i]
			}
		}
	}
}

func TestExpensePagination(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "Alice"))(t)
		bob := must.Get(s.CreateUser(ctx, "Bob"))(t)
		// 250 expenses over 10 dates, many sharing a date and a creation time, so that the id
		// must break ties.
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := range 250 {
			must.Get(s.AddExpense(ctx, store.Expense{
				Title: fmt.Sprint("e", i), Currency: "EUR", AmountMinor: int64(i + 1), PaidBy: alice.PersonID,
				Date: fmt.Sprintf("2026-03-%02d", 1+i%10), CreatedBy: alice.ID, CreatedAt: base.Add(time.Duration(i%3) * time.Second),
				Shares: []store.Share{{bob.PersonID, int64(i + 1)}},
			}))(t)
		}
		all, next := must2(s.ListExpenses(ctx, alice.ID, store.ExpenseFilter{}, 1000, ""))(t)
		if len(all) != store.MaxLimit || next == "" {
			t.Fatalf("limit 1000 gave %d, next %q", len(all), next)
		}
		var reference []string
		for _, limit := range []int{20, 100, 7} {
			var got []string
			seen := map[string]bool{}
			cursor := ""
			for {
				page, next := must2(s.ListExpenses(ctx, bob.ID, store.ExpenseFilter{}, limit, cursor))(t)
				if len(page) > limit || (next != "" && len(page) != limit) {
					t.Fatalf("limit %d: page of %d, next %q", limit, len(page), next)
				}
				for _, e := range page {
					if seen[e.ID] {
						t.Fatalf("limit %d: %s twice", limit, e.ID)
					}
					seen[e.ID] = true
					if len(e.Shares) != 1 || e.Shares[0].AmountMinor != e.AmountMinor {
						t.Fatalf("shares of %+v", e)
					}
					got = append(got, e.Date+"|"+e.CreatedAt.Format(time.RFC3339)+"|"+e.ID)
				}
				if next == "" {
					break
				}
				cursor = next
			}
			if len(got) != 250 {
				t.Fatalf("limit %d: %d expenses, want 250", limit, len(got))
			}
			for i := 1; i < len(got); i++ {
				if got[i] >= got[i-1] {
					t.Fatalf("limit %d: not newest first at %d: %s after %s", limit, i, got[i], got[i-1])
				}
			}
			if reference == nil {
				reference = got
			} else if !reflect.DeepEqual(got, reference) {
				t.Errorf("limit %d: order differs from limit 20", limit)
			}
		}
	})
}

func TestPaymentsAndLedger(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "Alice"))(t)
		bob := must.Get(s.CreateUser(ctx, "Bob"))(t)
		carol := must.Get(s.CreateUser(ctx, "Carol"))(t)
		g := must.Get(s.CreateGroup(ctx, alice.ID, "Flat", "EUR", "home", []string{bob.PersonID, carol.PersonID}))(t)

		e1 := must.Get(s.AddExpense(ctx, store.Expense{GroupID: &g.ID, Title: "Rent", Currency: "EUR", AmountMinor: 90000,
			PaidBy: alice.PersonID, Date: "2026-04-01", CreatedBy: alice.ID,
			Shares: []store.Share{{alice.PersonID, 30000}, {bob.PersonID, 30000}, {carol.PersonID, 30000}}}))(t)
		// Bob and Carol only: in the group, so Alice sees it, but it is not in her ledger.
		e2 := must.Get(s.AddExpense(ctx, store.Expense{GroupID: &g.ID, Title: "Pizza", Currency: "EUR", AmountMinor: 2000,
			PaidBy: bob.PersonID, Date: "2026-04-02", CreatedBy: bob.ID,
			Shares: []store.Share{{bob.PersonID, 1000}, {carol.PersonID, 1000}}}))(t)
		e3 := must.Get(s.AddExpense(ctx, store.Expense{Title: "Taxi", Currency: "JPY", AmountMinor: 3000,
			PaidBy: carol.PersonID, Date: "2026-04-03", CreatedBy: carol.ID,
			Shares: []store.Share{{alice.PersonID, 3000}}}))(t)
		p1 := must.Get(s.AddPayment(ctx, store.Payment{GroupID: &g.ID, From: bob.PersonID, To: alice.PersonID,
			Currency: "EUR", AmountMinor: 30000, Date: "2026-04-05", Description: "rent", CreatedBy: bob.ID}))(t)
		must.Get(s.AddPayment(ctx, store.Payment{From: bob.PersonID, To: carol.PersonID,
			Currency: "EUR", AmountMinor: 500, Date: "2026-04-06", CreatedBy: bob.ID}))(t)
		if _, err := s.AddPayment(ctx, store.Payment{From: "nobody", To: carol.PersonID, Currency: "EUR",
			AmountMinor: 1, Date: "2026-04-06", CreatedBy: bob.ID}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("payment from nobody: %v", err)
		}

		l := must.Get(s.LedgerFor(ctx, alice.ID))(t)
		if l.PersonID != alice.PersonID {
			t.Errorf("ledger person %s", l.PersonID)
		}
		var eids []string
		for _, e := range l.Expenses {
			eids = append(eids, e.ID)
		}
		if !reflect.DeepEqual(eids, []string{e1.ID, e3.ID}) {
			t.Errorf("ledger expenses %v, want rent and taxi (not pizza %s)", eids, e2.ID)
		}
		if len(l.Expenses[0].Shares) != 3 || len(l.Expenses[1].Shares) != 1 {
			t.Errorf("ledger shares: %+v", l.Expenses)
		}
		if len(l.Payments) != 1 || !reflect.DeepEqual(l.Payments[0], p1) {
			t.Errorf("ledger payments %+v, want %+v", l.Payments, p1)
		}
		if lb := must.Get(s.LedgerFor(ctx, bob.ID))(t); len(lb.Expenses) != 2 || len(lb.Payments) != 2 {
			t.Errorf("bob's ledger: %d expenses, %d payments", len(lb.Expenses), len(lb.Payments))
		}
		if _, err := s.LedgerFor(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("ledger of nobody: %v", err)
		}
	})
}
