package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/must"
)

// TestInvitations: NewGroup makes placeholders, members and invitations in one transaction;
// an invitee is listed as invited, is no member, and becomes the last member by JoinGroup.
func TestInvitations(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "alice"))(t)
		bob := must.Get(s.CreateUser(ctx, "bob"))(t)
		carl := must.Get(s.AddFriend(ctx, alice.ID, "Carl", nil))(t)
		g := must.Get(s.NewGroup(ctx, alice.ID, store.GroupSpec{Name: "Trip", Currency: "EUR",
			Members:  []store.NewMember{{Placeholder: "Zed"}, {PersonID: carl.ID}},
			Invitees: []string{bob.PersonID}}))(t)
		ms := must.Get(s.Members(ctx, g.ID))(t)
		if len(ms) != 3 || ms[0].ID != alice.PersonID || ms[1].Name != "Zed" || ms[2].ID != carl.ID {
			t.Fatalf("members %+v", ms)
		}
		if n := must.Get(s.CountFriends(ctx, alice.ID))(t); n != 2 {
			t.Fatalf("alice has %d friends, want Carl and Zed", n)
		}
		if inv := must.Get(s.Invitees(ctx, g.ID))(t); len(inv) != 1 || inv[0].ID != bob.PersonID {
			t.Fatalf("invitees %+v", inv)
		}
		if ok := must.Get(s.IsMember(ctx, bob.ID, g.ID))(t); ok {
			t.Fatal("an invitee is a member")
		}
		if ok := must.Get(s.IsInvited(ctx, bob.ID, g.ID))(t); !ok {
			t.Fatal("bob is not invited")
		}
		if gs, _ := must2(s.ListGroups(ctx, bob.ID, 0, ""))(t); len(gs) != 0 {
			t.Fatalf("ListGroups lists an invitation: %+v", gs)
		}
		if gs, _ := must2(s.ListGroupsAndInvitations(ctx, bob.ID, 0, ""))(t); len(gs) != 1 || !gs[0].Invited {
			t.Fatalf("ListGroupsAndInvitations: %+v", gs)
		}
		if gs := must.Get(s.InvitedGroupsByName(ctx, bob.ID, "TRIP"))(t); len(gs) != 1 || gs[0].ID != g.ID || !gs[0].Invited {
			t.Fatalf("InvitedGroupsByName: %+v", gs)
		}
		if gs := must.Get(s.GroupsByName(ctx, bob.ID, "Trip"))(t); len(gs) != 0 {
			t.Fatalf("GroupsByName finds an invitation: %+v", gs)
		}
		if ok := must.Get(s.Knows(ctx, alice.ID, bob.PersonID))(t); ok {
			t.Fatal("an invitation makes alice know bob")
		}

		// An expense of the group with bob's share binds him to nothing until he joins.
		must.Get(s.AddExpense(ctx, store.Expense{GroupID: &g.ID, Title: "x", Currency: "EUR", AmountMinor: 100,
			PaidBy: alice.PersonID, Date: "2026-01-01", CreatedBy: alice.ID,
			Shares: []store.Share{{PersonID: bob.PersonID, AmountMinor: 100}}}))(t)
		if l := must.Get(s.LedgerFor(ctx, bob.ID))(t); len(l.Expenses) != 0 {
			t.Fatalf("bob's ledger holds a group he never joined: %+v", l.Expenses)
		}

		must.Get(0, s.JoinGroup(ctx, bob.ID, g.ID))(t)
		ms = must.Get(s.Members(ctx, g.ID))(t)
		if len(ms) != 4 || ms[3].ID != bob.PersonID || ms[3].Position != 3 || ms[3].Weight != 1 {
			t.Fatalf("after JoinGroup: %+v", ms)
		}
		if inv := must.Get(s.Invitees(ctx, g.ID))(t); len(inv) != 0 {
			t.Fatalf("the invitation stays: %+v", inv)
		}
		if err := s.JoinGroup(ctx, bob.ID, g.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("joining twice: %v, want ErrNotFound", err)
		}
		if ok := must.Get(s.Knows(ctx, alice.ID, bob.PersonID))(t); !ok {
			t.Fatal("co-members do not know each other")
		}
		if l := must.Get(s.LedgerFor(ctx, bob.ID))(t); len(l.Expenses) != 1 {
			t.Fatalf("bob's ledger after joining: %+v", l.Expenses)
		}

		// All or nothing: a placeholder name alice already gives a friend fails the group.
		if _, err := s.NewGroup(ctx, alice.ID, store.GroupSpec{Name: "Other", Currency: "EUR",
			Members: []store.NewMember{{Placeholder: "New"}, {Placeholder: "carl"}}}); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a taken placeholder name: %v, want ErrConflict", err)
		}
		if n := must.Get(s.CountFriends(ctx, alice.ID))(t); n != 2 {
			t.Fatalf("a failed group left %d friends, want 2", n)
		}
		if gs := must.Get(s.GroupsByName(ctx, alice.ID, "Other"))(t); len(gs) != 0 {
			t.Fatalf("a failed group was kept: %+v", gs)
		}
	})
}
