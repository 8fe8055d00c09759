package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

// fixtureOn serves the edge over HTTP on a service on st, with users Anna, Ben and Dora
// and a token each.
func fixtureOn(t *testing.T, st *store.Store) *fixture {
	t.Helper()
	ctx := context.Background()
	svc := service.New(st, nil)
	f := &fixture{tokens: map[string]string{}}
	for _, n := range []string{"Anna", "Ben", "Dora"} {
		if _, err := st.CreateUser(ctx, n); err != nil {
			t.Fatal(err)
		}
		var err error
		if f.tokens[n], err = svc.IssueToken(ctx, n, 0); err != nil {
			t.Fatal(err)
		}
	}
	befriend(t, svc, f.tokens, "Anna", "Ben")
	f.base = serveEdge(t, svc, Options{})
	f.url = f.base + EndpointPath
	return f
}

func shareMap(e service.Expense) map[string]string {
	m := map[string]string{}
	for _, s := range e.Splits {
		m[s.Name] = s.Amount
	}
	return m
}

// listAll pages through list_expenses with limit (and group when not "") and fails on a
// duplicate id.
func listAll(t *testing.T, cs *mcp.ClientSession, limit int, group string) []service.Expense {
	t.Helper()
	var out []service.Expense
	seen := map[string]bool{}
	args := map[string]any{"limit": limit}
	if group != "" {
		args["group"] = group
	}
	for pages := 0; ; pages++ {
		if pages > 10000 {
			t.Fatal("list_expenses does not end")
		}
		page := call[service.ExpensePage](t, cs, "list_expenses", args)
		if len(page.Expenses) > limit || (page.NextCursor != "" && len(page.Expenses) == 0) {
			t.Fatalf("page of %d with limit %d, next %q", len(page.Expenses), limit, page.NextCursor)
		}
		for _, e := range page.Expenses {
			if seen[e.ID] {
				t.Fatalf("expense %s listed twice (limit %d)", e.ID, limit)
			}
			seen[e.ID] = true
			out = append(out, e)
		}
		if page.NextCursor == "" {
			return out
		}
		args["cursor"] = page.NextCursor
	}
}

