package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

// TestGroupIDBeforeName is issue 26's takeover: a group whose name is the id of bob's Trip,
// with bob in it (stored as an older version allowed), must not stand for Trip. Ids are
// matched before names, create_group refuses names of that form, and a name two of the
// caller's groups have is refused with both ids, never resolved to one of them.
func TestGroupIDBeforeName(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		alice, bob, _, _ := tripFixture(t, st)
		trip := call[service.GroupDetails](t, bob, "create_group", map[string]any{"name": "Trip", "currency": "EUR"})
		aliceUser, err := st.UserByName(ctx, "alice")
		if err != nil {
			t.Fatal(err)
		}
		bobUser, err := st.UserByName(ctx, "bob")
		if err != nil {
			t.Fatal(err)
		}
		// The takeover group, written to the store as versions before this rule let alice make it.
		if _, err := st.CreateGroup(ctx, aliceUser.ID, trip.ID, "USD", "", []string{bobUser.PersonID}); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{trip.ID, strings.ToUpper(trip.ID)} {
			if g := call[service.GroupDetails](t, bob, "get_group", map[string]any{"name": id}); g.ID != trip.ID || g.Name != "Trip" {
				t.Fatalf("bob's get_group(%s) answers another group: %+v", id, g)
			}
		}
		e := call[service.Expense](t, bob, "add_expense", map[string]any{"title": "x", "amount": 5, "group": trip.ID})
		if e.Group == nil || e.Group.ID != trip.ID || e.Currency != "EUR" {
			t.Fatalf("add_expense(group: Trip's id) is stored elsewhere: %+v", e.Group)
		}
		if p := call[service.ExpensePage](t, bob, "list_expenses", map[string]any{"group": trip.ID}); len(p.Expenses) != 1 {
			t.Fatalf("list_expenses(group: Trip's id): %+v", p)
		}
		// create_group refuses a name that has the form of an id, in either case.
		for _, name := range []string{trip.ID, strings.ToUpper(trip.ID), "0123456789abcdef0123456789ABCDEF"} {
			wantError(t, alice, "create_group", map[string]any{"name": name, "currency": "EUR"}, service.ReasonInvalidInput)
		}
		// An ambiguous name: bob is in two groups named Home; the answer lists both ids.
		home := call[service.GroupDetails](t, bob, "create_group", map[string]any{"name": "Home", "currency": "EUR"})
		other, err := st.CreateGroup(ctx, aliceUser.ID, "home", "EUR", "", []string{bobUser.PersonID})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"get_group", map[string]any{"name": "HOME"}},
			{"add_expense", map[string]any{"title": "x", "amount": 5, "group": "Home"}},
			{"list_expenses", map[string]any{"group": "home"}},
		} {
			msg := wantError(t, bob, c.tool, c.args, service.ReasonInvalidInput)
			if !strings.Contains(msg, home.ID) || !strings.Contains(msg, other.ID) {
				t.Fatalf("%s: the ambiguity does not list both ids: %s", c.tool, msg)
			}
		}
	})
}
