package service

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/must"
)

// TestTextLimitsCoverEveryParameter checks every tool input: a string parameter without a
// limit in TextLimits would panic here.
func TestTextLimitsCoverEveryParameter(t *testing.T) {
	r := true
	for _, in := range []any{ListExpensesInput{Recurring: &r}, IDInput{}, AddExpenseInput{Splits: map[string]json.Number{"me": "1"}},
		AddPaymentInput{}, ListGroupsInput{}, GetGroupInput{}, CreateGroupInput{Members: []string{"Ben"}}, JoinGroupInput{}} {
		if err := checkInput(in); err != nil {
			t.Errorf("%T: %v", in, err)
		}
	}
}

// TestServiceRefusesText checks the service's own rules, without the edge's schema.
func TestServiceRefusesText(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t, storetest.SQLitePath(t))
	svc := New(st, func() time.Time { return time.Date(2026, 3, 31, 12, 0, 0, 0, time.UTC) })
	u := must.Get(st.CreateUser(ctx, "Anna"))(t)
	anna := Caller{UserID: u.ID, Name: u.Name, PersonID: u.PersonID}
	_, err := svc.AddExpense(ctx, anna, AddExpenseInput{Title: strings.Repeat("é", MaxTitleLength+1), Amount: "1",
		Currency: "EUR", Splits: map[string]json.Number{"me": "1"}})
	wantReason(t, err, ReasonInvalidInput, "at most 200")
	_, err = svc.CreateGroup(ctx, anna, CreateGroupInput{Name: "Trip\x00", Currency: "EUR"})
	wantReason(t, err, ReasonInvalidInput, "U+0000")
	_, err = svc.AddExpense(ctx, anna, AddExpenseInput{Title: "Tea", Amount: "1", Currency: "EUR", Date: "2027-04-01",
		Splits: map[string]json.Number{"me": "1"}})
	wantReason(t, err, ReasonInvalidInput, "2027-03-31")
	if _, err := svc.AddExpense(ctx, anna, AddExpenseInput{Title: "Tea", Amount: "1", Currency: "EUR", Date: "2027-03-31",
		Splits: map[string]json.Number{"me": "1"}}); err != nil {
		t.Fatal(err)
	}
}