func TestEnginesFlow(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		f := fixtureOn(t, st)
		anna, ben := f.session(t, "Anna"), f.session(t, "Ben")
		call[service.GroupDetails](t, anna, "create_group", map[string]any{"name": "Trip", "currency": "EUR",
			"type": "travel", "members": []string{"Ben", "Carl"}})
		call[service.GroupDetails](t, ben, "join_group", map[string]any{"group": "Trip"})

		type exp struct {
			args   map[string]any
			amount string
			shares map[string]string // as Anna sees them
		}
		var ids []string
		for _, x := range []exp{
			{map[string]any{"title": "Dinner", "amount": 10, "currency": "EUR", "group": "Trip"},
				"10.00", map[string]string{"me": "3.34", "Ben": "3.33", "Carl": "3.33"}},
			{map[string]any{"title": "Ramen", "amount": 100, "currency": "JPY", "group": "Trip"},
				"100", map[string]string{"me": "34", "Ben": "33", "Carl": "33"}},
			{map[string]any{"title": "Tea", "amount": json.Number("0.010"), "currency": "KWD", "group": "Trip"},
				"0.010", map[string]string{"me": "0.004", "Ben": "0.003", "Carl": "0.003"}},
			{map[string]any{"title": "Taxi", "amount": 7.5, "currency": "EUR", "splits": map[string]any{"me": 2.5, "Ben": 5}},
				"7.50", map[string]string{"me": "2.50", "Ben": "5.00"}},
			{map[string]any{"title": "Hotel", "amount": 1500, "currency": "JPY", "paidBy": "Ben",
				"splits": map[string]any{"me": 1000, "Ben": 500}},
				"1500", map[string]string{"me": "1000", "Ben": "500"}},
			{map[string]any{"title": "Souk", "amount": 1, "currency": "KWD", "group": "Trip",
				"splits": map[string]any{"me": json.Number("0.250"), "Ben": json.Number("0.750")}},
				"1.000", map[string]string{"me": "0.250", "Ben": "0.750"}},
		} {
			e := call[service.Expense](t, anna, "add_expense", x.args)
			if e.Amount != x.amount || e.Currency != x.args["currency"] || !reflect.DeepEqual(shareMap(e), x.shares) {
				t.Fatalf("add_expense %v: %+v", x.args, e)
			}
			ids = append(ids, e.ID)
			// Ben sees the same expense with the names swapped.
			be := call[service.Expense](t, ben, "get_expense", map[string]any{"id": e.ID})
			want := map[string]string{}
			for n, a := range x.shares {
				switch n {
				case "me":
					n = "Anna"
				case "Ben":
					n = "me"
				}
				want[n] = a
			}
			if be.Amount != x.amount || !reflect.DeepEqual(shareMap(be), want) {
				t.Fatalf("Ben's view of %s: %+v, want shares %v", x.args["title"], be, want)
			}
		}
		if p := call[service.Payment](t, anna, "add_payment", map[string]any{"amount": 2, "currency": "EUR", "from": "Ben", "to": "me"}); p.Amount != "2.00" {
			t.Fatalf("payment %+v", p)
		}

		// Ben owes Anna 3.33 + 5.00 - 2.00 EUR and 0.003 + 0.750 KWD; Anna owes Ben 1000 - 33 JPY.
		annaWant := service.Balances{
			Owed: []service.BalanceItem{{Name: "Ben", Amount: "967", Currency: "JPY"}},
			OwedToYou: []service.BalanceItem{
				{Name: "Ben", Amount: "6.33", Currency: "EUR"}, {Name: "Carl", Amount: "3.33", Currency: "EUR"},
				{Name: "Carl", Amount: "33", Currency: "JPY"},
				{Name: "Ben", Amount: "0.753", Currency: "KWD"}, {Name: "Carl", Amount: "0.003", Currency: "KWD"},
			},
		}
		benWant := service.Balances{
			Owed:      []service.BalanceItem{{Name: "Anna", Amount: "6.33", Currency: "EUR"}, {Name: "Anna", Amount: "0.753", Currency: "KWD"}},
			OwedToYou: []service.BalanceItem{{Name: "Anna", Amount: "967", Currency: "JPY"}},
		}
		balances := func() (service.Balances, service.Balances) {
			return call[service.Balances](t, anna, "get_balances", nil), call[service.Balances](t, ben, "get_balances", nil)
		}
		ab, bb := balances()
		if !reflect.DeepEqual(ab, annaWant) {
			t.Fatalf("Anna's balances %+v, want %+v", ab, annaWant)
		}
		if !reflect.DeepEqual(bb, benWant) {
			t.Fatalf("Ben's balances %+v, want %+v", bb, benWant)
		}
		mirror(t, ab, bb, "Anna", "Ben")

		// Pagination over 250 more expenses (Anna's alone: balances unchanged), with many
		// equal dates so that the order has ties.
		for i := range 250 {
			e := call[service.Expense](t, anna, "add_expense", map[string]any{"title": fmt.Sprintf("Coffee %d", i),
				"amount": 1 + i%7, "currency": "EUR", "splits": map[string]any{"me": 1 + i%7},
				"date": fmt.Sprintf("2026-03-%02d", 1+i%5)})
			ids = append(ids, e.ID)
		}
		for _, limit := range []int{20, 100} {
			got := listAll(t, anna, limit, "")
			if len(got) != len(ids) {
				t.Fatalf("limit %d: %d expenses listed, want %d", limit, len(got), len(ids))
			}
			listed := map[string]bool{}
			for _, e := range got {
				listed[e.ID] = true
			}
			for _, id := range ids {
				if !listed[id] {
					t.Fatalf("limit %d: expense %s missing", limit, id)
				}
			}
		}
		if got := listAll(t, ben, 20, ""); len(got) != 6 {
			t.Fatalf("Ben lists %d expenses, want 6", len(got))
		}
		if got := listAll(t, anna, 2, "Trip"); len(got) != 4 {
			t.Fatalf("Trip has %d expenses listed, want 4", len(got))
		}
		if a2, b2 := balances(); !reflect.DeepEqual(a2, ab) || !reflect.DeepEqual(b2, bb) {
			t.Fatalf("balances changed by Anna's own expenses: %+v %+v", a2, b2)
		}

		// Soft delete and restore.
		if d := call[service.Expense](t, anna, "delete_expense", map[string]any{"id": ids[0]}); !d.Deleted {
			t.Fatalf("deleted %+v", d)
		}
		ad, bd := balances()
		if reflect.DeepEqual(ad, ab) || len(listAll(t, anna, 100, "")) != len(ids)-1 {
			t.Fatalf("the delete changed nothing: %+v", ad)
		}
		mirror(t, ad, bd, "Anna", "Ben")
		if r := call[service.Expense](t, ben, "restore_expense", map[string]any{"id": ids[0]}); r.Deleted {
			t.Fatalf("restored %+v", r)
		}
		if a2, b2 := balances(); !reflect.DeepEqual(a2, ab) || !reflect.DeepEqual(b2, bb) {
			t.Fatalf("balances after delete and restore %+v %+v, want %+v %+v", a2, b2, ab, bb)
		}
		if got := listAll(t, anna, 100, ""); len(got) != len(ids) {
			t.Fatalf("%d expenses after the restore, want %d", len(got), len(ids))
		}
	})
}

