package service

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/money"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/must"
)

// TestBalancesNeverBreak replays the attack that broke balances for good (expenses of the
// largest JPY amount and payments, past the int64 range of minor units) and adds unreadable
// records: the balances stay exact and answer, naming the records they leave out.
func TestBalancesNeverBreak(t *testing.T) {
	testBalancesNeverBreak(t, storetest.Open(t, storetest.SQLitePath(t)), 9300)
}

// TestBalancesLeaveOutBadRecords is TestBalancesNeverBreak on both engines, with fewer rows.
func TestBalancesLeaveOutBadRecords(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) { testBalancesNeverBreak(t, st, 20) })
}

// testBalancesNeverBreak records n expenses of money.MaxMinor yen that the victim owes.
func testBalancesNeverBreak(t *testing.T, st *store.Store, n int) {
	ctx := context.Background()
	now := time.Date(2026, 3, 31, 12, 0, 0, 0, time.UTC)
	svc := New(st, func() time.Time { return now })
	mallory := must.Get(st.CreateUser(ctx, "Mallory"))(t)
	victim := must.Get(st.CreateUser(ctx, "Victim"))(t)
	add := func(payer store.User, debtor store.User, minor int64, cur string) string {
		e := must.Get(st.AddExpense(ctx, store.Expense{Title: "x", Currency: cur, AmountMinor: minor, PaidBy: payer.PersonID,
			Date: "2026-03-31", CreatedBy: payer.ID, CreatedAt: now,
			Shares: []store.Share{{PersonID: debtor.PersonID, AmountMinor: minor}}}))(t)
		return e.ID
	}
	for range n {
		add(mallory, victim, money.MaxMinor, "JPY")
	}
	for range 3 {
		must.Get(st.AddPayment(ctx, store.Payment{From: mallory.PersonID, To: victim.PersonID, Currency: "JPY",
			AmountMinor: money.MaxMinor, Date: "2026-03-31", CreatedBy: mallory.ID, CreatedAt: now}))(t)
	}
	add(victim, mallory, 250, "EUR")
	bad := []string{add(mallory, victim, 5, "ZZZ"), add(mallory, victim, money.MaxMinor+1, "EUR")}
	v := Caller{UserID: victim.ID, Name: victim.Name, PersonID: victim.PersonID}
	got, err := svc.GetBalances(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	jpy := fmt.Sprint(n+3) + "000000000000000"
	want := Balances{Owed: []BalanceItem{{Name: "Mallory", Amount: jpy, Currency: "JPY"}},
		OwedToYou: []BalanceItem{{Name: "Mallory", Amount: "2.50", Currency: "EUR"}}}
	if !reflect.DeepEqual(got.Owed, want.Owed) || !reflect.DeepEqual(got.OwedToYou, want.OwedToYou) {
		t.Fatalf("victim's balances %+v, want %+v", got, want)
	}
	if len(got.LeftOut) != 2 || !(got.LeftOut[0] == bad[0] || got.LeftOut[1] == bad[0]) {
		t.Fatalf("left out %v, want %v", got.LeftOut, bad)
	}
	m := Caller{UserID: mallory.ID, Name: mallory.Name, PersonID: mallory.PersonID}
	if mb, err := svc.GetBalances(ctx, m); err != nil || len(mb.OwedToYou) != 1 || mb.OwedToYou[0].Amount != jpy {
		t.Fatalf("attacker's balances %+v, %v", mb, err)
	}
}
