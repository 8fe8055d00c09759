package mcpserver

import (
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

// snapshot is everything the owners (Anna and Ben) see: lists, balances, each expense by
// id (deleted ones too), and the group.
type snapshot struct {
	lists    [2][]service.Expense
	balances [2]service.Balances
	byID     map[string]service.Expense
	group    service.GroupDetails
	groups   service.GroupPage
}

func takeSnapshot(t *testing.T, anna, ben *mcp.ClientSession, ids []string) snapshot {
	t.Helper()
	s := snapshot{byID: map[string]service.Expense{}}
	for i, cs := range []*mcp.ClientSession{anna, ben} {
		s.lists[i] = listAll(t, cs, 100, "")
		s.balances[i] = call[service.Balances](t, cs, "get_balances", nil)
	}
	for _, id := range ids {
		s.byID[id] = call[service.Expense](t, anna, "get_expense", map[string]any{"id": id})
	}
	s.group = call[service.GroupDetails](t, anna, "get_group", map[string]any{"name": "Trip"})
	s.groups = call[service.GroupPage](t, anna, "list_groups", nil)
	return s
}

// TestIsolation checks that Dora, who shares nothing with Anna and Ben, can neither read nor
// change their group or expenses through any tool that takes an id, a group or a person, and
// that nothing the owners see changes. The codes are the service's documented ones: an
// existing id of someone else's expense or group is FORBIDDEN, a missing id NOT_FOUND, the name
// of someone else's group NOT_FOUND (names are looked up among the caller's groups only), and a
// person the caller does not know INVALID_INPUT (an unknown name).
func TestIsolation(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		f := fixtureOn(t, st)
		anna, ben, dora := f.session(t, "Anna"), f.session(t, "Ben"), f.session(t, "Dora")
		g := call[service.GroupDetails](t, anna, "create_group", map[string]any{"name": "Trip", "currency": "EUR",
			"members": []string{"Ben", "Carl"}})
		call[service.GroupDetails](t, ben, "join_group", map[string]any{"group": "Trip"})
		live := call[service.Expense](t, anna, "add_expense", map[string]any{"title": "Dinner", "amount": 10, "group": "Trip"})
		private := call[service.Expense](t, ben, "add_expense", map[string]any{"title": "Taxi", "amount": 4, "currency": "EUR",
			"splits": map[string]any{"me": 1, "Anna": 3}})
		gone := call[service.Expense](t, anna, "add_expense", map[string]any{"title": "Museum", "amount": 6, "group": "Trip"})
		call[service.Expense](t, anna, "delete_expense", map[string]any{"id": gone.ID})
		call[service.Payment](t, anna, "add_payment", map[string]any{"amount": 2, "currency": "EUR", "from": "Ben", "to": "me"})
		ids := []string{live.ID, private.ID, gone.ID}

		before := takeSnapshot(t, anna, ben, ids)
		const missing = "00000000000000000000000000000000"
		check := func() {
			t.Helper()
			for _, id := range ids {
				wantError(t, dora, "get_expense", map[string]any{"id": id}, service.ReasonForbidden)
				wantError(t, dora, "delete_expense", map[string]any{"id": id}, service.ReasonForbidden)
				wantError(t, dora, "restore_expense", map[string]any{"id": id}, service.ReasonForbidden)
			}
			for _, tool := range []string{"get_expense", "delete_expense", "restore_expense"} {
				wantError(t, dora, tool, map[string]any{"id": missing}, service.ReasonNotFound)
			}
			wantError(t, dora, "get_group", map[string]any{"name": g.ID}, service.ReasonForbidden)
			wantError(t, dora, "list_expenses", map[string]any{"group": g.ID}, service.ReasonForbidden)
			wantError(t, dora, "add_expense", map[string]any{"title": "Sneaky", "amount": 9, "currency": "EUR", "group": g.ID}, service.ReasonForbidden)
			wantError(t, dora, "add_expense", map[string]any{"title": "Sneaky", "amount": 9, "currency": "EUR", "group": g.ID,
				"splits": map[string]any{"me": 9}}, service.ReasonForbidden)
			// People Dora does not know, named in payments and splits.
			for _, p := range []map[string]any{
				{"amount": 5, "currency": "EUR", "to": "Anna"},
				{"amount": 5, "currency": "EUR", "from": "Ben", "to": "me"},
				{"amount": 5, "currency": "EUR", "from": "Carl", "to": "me"},
				{"amount": 5, "currency": "EUR", "from": "Ben", "to": "Anna"},
			} {
				wantError(t, dora, "add_payment", p, service.ReasonInvalidInput)
			}
			wantError(t, dora, "add_expense", map[string]any{"title": "Sneaky", "amount": 9, "currency": "EUR",
				"splits": map[string]any{"me": 1, "Anna": 8}}, service.ReasonInvalidInput)
			wantError(t, dora, "add_expense", map[string]any{"title": "Sneaky", "amount": 9, "currency": "EUR", "paidBy": "Ben",
				"splits": map[string]any{"me": 9}}, service.ReasonInvalidInput)
			// Reads show nothing of theirs.
			if l := listAll(t, dora, 100, ""); len(l) != 0 {
				t.Fatalf("Dora lists %+v", l)
			}
			if b := call[service.Balances](t, dora, "get_balances", nil); len(b.Owed)+len(b.OwedToYou) != 0 {
				t.Fatalf("Dora's balances %+v", b)
			}
			if fr := call[service.Friends](t, dora, "list_friends", nil); len(fr.Friends) != 0 {
				t.Fatalf("Dora's friends %+v", fr)
			}
		}

		// Dora has no group called Trip: Anna's is NOT_FOUND by name.
		wantError(t, dora, "get_group", map[string]any{"name": "Trip"}, service.ReasonNotFound)
		wantError(t, dora, "list_expenses", map[string]any{"group": "Trip"}, service.ReasonNotFound)
		wantError(t, dora, "add_expense", map[string]any{"title": "Sneaky", "amount": 9, "currency": "EUR", "group": "Trip"}, service.ReasonNotFound)
		if gs := call[service.GroupPage](t, dora, "list_groups", nil); len(gs.Groups) != 0 {
			t.Fatalf("Dora's groups %+v", gs)
		}
		check()
		if after := takeSnapshot(t, anna, ben, ids); !reflect.DeepEqual(after, before) {
			t.Fatalf("the owners' view changed:\nbefore %+v\nafter  %+v", before, after)
		}

		// Dora's own Trip (a Carl of her own as member) is the one her names reach.
		mine := call[service.GroupDetails](t, dora, "create_group", map[string]any{"name": "Trip", "currency": "EUR", "members": []string{"Carl"}})
		if mine.ID == g.ID {
			t.Fatal("Dora's group is Anna's")
		}
		de := call[service.Expense](t, dora, "add_expense", map[string]any{"title": "Own", "amount": 9, "group": "Trip"})
		if de.Group == nil || de.Group.ID != mine.ID || !reflect.DeepEqual(shareMap(de), map[string]string{"me": "4.50", "Carl": "4.50"}) {
			t.Fatalf("Dora's expense %+v", de)
		}
		if l := listAll(t, dora, 100, "Trip"); len(l) != 1 || l[0].ID != de.ID {
			t.Fatalf("Dora's Trip lists %+v", l)
		}
		// Dora's Carl is not Anna's Carl: paying him is fine, but touches nothing of Anna's.
		call[service.Payment](t, dora, "add_payment", map[string]any{"amount": 1, "currency": "EUR", "from": "Carl", "to": "me"})
		// And the owners cannot see Dora's expense either.
		wantError(t, anna, "get_expense", map[string]any{"id": de.ID}, service.ReasonForbidden)
		wantError(t, ben, "delete_expense", map[string]any{"id": de.ID}, service.ReasonForbidden)
		wantError(t, anna, "get_group", map[string]any{"name": mine.ID}, service.ReasonForbidden)

		// Same checks now that Dora's names resolve (the expense in check's loop stays
		// forbidden), and the owners' view is still unchanged.
		wantError(t, dora, "get_group", map[string]any{"name": g.ID}, service.ReasonForbidden)
		for _, id := range ids {
			wantError(t, dora, "get_expense", map[string]any{"id": id}, service.ReasonForbidden)
			wantError(t, dora, "delete_expense", map[string]any{"id": id}, service.ReasonForbidden)
			wantError(t, dora, "restore_expense", map[string]any{"id": id}, service.ReasonForbidden)
		}
		wantError(t, dora, "add_payment", map[string]any{"amount": 5, "currency": "EUR", "from": "Ben", "to": "me"}, service.ReasonInvalidInput)
		if after := takeSnapshot(t, anna, ben, ids); !reflect.DeepEqual(after, before) {
			t.Fatalf("the owners' view changed:\nbefore %+v\nafter  %+v", before, after)
		}
	})
}