// mirror checks that what a's view says between a and b is b's view turned around.
func mirror(t *testing.T, av, bv service.Balances, a, b string) {
	t.Helper()
	pick := func(items []service.BalanceItem, name string) []service.BalanceItem {
		var out []service.BalanceItem
		for _, it := range items {
			if it.Name == name {
				out = append(out, service.BalanceItem{Amount: it.Amount, Currency: it.Currency})
			}
		}
		return out
	}
	if !reflect.DeepEqual(pick(av.Owed, b), pick(bv.OwedToYou, a)) || !reflect.DeepEqual(pick(av.OwedToYou, b), pick(bv.Owed, a)) {
		t.Fatalf("%s's view %+v does not mirror %s's %+v", a, av, b, bv)
	}
}

// TestConcurrentWrites has 8 clients (4 as Anna, 4 as Ben) add expenses and payments in
// parallel on one server; afterwards list_expenses and get_balances show exactly the
// acknowledged writes.
func TestConcurrentWrites(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		f := fixtureOn(t, st)
		anna := f.session(t, "Anna")
		call[service.GroupDetails](t, anna, "create_group", map[string]any{"name": "Pair", "currency": "EUR", "members": []string{"Ben"}})
		call[service.GroupDetails](t, f.session(t, "Ben"), "join_group", map[string]any{"group": "Pair"})
		d := 10 * time.Second
		if testing.Short() {
			d = 3 * time.Second
		}
		type acked struct {
			expenses map[string]int64 // id: amount in cents
			net      int64            // cents Ben owes Anna
			payments int
			failures []string
		}
		var mu sync.Mutex
		total := acked{expenses: map[string]int64{}}
		deadline := time.Now().Add(d)
		var wg sync.WaitGroup
		for c := range 8 {
			user, other, sign := "Anna", "Ben", int64(1)
			if c%2 == 1 {
				user, other, sign = "Ben", "Anna", -1
			}
			cs := f.session(t, user)
			wg.Go(func() {
				for i := 0; time.Now().Before(deadline); i++ {
					mine, theirs := int64(1+(c*7+i)%500), int64(1+(c*13+i*3)%700)
					cents := func(n int64) json.Number { return json.Number(fmt.Sprintf("%d.%02d", n/100, n%100)) }
					var res *mcp.CallToolResult
					var err error
					if i%3 == 2 {
						res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "add_payment",
							Arguments: map[string]any{"amount": cents(theirs), "currency": "EUR", "to": other}})
					} else {
						res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "add_expense",
							Arguments: map[string]any{"title": fmt.Sprintf("c%d-%d", c, i), "amount": cents(mine + theirs),
								"currency": "EUR", "splits": map[string]any{"me": cents(mine), other: cents(theirs)}}})
					}
					mu.Lock()
					switch {
					case err != nil:
						total.failures = append(total.failures, err.Error())
					case res.IsError:
						total.failures = append(total.failures, res.Content[0].(*mcp.TextContent).Text)
					case i%3 == 2:
						total.payments++
						total.net += sign * theirs
					default:
						var e service.Expense
						b, _ := json.Marshal(res.StructuredContent)
						if err := json.Unmarshal(b, &e); err != nil || e.ID == "" {
							total.failures = append(total.failures, fmt.Sprintf("bad result %s", b))
						} else {
							total.expenses[e.ID] = mine + theirs
							total.net += sign * theirs
						}
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		t.Logf("acknowledged %d expenses and %d payments; %d failures", len(total.expenses), total.payments, len(total.failures))
		if len(total.failures) > 0 {
			// A failed write is not acknowledged, and must not show below either.
			t.Errorf("%d writes failed, first: %s", len(total.failures), total.failures[0])
		}
		if len(total.expenses) < 8 || total.payments < 8 {
			t.Fatalf("too few writes: %d expenses, %d payments", len(total.expenses), total.payments)
		}
		var wantSum int64
		for _, a := range total.expenses {
			wantSum += a
		}
		for _, u := range []string{"Anna", "Ben"} {
			listed := listAll(t, f.session(t, u), 100, "")
			var sum int64
			for _, e := range listed {
				want, ok := total.expenses[e.ID]
				if !ok {
					t.Fatalf("%s lists expense %s that was not acknowledged", u, e.ID)
				}
				got := cents(t, e.Amount)
				var shares int64
				for _, s := range e.Splits {
					shares += cents(t, s.Amount)
				}
				if got != want || shares != got || len(e.Splits) != 2 {
					t.Fatalf("expense %+v, want amount %d cents", e, want)
				}
				sum += got
			}
			if len(listed) != len(total.expenses) || sum != wantSum {
				t.Fatalf("%s lists %d expenses summing to %d cents, want %d summing to %d", u, len(listed), sum, len(total.expenses), wantSum)
			}
		}
		ab := call[service.Balances](t, anna, "get_balances", nil)
		bb := call[service.Balances](t, f.session(t, "Ben"), "get_balances", nil)
		item := func(name string, n int64) []service.BalanceItem {
			return []service.BalanceItem{{Name: name, Amount: fmt.Sprintf("%d.%02d", n/100, n%100), Currency: "EUR"}}
		}
		annaWant, benWant := service.Balances{Owed: []service.BalanceItem{}, OwedToYou: []service.BalanceItem{}}, service.Balances{Owed: []service.BalanceItem{}, OwedToYou: []service.BalanceItem{}}
		switch {
		case total.net > 0:
			annaWant.OwedToYou, benWant.Owed = item("Ben", total.net), item("Anna", total.net)
		case total.net < 0:
			annaWant.Owed, benWant.OwedToYou = item("Ben", -total.net), item("Anna", -total.net)
		}
		if !reflect.DeepEqual(ab, annaWant) || !reflect.DeepEqual(bb, benWant) {
			t.Fatalf("balances %+v and %+v, want %+v and %+v (net %d cents)", ab, bb, annaWant, benWant, total.net)
		}
	})
}

// cents parses an EUR amount string such as "12.34".
func cents(t *testing.T, s string) int64 {
	t.Helper()
	var whole, frac int64
	if _, err := fmt.Sscanf(s, "%d.%02d", &whole, &frac); err != nil || len(s) < 4 || s[len(s)-3] != '.' {
		t.Fatalf("amount %q: %v", s, err)
	}
	return whole*100 + frac
}
