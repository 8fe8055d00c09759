package service

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/must"
)

func TestListSome(t *testing.T) {
	var items []string
	for i := range 25 {
		items = append(items, fmt.Sprint(i))
	}
	if got := listSome(items[:3]); got != "0, 1, 2" {
		t.Errorf("listSome of 3 = %q", got)
	}
	if got := listSome(items); got != "0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 15 more" {
		t.Errorf("listSome of 25 = %q", got)
	}
}

// TestServiceBounds: the service itself refuses lists past ItemLimits, whatever the edge's
// schema checked, and names of the form of an id.
func TestServiceBounds(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t, storetest.SQLitePath(t))
	svc := New(st, nil)
	must.Get(st.CreateUser(ctx, "Anna"))(t)
	anna := must.Get(svc.Authenticate(ctx, must.Get(svc.IssueToken(ctx, "Anna", 0))(t)))(t)
	var members []string
	splits := map[string]json.Number{}
	for i := range MaxGroupMembers {
		members = append(members, fmt.Sprint("P", i))
		splits[fmt.Sprint("P", i)] = "1"
	}
	_, err := svc.CreateGroup(ctx, anna, CreateGroupInput{Name: "Big", Currency: "EUR", Members: members})
	wantReason(t, err, ReasonInvalidInput, "members has 50 entries; at most 49")
	splits["me"] = "1"
	_, err = svc.AddExpense(ctx, anna, AddExpenseInput{Title: "x", Amount: "51", Currency: "EUR", Splits: splits})
	wantReason(t, err, ReasonInvalidInput, "splits has 51 entries; at most 50")
	_, err = svc.CreateGroup(ctx, anna, CreateGroupInput{Name: strings.Repeat("ab", 16), Currency: "EUR"})
	wantReason(t, err, ReasonInvalidInput, "form of a group id")
	must.Get(svc.CreateGroup(ctx, anna, CreateGroupInput{Name: strings.Repeat("ab", 16) + "x", Currency: "EUR"}))(t)
}

// TestFriendRequestBound: a user has at most MaxFriendRequests requests waiting; asking again
// for a name already asked is no new request, and a friendship answered frees its place.
func TestFriendRequestBound(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t, storetest.SQLitePath(t))
	svc := New(st, nil)
	must.Get(st.CreateUser(ctx, "Anna"))(t)
	must.Get(st.CreateUser(ctx, "Ben"))(t)
	anna := must.Get(svc.Authenticate(ctx, must.Get(svc.IssueToken(ctx, "Anna", 0))(t)))(t)
	ben := must.Get(svc.Authenticate(ctx, must.Get(svc.IssueToken(ctx, "Ben", 0))(t)))(t)
	must.Get(svc.AddFriend(ctx, anna, AddFriendInput{Name: "Ben"}))(t)
	for i := range MaxFriendRequests - 1 {
		must.Get(svc.AddFriend(ctx, anna, AddFriendInput{Name: fmt.Sprint("Stranger ", i)}))(t)
	}
	_, err := svc.AddFriend(ctx, anna, AddFriendInput{Name: "One too many"})
	wantReason(t, err, ReasonInvalidInput, "500 friend requests that nobody has answered")
	must.Get(svc.AddFriend(ctx, anna, AddFriendInput{Name: "Stranger 7"}))(t) // asked already
	if got := must.Get(svc.AddFriend(ctx, ben, AddFriendInput{Name: "Anna"}))(t); got.Status != "friends" {
		t.Fatalf("Ben answers Anna: %+v", got)
	}
	must.Get(svc.AddFriend(ctx, anna, AddFriendInput{Name: "One too many"}))(t) // Ben's answer freed a place
}
