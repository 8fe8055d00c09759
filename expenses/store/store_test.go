package store_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/must"
)

func ptr[T any](v T) *T { return &v }

func TestUsersAndTokens(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "Alice"))(t)
		bob := must.Get(s.CreateUser(ctx, "bob"))(t)
		if _, err := s.CreateUser(ctx, "ALICE"); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("duplicate name: %v, want ErrConflict", err)
		}
		if u := must.Get(s.UserByName(ctx, "alice"))(t); u != alice {
			t.Errorf("UserByName = %+v, want %+v", u, alice)
		}
		if _, err := s.UserByName(ctx, "carol"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown user: %v", err)
		}
		users := must.Get(s.ListUsers(ctx))(t)
		if len(users) != 2 || users[0].ID != alice.ID || users[1].ID != bob.ID {
			t.Errorf("ListUsers = %+v", users)
		}
		if p := must.Get(s.PersonOfUser(ctx, alice.ID))(t); p.ID != alice.PersonID || p.UserID == nil || *p.UserID != alice.ID {
			t.Errorf("PersonOfUser = %+v", p)
		}

		h1 := sha256.Sum256([]byte("token-1"))
		h2 := sha256.Sum256([]byte("token-2"))
		exp := time.Date(2030, 1, 2, 3, 4, 5, 6e6, time.UTC)
		if err := s.AddToken(ctx, alice.ID, h1[:], &exp); err != nil {
			t.Fatal(err)
		}
		if err := s.AddToken(ctx, bob.ID, h2[:], nil); err != nil {
			t.Fatal(err)
		}
		if err := s.AddToken(ctx, bob.ID, h2[:], nil); !errors.Is(err, store.ErrConflict) {
			t.Errorf("duplicate hash: %v", err)
		}
		if err := s.AddToken(ctx, "nobody", []byte("x"), nil); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("token of unknown user: %v", err)
		}
		u, e, err := s.UserByTokenHash(ctx, h1[:])
		if err != nil || u != alice || e == nil || !e.Equal(exp) {
			t.Errorf("UserByTokenHash = %+v, %v, %v", u, e, err)
		}
		u, e, err = s.UserByTokenHash(ctx, h2[:])
		if err != nil || u.ID != bob.ID || e != nil {
			t.Errorf("UserByTokenHash = %+v, %v, %v", u, e, err)
		}
		unknown := sha256.Sum256([]byte("nope"))
		if _, _, err := s.UserByTokenHash(ctx, unknown[:]); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown hash: %v", err)
		}
	})
}

func TestFriendsAndNames(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "Alice"))(t)
		bob := must.Get(s.CreateUser(ctx, "Bob"))(t)
		carol := must.Get(s.CreateUser(ctx, "Carol"))(t)

		sam := must.Get(s.AddFriend(ctx, alice.ID, "Sam", nil))(t)
		if sam.UserID != nil {
			t.Errorf("placeholder has a user: %+v", sam)
		}
		b := must.Get(s.AddFriend(ctx, alice.ID, "", &bob.ID))(t)
		if b.ID != bob.PersonID || b.Name != "Bob" {
			t.Errorf("linked friend = %+v", b)
		}
		if _, err := s.AddFriend(ctx, alice.ID, "sam", nil); !errors.Is(err, store.ErrConflict) {
			t.Errorf("duplicate friend name: %v", err)
		}
		if _, err := s.AddFriend(ctx, alice.ID, "Me", &alice.ID); !errors.Is(err, store.ErrConflict) {
			t.Errorf("befriend oneself: %v", err)
		}
		if _, err := s.AddFriend(ctx, alice.ID, "X", ptr("nobody")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown linked user: %v", err)
		}
		friends := must.Get(s.ListFriends(ctx, alice.ID))(t)
		if len(friends) != 2 || friends[0].Name != "Bob" || friends[1].Name != "Sam" {
			t.Errorf("ListFriends = %+v", friends)
		}
		if f := must.Get(s.ListFriends(ctx, bob.ID))(t); len(f) != 0 {
			t.Errorf("bob's friends = %+v", f)
		}

		// Carol's group has another "Sam"; once Alice is in it, "sam" is ambiguous for her.
		sam2 := must.Get(s.AddFriend(ctx, carol.ID, "Sam", nil))(t)
		found := must.Get(s.FindPeopleByName(ctx, alice.ID, "SAM"))(t)
		if len(found) != 1 || found[0].ID != sam.ID {
			t.Errorf("FindPeopleByName before group = %+v", found)
		}
		must.Get(s.CreateGroup(ctx, carol.ID, "Trip", "EUR", "travel", []string{sam2.ID, alice.PersonID}))(t)
		found = must.Get(s.FindPeopleByName(ctx, alice.ID, "sam"))(t)
		if len(found) != 2 {
			t.Errorf("FindPeopleByName = %+v, want both Sams", found)
		}
		if found := must.Get(s.FindPeopleByName(ctx, bob.ID, "sam"))(t); len(found) != 0 {
			t.Errorf("bob finds %+v", found)
		}
		if found := must.Get(s.FindPeopleByName(ctx, alice.ID, "carol"))(t); len(found) != 1 || found[0].ID != carol.PersonID {
			t.Errorf("carol as group member: %+v", found)
		}
	})
}

