package service

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/must"
)

func wantReason(t *testing.T, err error, code string, contains ...string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Reason != code {
		t.Fatalf("error %v, want code %s", err, code)
	}
	for _, c := range contains {
		if !strings.Contains(e.Message, c) {
			t.Errorf("message %q does not contain %q", e.Message, c)
		}
	}
}

func splits(e Expense) map[string]string {
	m := map[string]string{}
	for _, s := range e.Splits {
		m[s.Name] = s.Amount
	}
	return m
}

func TestService(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 3, 31, 12, 0, 0, 0, time.UTC)
		svc := New(st, func() time.Time { return now })
		must.Get(st.CreateUser(ctx, "Anna"))(t)
		must.Get(st.CreateUser(ctx, "Ben"))(t)
		must.Get(st.CreateUser(ctx, "Dora"))(t)

		// Tokens.
		tokA := must.Get(svc.IssueToken(ctx, "anna", 0))(t)
		tokB := must.Get(svc.IssueToken(ctx, "Ben", time.Hour))(t)
		tokD := must.Get(svc.IssueToken(ctx, "Dora", 0))(t)
		anna := must.Get(svc.Authenticate(ctx, BearerToken("Bearer "+tokA)))(t)
		ben := must.Get(svc.Authenticate(ctx, tokB))(t)
		dora := must.Get(svc.Authenticate(ctx, tokD))(t)
		if anna.Name != "Anna" || ben.Name != "Ben" {
			t.Fatalf("callers %+v %+v", anna, ben)
		}
		must.Get(svc.AddFriend(ctx, anna, AddFriendInput{Name: "ben"}))(t)
		must.Get(svc.AddFriend(ctx, ben, AddFriendInput{Name: "Anna"}))(t)
		_, err := svc.Authenticate(ctx, "")
		wantReason(t, err, ReasonUnauthorized)
		unknown, _ := NewToken()
		_, err = svc.Authenticate(ctx, unknown)
		wantReason(t, err, ReasonUnauthorized)
		later := New(st, func() time.Time { return now.Add(2 * time.Hour) })
		_, err = later.Authenticate(ctx, tokB)
		wantReason(t, err, ReasonUnauthorized, "expired")
		if me := must.Get(svc.GetMe(ctx, anna))(t); me.Name != "Anna" || me.ID != anna.UserID {
			t.Errorf("GetMe = %+v", me)
		}

		// Group: Anna, placeholder Carl, and Ben, Anna's friend, once he accepts the invitation.
		g := must.Get(svc.CreateGroup(ctx, anna, CreateGroupInput{Name: "Trip", Currency: "eur", Type: "travel", Members: []string{"Ben", "Carl"}}))(t)
		wantMembers := []Member{{"me", true, 1}, {"Carl", false, 1}}
		if !reflect.DeepEqual(g.Members, wantMembers) || !reflect.DeepEqual(g.Invited, []string{"Ben"}) || g.Currency != "EUR" ||
			g.DefaultSplit != "equal" || g.CreatedBy != "me" || g.Status != "member" {
			t.Errorf("CreateGroup = %+v", g)
		}
		if gb := must.Get(svc.GetGroup(ctx, ben, GetGroupInput{Name: "trip"}))(t); gb.Status != "invited" || !reflect.DeepEqual(gb.Invited, []string{"me"}) {
			t.Errorf("Ben's GetGroup before joining = %+v", gb)
		}
		must.Get(svc.JoinGroup(ctx, ben, JoinGroupInput{Group: "Trip"}))(t)
		if gb := must.Get(svc.GetGroup(ctx, ben, GetGroupInput{Name: "trip"}))(t); gb.ID != g.ID || gb.Members[0].Name != "Anna" || gb.Members[2].Name != "me" ||
			gb.Status != "member" || len(gb.Invited) != 0 {
			t.Errorf("Ben's GetGroup = %+v", gb)
		}
		if gb := must.Get(svc.GetGroup(ctx, ben, GetGroupInput{Name: g.ID}))(t); gb.Name != "Trip" {
			t.Errorf("GetGroup by id = %+v", gb)
		}
		fr := must.Get(svc.ListFriends(ctx, anna))(t)
		if !reflect.DeepEqual(fr.Friends, []Friend{{"Ben", true}, {"Carl", false}}) {
			t.Errorf("ListFriends = %+v", fr)
		}
		_, err = svc.CreateGroup(ctx, anna, CreateGroupInput{Name: "TRIP", Currency: "EUR"})
		wantReason(t, err, ReasonInvalidInput, "already")

		// Equal default split in join order.
		e1 := must.Get(svc.AddExpense(ctx, anna, AddExpenseInput{Title: "Dinner", Amount: "10", Group: "Trip"}))(t)
		if e1.Amount != "10.00" || e1.Currency != "EUR" || e1.PaidBy != "me" || e1.Date != "2026-03-31" || e1.CreatedBy != "me" || e1.Deleted ||
			!reflect.DeepEqual(splits(e1), map[string]string{"me": "3.34", "Ben": "3.33", "Carl": "3.33"}) || e1.Group.Name != "Trip" {
			t.Errorf("AddExpense = %+v", e1)
		}
		// Explicit splits, paid by Ben, JPY and KWD.
		must.Get(svc.AddExpense(ctx, anna, AddExpenseInput{Title: "Taxi", Amount: "1000", Currency: "JPY", PaidBy: "ben", Group: "Trip",
			Splits: map[string]json.Number{"me": "700", "Ben": "300"}, Date: "2026-03-30"}))(t)
		kwd := must.Get(svc.AddExpense(ctx, ben, AddExpenseInput{Title: "Tea", Amount: "0.010", Currency: "KWD", Group: "Trip"}))(t)
		if !reflect.DeepEqual(splits(kwd), map[string]string{"Anna": "0.004", "me": "0.003", "Carl": "0.003"}) {
			t.Errorf("KWD splits %+v", kwd.Splits)
		}
		// Payment: Ben pays Anna 1.00 EUR.
		p := must.Get(svc.AddPayment(ctx, ben, AddPaymentInput{Amount: "1", Currency: "EUR", To: "Anna", Description: "cash"}))(t)
		if p.Amount != "1.00" || p.From != "me" || p.To != "Anna" {
			t.Errorf("AddPayment = %+v", p)
		}

		ba := must.Get(svc.GetBalances(ctx, anna))(t)
		bb := must.Get(svc.GetBalances(ctx, ben))(t)
		wantA := Balances{
			Owed:      []BalanceItem{{"Ben", "700", "JPY"}, {"Ben", "0.004", "KWD"}},
			OwedToYou: []BalanceItem{{"Ben", "2.33", "EUR"}, {"Carl", "3.33", "EUR"}},
		}
		if !reflect.DeepEqual(ba, wantA) {
			t.Errorf("Anna's balances %+v, want %+v", ba, wantA)
		}
		// Ben's view mirrors Anna's: what she owes him he is owed, and the other way round.
		wantB := Balances{
			Owed:      []BalanceItem{{"Anna", "2.33", "EUR"}},
			OwedToYou: []BalanceItem{{"Anna", "700", "JPY"}, {"Anna", "0.004", "KWD"}, {"Carl", "0.003", "KWD"}},
		}
		if !reflect.DeepEqual(bb, wantB) {
			t.Errorf("Ben's balances %+v, want %+v", bb, wantB)
		}

		// Splits that do not add up; unknown and ambiguous names.
		_, err = svc.AddExpense(ctx, anna, AddExpenseInput{Title: "X", Amount: "10", Currency: "EUR", Group: "Trip",
			Splits: map[string]json.Number{"me": "5", "Ben": "4.99"}})
		wantReason(t, err, ReasonInvalidInput, "0.01")
		_, err = svc.AddExpense(ctx, anna, AddExpenseInput{Title: "X", Amount: "10", Currency: "EUR", PaidBy: "Dan", Group: "Trip"})
		wantReason(t, err, ReasonInvalidInput, "Dan", "Ben", "Carl")
		_, err = svc.AddExpense(ctx, anna, AddExpenseInput{Title: "X", Amount: "10", Currency: "EUR"})
		wantReason(t, err, ReasonInvalidInput, "splits")
		_, err = svc.AddExpense(ctx, anna, AddExpenseInput{Title: "X", Amount: "10.001", Currency: "EUR", Group: "Trip"})
		wantReason(t, err, ReasonInvalidInput)
		must.Get(svc.AddFriend(ctx, dora, AddFriendInput{Name: "Anna"}))(t)
		must.Get(svc.AddFriend(ctx, anna, AddFriendInput{Name: "Dora"}))(t)
		must.Get(svc.CreateGroup(ctx, anna, CreateGroupInput{Name: "Home", Currency: "EUR", Members: []string{"Dora"}}))(t)
		must.Get(st.AddFriend(ctx, dora.UserID, "Carl", nil))(t)
		must.Get(svc.CreateGroup(ctx, dora, CreateGroupInput{Name: "Dora's", Currency: "EUR", Members: []string{"Carl", "Anna"}}))(t)
		must.Get(svc.JoinGroup(ctx, dora, JoinGroupInput{Group: "Home"}))(t)
		must.Get(svc.JoinGroup(ctx, anna, JoinGroupInput{Group: "Dora's"}))(t)
		_, err = svc.AddPayment(ctx, anna, AddPaymentInput{Amount: "1", Currency: "EUR", To: "Carl"})
		wantReason(t, err, ReasonInvalidInput, "ambiguous", "Trip", "Dora's")
		// Within a group the name is not ambiguous.
		must.Get(svc.AddExpense(ctx, anna, AddExpenseInput{Title: "Bread", Amount: "2", Group: "Trip", Splits: map[string]json.Number{"Carl": "2"}}))(t)

		// Ben is not in Home: cannot see, delete or list its expenses.
		home := must.Get(svc.AddExpense(ctx, anna, AddExpenseInput{Title: "Rent", Amount: "900", Group: "Home"}))(t)
		_, err = svc.GetExpense(ctx, ben, IDInput{home.ID})
		wantReason(t, err, ReasonForbidden)
		_, err = svc.DeleteExpense(ctx, ben, IDInput{home.ID})
		wantReason(t, err, ReasonForbidden)
		_, err = svc.GetExpense(ctx, ben, IDInput{"nonexistent"})
		wantReason(t, err, ReasonNotFound)
		_, err = svc.GetGroup(ctx, ben, GetGroupInput{Name: "Home"})
		wantReason(t, err, ReasonNotFound, "Trip")
		hg := must.Get(svc.GetGroup(ctx, anna, GetGroupInput{Name: "Home"}))(t)
		_, err = svc.GetGroup(ctx, ben, GetGroupInput{Name: hg.ID})
		wantReason(t, err, ReasonForbidden)
		_, err = svc.ListExpenses(ctx, ben, ListExpensesInput{Group: hg.ID})
		wantReason(t, err, ReasonForbidden)

		// Delete then restore leaves balances unchanged.
		before := must.Get(svc.GetBalances(ctx, anna))(t)
		del := must.Get(svc.DeleteExpense(ctx, ben, IDInput{e1.ID}))(t)
		if !del.Deleted || del.DeletedBy != "Ben" && del.DeletedBy != "me" {
			t.Errorf("deleted %+v", del)
		}
		if mid := must.Get(svc.GetBalances(ctx, anna))(t); reflect.DeepEqual(mid, before) {
			t.Error("delete did not change balances")
		}
		_, err = svc.DeleteExpense(ctx, anna, IDInput{e1.ID})
		wantReason(t, err, ReasonInvalidInput, "restore")
		if r := must.Get(svc.RestoreExpense(ctx, anna, IDInput{e1.ID}))(t); r.Deleted {
			t.Errorf("restored %+v", r)
		}
		if after := must.Get(svc.GetBalances(ctx, anna))(t); !reflect.DeepEqual(after, before) {
			t.Errorf("balances after restore %+v, want %+v", after, before)
		}

		// Pagination.
		var ids []string
		cursor := ""
		for i := 0; ; i++ {
			page := must.Get(svc.ListExpenses(ctx, anna, ListExpensesInput{Limit: 2, Cursor: cursor}))(t)
			if len(page.Expenses) > 2 || i > 10 {
				t.Fatalf("page %+v", page)
			}
			for _, e := range page.Expenses {
				ids = append(ids, e.ID)
			}
			if page.NextCursor == "" {
				break
			}
			cursor = page.NextCursor
		}
		if len(ids) != 5 {
			t.Errorf("listed %d expenses, want 5", len(ids))
		}
		if page := must.Get(svc.ListExpenses(ctx, ben, ListExpensesInput{Group: "Trip"}))(t); len(page.Expenses) != 4 {
			t.Errorf("Ben's Trip expenses: %d", len(page.Expenses))
		}
		_, err = svc.ListExpenses(ctx, anna, ListExpensesInput{Cursor: "garbage"})
		wantReason(t, err, ReasonInvalidInput, "cursor")
		gp := must.Get(svc.ListGroups(ctx, anna, ListGroupsInput{}))(t)
		if len(gp.Groups) != 3 {
			t.Errorf("ListGroups = %+v", gp)
		}
	})
}

// TestStoreMessages: a store error reaches the caller as what was looked for and its kind,
// never with the database driver's text.
func TestStoreMessages(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		_, err := New(st, nil).IssueToken(context.Background(), "Nobody", 0)
		wantReason(t, err, ReasonNotFound, "Nobody", "not found")
		var e *Error
		if errors.As(err, &e) && (strings.Contains(e.Message, "sql") || strings.Contains(e.Message, "store:")) {
			t.Errorf("message %q shows the store's or driver's internals", e.Message)
		}
	})
}
