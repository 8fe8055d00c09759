package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/must"
)

// TestConsentByJoining: an invitation is not a membership; once alice and bob both joined
// dave's Trip, debts between them are theirs to make (in Trip, and payments to settle up),
// and sharing Trip still does not make them friends.
func TestConsentByJoining(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		alice, bob, dave, _ := tripFixture(t, st)
		trip := call[service.GroupDetails](t, dave, "create_group", map[string]any{"name": "Trip", "currency": "EUR",
			"members": []string{"alice", "bob"}})
		if len(trip.Members) != 1 || len(trip.Invited) != 2 {
			t.Fatalf("create_group adds users who did not accept: %+v", trip)
		}
		call[service.GroupDetails](t, alice, "create_group", map[string]any{"name": "Scam", "currency": "EUR",
			"members": []string{"bob"}})
		bobs := call[service.GroupPage](t, bob, "list_groups", nil)
		if len(bobs.Groups) != 1 || bobs.Groups[0].Status != "invited" {
			t.Fatalf("bob's groups: %+v", bobs)
		}
		scam := call[service.GroupDetails](t, alice, "get_group", map[string]any{"name": "Scam"})
		// get_group: an invitee may look at the group before joining; someone else's group is FORBIDDEN.
		if g := call[service.GroupDetails](t, bob, "get_group", map[string]any{"name": "Trip"}); g.Status != "invited" {
			t.Fatalf("bob's get_group of his invitation: %+v", g)
		}
		wantError(t, bob, "get_group", map[string]any{"name": scam.ID}, service.ReasonForbidden)
		// An invitation is not a membership: alice cannot use Trip before joining it.
		wantError(t, alice, "add_expense", map[string]any{"title": "z", "amount": 5, "group": trip.ID,
			"splits": map[string]any{"me": 5}}, service.ReasonForbidden)
		wantError(t, alice, "add_expense", map[string]any{"title": "z", "amount": 5, "group": "Trip",
			"splits": map[string]any{"me": 5}}, service.ReasonNotFound)

		// Nor can bob name alice: he knows her from no group he joined.
		wantError(t, bob, "add_payment", map[string]any{"amount": 1, "currency": "EUR", "to": "alice"}, service.ReasonInvalidInput)
		wantError(t, bob, "add_expense", map[string]any{"title": "z", "amount": 5, "currency": "EUR",
			"splits": map[string]any{"alice": 5}}, service.ReasonInvalidInput)

		// Both join Trip by their own consent: within it, alice may split with bob, and each may
		// pay the other to settle up.
		call[service.GroupDetails](t, alice, "join_group", map[string]any{"group": "Trip"})
		joined := call[service.GroupDetails](t, bob, "join_group", map[string]any{"group": trip.ID})
		if len(joined.Members) != 3 || len(joined.Invited) != 0 || joined.Members[2].Name != "me" {
			t.Fatalf("bob joined Trip: %+v", joined)
		}
		wantError(t, bob, "join_group", map[string]any{"group": "Trip"}, service.ReasonInvalidInput)
		call[service.Expense](t, alice, "add_expense", map[string]any{"title": "Taxi", "amount": 30, "group": "Trip",
			"splits": map[string]any{"bob": 30}})
		call[service.Payment](t, bob, "add_payment", map[string]any{"amount": 10, "currency": "EUR", "to": "alice"})
		if b := call[service.Balances](t, bob, "get_balances", nil); len(b.Owed) != 1 || b.Owed[0].Name != "alice" ||
			b.Owed[0].Amount != "20.00" || len(b.OwedToYou) != 0 {
			t.Fatalf("bob's balances after Trip: %+v", b)
		}
		// Sharing a group does not make friends: bob cannot invite alice to a group of his.
		msg := wantError(t, bob, "create_group", map[string]any{"name": "Scam 2", "currency": "EUR",
			"members": []string{"alice"}}, service.ReasonForbidden)
		if !strings.Contains(msg, "not your friend") {
			t.Fatalf("create_group's refusal: %s", msg)
		}
		if fr := call[service.Friends](t, bob, "list_friends", nil); len(fr.Friends) != 1 || fr.Friends[0].Name != "dave" {
			t.Fatalf("bob's friends after joining Trip: %+v", fr)
		}
		// Name resolution: in Trip alice's "bob" is the user, and her placeholder is not in it.
		g := call[service.GroupDetails](t, alice, "get_group", map[string]any{"name": "Trip"})
		if g.Members[1].Name != "me" || g.Members[2].Name != "bob" || !g.Members[2].Registered {
			t.Fatalf("alice's view of Trip: %+v", g)
		}
		// Outside a group, alice's "bob" is now ambiguous between her placeholder and the user.
		wantError(t, alice, "add_payment", map[string]any{"amount": 1, "currency": "EUR", "to": "bob"}, service.ReasonInvalidInput)
	})
}

// TestConsentRestore: an expense stored in a group that someone in it never joined (made
// before invitations existed, or written around the service) counts in nobody's balances but
// its author's, and restore_expense refuses to bring it back once deleted.
func TestConsentRestore(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		alice, bob, dave, _ := tripFixture(t, st)
		users := map[string]store.User{}
		for _, n := range []string{"alice", "bob", "dave"} {
			users[n] = must.Get(st.UserByName(ctx, n))(t)
		}
		// dave invites bob; an expense with bob's share is stored in the group all the same.
		g := must.Get(st.NewGroup(ctx, users["dave"].ID, store.GroupSpec{Name: "Old", Currency: "EUR",
			Invitees: []string{users["bob"].PersonID}}))(t)
		e := must.Get(st.AddExpense(ctx, store.Expense{GroupID: &g.ID, Title: "old", Currency: "EUR", AmountMinor: 900,
			PaidBy: users["dave"].PersonID, Date: "2026-01-01", CreatedBy: users["dave"].ID,
			Shares: []store.Share{{PersonID: users["bob"].PersonID, AmountMinor: 900}}}))(t)
		noDebts(t, bob, "bob")
		call[service.Expense](t, bob, "delete_expense", map[string]any{"id": e.ID})
		wantError(t, dave, "restore_expense", map[string]any{"id": e.ID}, service.ReasonForbidden)

		// Outside a group: alice and bob share no group and are not friends.
		e2 := must.Get(st.AddExpense(ctx, store.Expense{Title: "old", Currency: "EUR", AmountMinor: 700,
			PaidBy: users["alice"].PersonID, Date: "2026-01-01", CreatedBy: users["alice"].ID,
			Shares: []store.Share{{PersonID: users["bob"].PersonID, AmountMinor: 700}}}))(t)
		call[service.Expense](t, bob, "delete_expense", map[string]any{"id": e2.ID})
		wantError(t, alice, "restore_expense", map[string]any{"id": e2.ID}, service.ReasonForbidden)
		noDebts(t, bob, "bob")

		// A deleted expense whose people agreed comes back.
		call[service.GroupDetails](t, bob, "join_group", map[string]any{"group": "Old"})
		call[service.Expense](t, dave, "restore_expense", map[string]any{"id": e.ID})
		if b := call[service.Balances](t, bob, "get_balances", nil); len(b.Owed) != 1 || b.Owed[0].Amount != "9.00" {
			t.Fatalf("bob's balances after joining: %+v", b)
		}
		_ = alice
	})
}