func TestGroups(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "Alice"))(t)
		bob := must.Get(s.CreateUser(ctx, "Bob"))(t)
		sam := must.Get(s.AddFriend(ctx, alice.ID, "Sam", nil))(t)

		g := must.Get(s.CreateGroup(ctx, alice.ID, "Flat", "EUR", "home",
			[]string{sam.ID, bob.PersonID, alice.PersonID, sam.ID}))(t)
		if got := must.Get(s.GroupByID(ctx, g.ID))(t); got != g {
			t.Errorf("GroupByID = %+v, want %+v", got, g)
		}
		members := must.Get(s.Members(ctx, g.ID))(t)
		want := []string{alice.PersonID, sam.ID, bob.PersonID}
		if len(members) != len(want) {
			t.Fatalf("Members = %+v", members)
		}
		for i, m := range members {
			if m.ID != want[i] || m.Position != i || m.Weight != 1 {
				t.Errorf("member %d = %+v, want %s", i, m, want[i])
			}
		}
		if members[2].UserID == nil || *members[2].UserID != bob.ID || members[1].UserID != nil {
			t.Errorf("linked users: %+v", members)
		}
		if _, err := s.CreateGroup(ctx, alice.ID, "flat", "EUR", "home", nil); !errors.Is(err, store.ErrConflict) {
			t.Errorf("duplicate group name: %v", err)
		}
		if _, err := s.CreateGroup(ctx, alice.ID, "Other", "EUR", "home", []string{"nobody"}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown member: %v", err)
		}
		if _, err := s.GroupByID(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown group: %v", err)
		}
		// Bob may make his own "Flat"; for him both are found by name.
		must.Get(s.CreateGroup(ctx, bob.ID, "FLAT", "USD", "home", nil))(t)
		if gs := must.Get(s.GroupsByName(ctx, bob.ID, "flat"))(t); len(gs) != 2 {
			t.Errorf("bob's Flats = %+v", gs)
		}
		if gs := must.Get(s.GroupsByName(ctx, alice.ID, "flat"))(t); len(gs) != 1 || gs[0].ID != g.ID {
			t.Errorf("alice's Flats = %+v", gs)
		}
		if ok := must.Get(s.IsMember(ctx, bob.ID, g.ID))(t); !ok {
			t.Error("bob is a member")
		}

		// Pagination: 45 groups of Alice (plus Flat) in pages of 20.
		for i := range 45 {
			must.Get(s.CreateGroup(ctx, alice.ID, fmt.Sprintf("g%02d", i), "EUR", "travel", nil))(t)
		}
		var names []string
		cursor := ""
		pages := 0
		for {
			page, next := must2(s.ListGroups(ctx, alice.ID, 0, cursor))(t)
			pages++
			if len(page) > store.DefaultLimit {
				t.Fatalf("page of %d", len(page))
			}
			for _, g := range page {
				names = append(names, g.Name)
			}
			if next == "" {
				break
			}
			cursor = next
		}
		if pages != 3 || len(names) != 46 || names[0] != "Flat" || names[1] != "g00" || names[45] != "g44" {
			t.Errorf("%d pages, names %v", pages, names)
		}
		if _, _, err := s.ListGroups(ctx, alice.ID, 10, "garbage!"); !errors.Is(err, store.ErrBadCursor) {
			t.Errorf("bad cursor: %v", err)
		}
	})
}

// must2 is must for methods that return a page and a cursor.
func must2[T any](v T, next string, err error) func(*testing.T) (T, string) {
	return func(t *testing.T) (T, string) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v, next
	}
}
