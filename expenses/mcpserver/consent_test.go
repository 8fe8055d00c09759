package mcpserver

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

// tripFixture serves the edge on st with users alice, bob and dave, where dave is the friend
// of alice and of bob (add_friend both ways) and alice and bob are not friends, and returns a
// session of each and the service.
func tripFixture(t *testing.T, st *store.Store) (alice, bob, dave *mcp.ClientSession, svc *service.Service) {
	t.Helper()
	ctx := context.Background()
	svc = service.New(st, nil)
	f := &fixture{tokens: map[string]string{}}
	for _, n := range []string{"alice", "bob", "dave"} {
		if _, err := st.CreateUser(ctx, n); err != nil {
			t.Fatal(err)
		}
		var err error
		if f.tokens[n], err = svc.IssueToken(ctx, n, 0); err != nil {
			t.Fatal(err)
		}
	}
	befriend(t, svc, f.tokens, "dave", "alice")
	befriend(t, svc, f.tokens, "dave", "bob")
	f.base = serveEdge(t, svc, Options{})
	f.url = f.base + EndpointPath
	return f.session(t, "alice"), f.session(t, "bob"), f.session(t, "dave"), svc
}

// groupNamed returns the group of that name in a list_groups page, or false.
func groupNamed(p service.GroupPage, name string) (service.Group, bool) {
	for _, g := range p.Groups {
		if g.Name == name {
			return g, true
		}
	}
	return service.Group{}, false
}

// noDebts fails when who's get_balances shows any debt.
func noDebts(t *testing.T, cs *mcp.ClientSession, who string) {
	t.Helper()
	if b := call[service.Balances](t, cs, "get_balances", nil); len(b.Owed)+len(b.OwedToYou) != 0 {
		t.Fatalf("%s has debts nobody agreed to: %+v", who, b)
	}
}

// TestDebtsOnStrangers is issue 26's attack: dave befriends alice and bob and makes group Trip
// with both; alice, whose only friend is dave, makes group Scam with bob and puts 5000.00 EUR
// on him there and 700.00 EUR outside a group. Until bob accepts a group with alice in it, or
// befriends her, nothing alice does puts him in a debt, lists her group in his, or names him as
// registered to her.
func TestDebtsOnStrangers(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		alice, bob, dave, _ := tripFixture(t, st)
		trip := call[service.GroupDetails](t, dave, "create_group", map[string]any{"name": "Trip", "currency": "EUR",
			"members": []string{"alice", "bob"}})

		// create_group: bob is a stranger to alice, so "bob" is a placeholder of hers.
		scam := call[service.GroupDetails](t, alice, "create_group", map[string]any{"name": "Scam", "currency": "EUR",
			"members": []string{"bob"}})
		// add_expense in a group and outside one.
		call[service.Expense](t, alice, "add_expense", map[string]any{"title": "x", "amount": 5000, "group": "Scam",
			"splits": map[string]any{"bob": 5000}})
		call[service.Expense](t, alice, "add_expense", map[string]any{"title": "y", "amount": 700, "currency": "EUR",
			"splits": map[string]any{"bob": 700}})
		// add_payment: alice "pays" bob, her placeholder.
		if p := call[service.Payment](t, alice, "add_payment", map[string]any{"amount": 1, "currency": "EUR", "to": "bob"}); p.To != "bob" {
			t.Fatalf("add_payment: %+v", p)
		}
		// get_balances, list_groups, list_expenses: bob's view holds none of it.
		noDebts(t, bob, "bob")
		bobs := call[service.GroupPage](t, bob, "list_groups", nil)
		if _, ok := groupNamed(bobs, "Scam"); ok {
			t.Fatalf("bob's groups: %+v", bobs)
		}
		if p := call[service.ExpensePage](t, bob, "list_expenses", nil); len(p.Expenses) != 0 {
			t.Fatalf("bob lists alice's expenses: %+v", p)
		}
		if len(scam.Members) != 2 || scam.Members[1].Registered {
			t.Fatalf("create_group puts bob in alice's group: %+v", scam)
		}
		// dave's friends are invited to Trip, not put in it.
		if len(trip.Members) != 1 {
			t.Fatalf("create_group adds users who did not accept: %+v", trip)
		}
	})
}
