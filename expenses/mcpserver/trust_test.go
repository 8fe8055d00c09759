package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

// TestTrust checks the trust model tool by tool: Dora, whom Anna and Ben (friends) never
// accepted, cannot put them in a group, put debts on them, see their records, or learn
// whether their names are registered; add_friend asked both ways makes friends.
func TestTrust(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st)
		if _, err := st.CreateUser(context.Background(), "Carol"); err != nil {
			t.Fatal(err)
		}
		anna, ben, dora := f.session(t, "Anna"), f.session(t, "Ben"), f.session(t, "Dora")

		// create_group: registered names become Dora's placeholders, like unknown ones.
		g := call[service.GroupDetails](t, dora, "create_group", map[string]any{"name": "Scam", "currency": "EUR",
			"members": []string{"Anna", "Ben", "Zed"}})
		for _, m := range g.Members[1:] {
			if m.Registered {
				t.Fatalf("create_group reveals or adds a user: %+v", g.Members)
			}
		}
		// add_expense in Dora's group, naming them: only placeholders owe.
		e := call[service.Expense](t, dora, "add_expense", map[string]any{"title": "x", "amount": 100, "group": "Scam",
			"paidBy": "Anna", "splits": map[string]any{"Ben": 100}})
		for _, cs := range []*mcpClient{{anna, "Anna"}, {ben, "Ben"}} {
			if b := call[service.Balances](t, cs.s, "get_balances", nil); len(b.Owed)+len(b.OwedToYou) != 0 {
				t.Fatalf("%s owes or is owed after Dora's expense: %+v", cs.name, b)
			}
			if gs := call[service.GroupPage](t, cs.s, "list_groups", nil); len(gs.Groups) != 0 {
				t.Fatalf("%s is in Dora's group: %+v", cs.name, gs)
			}
			if p := call[service.ExpensePage](t, cs.s, "list_expenses", nil); len(p.Expenses) != 0 {
				t.Fatalf("%s lists Dora's expense", cs.name)
			}
			wantError(t, cs.s, "get_expense", map[string]any{"id": e.ID}, service.ReasonForbidden)
			wantError(t, cs.s, "delete_expense", map[string]any{"id": e.ID}, service.ReasonForbidden)
			wantError(t, cs.s, "restore_expense", map[string]any{"id": e.ID}, service.ReasonForbidden)
			wantError(t, cs.s, "get_group", map[string]any{"name": g.ID}, service.ReasonForbidden)
		}
		// add_payment to someone Dora does not know: the same answer for a user and a stranger.
		msgUser := wantError(t, dora, "add_payment", map[string]any{"amount": 1, "currency": "EUR", "to": "Carol"}, service.ReasonInvalidInput)
		msgNone := wantError(t, dora, "add_payment", map[string]any{"amount": 1, "currency": "EUR", "to": "Nobody"}, service.ReasonInvalidInput)
		if strings.ReplaceAll(msgNone, "Nobody", "Carol") != msgUser {
			t.Fatalf("add_payment tells users from strangers:\n%s\n%s", msgUser, msgNone)
		}
		// add_expense outside a group: a debt between two others is refused, even with a zero share of mine.
		call[service.GroupDetails](t, anna, "create_group", map[string]any{"name": "Home", "currency": "EUR", "members": []string{"Ben", "Carl"}})
		wantError(t, anna, "add_expense", map[string]any{"title": "x", "amount": 5, "currency": "EUR", "paidBy": "Ben",
			"splits": map[string]any{"me": 0, "Carl": 5}}, service.ReasonForbidden)
		wantError(t, anna, "add_payment", map[string]any{"amount": 1, "currency": "EUR", "from": "Ben", "to": "Carl"}, service.ReasonForbidden)

		// add_friend: the same answer for a user and a stranger, until the user asks back.
		for _, n := range []string{"Anna", "Nobody"} {
			if s := call[service.FriendStatus](t, dora, "add_friend", map[string]any{"name": n}); s.Status != "requested" {
				t.Fatalf("add_friend %s: %+v", n, s)
			}
		}
		for _, fr := range call[service.Friends](t, anna, "list_friends", nil).Friends {
			if fr.Name == "Dora" {
				t.Fatalf("Dora is Anna's friend before Anna asks")
			}
		}
		if s := call[service.FriendStatus](t, anna, "add_friend", map[string]any{"name": "dora"}); s.Status != "friends" {
			t.Fatalf("Anna accepts Dora: %+v", s)
		}
		for _, c := range []struct {
			s    *mcpClient
			want string
		}{{&mcpClient{anna, "Anna"}, "Dora"}, {&mcpClient{dora, "Dora"}, "Anna (account)"}} {
			found := false
			for _, fr := range call[service.Friends](t, c.s.s, "list_friends", nil).Friends {
				found = found || (fr.Name == c.want && fr.Registered)
			}
			if !found {
				t.Fatalf("%s is not %s's registered friend", c.want, c.s.name)
			}
		}
		p := call[service.Payment](t, dora, "add_payment", map[string]any{"amount": 1, "currency": "EUR", "to": "Anna (account)"})
		if b := call[service.Balances](t, anna, "get_balances", nil); len(b.Owed) != 1 || b.Owed[0].Name != "Dora" || p.To != "Anna (account)" {
			t.Fatalf("a payment between friends: %+v", b)
		}
	})
}

// mcpClient is a session with its user's name, for messages.
type mcpClient struct {
	s    *mcp.ClientSession
	name string
}
