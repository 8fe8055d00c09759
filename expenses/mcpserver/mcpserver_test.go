package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/mcptest"
)

type fixture struct {
	base, url string // the server's base URL and its MCP endpoint
	tokens    map[string]string
}

// serveEdge serves the edge's Handler on svc over HTTP with opts, its BaseURL set to the
// server's own, logging to the test's output unless opts has a logger, and returns the base URL.
func serveEdge(t *testing.T, svc *service.Service, opts Options) string {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	opts.BaseURL = "http://" + ts.Listener.Addr().String()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(t.Output(), nil))
	}
	h, err := Handler(svc, opts)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = h
	ts.Start()
	t.Cleanup(ts.Close)
	return opts.BaseURL
}

// newFixture serves the edge over HTTP on a service on st, with users Anna, Ben and Dora and
// a token each.
func newFixture(t *testing.T, st *store.Store) *fixture {
	t.Helper()
	ctx := context.Background()
	svc := service.New(st, nil)
	f := &fixture{tokens: map[string]string{}}
	var err error
	for _, n := range []string{"Anna", "Ben", "Dora"} {
		if _, err := st.CreateUser(ctx, n); err != nil {
			t.Fatal(err)
		}
		if f.tokens[n], err = svc.IssueToken(ctx, n, 0); err != nil {
			t.Fatal(err)
		}
	}
	befriend(t, svc, f.tokens, "Anna", "Ben")
	// Pseudo-users for the auth tests: a token that expires at once and one never issued.
	if f.tokens["expired"], err = svc.IssueToken(ctx, "Anna", time.Nanosecond); err != nil {
		t.Fatal(err)
	}
	f.tokens["unknown"], _ = service.NewToken()
	f.base = serveEdge(t, svc, Options{})
	f.url = f.base + EndpointPath
	return f
}

// befriend makes users a and b friends as users do: add_friend one way, then the other.
func befriend(t *testing.T, svc *service.Service, tokens map[string]string, a, b string) {
	t.Helper()
	ctx := context.Background()
	for i, pair := range [][2]string{{a, b}, {b, a}} {
		c, err := svc.Authenticate(ctx, tokens[pair[0]])
		if err != nil {
			t.Fatal(err)
		}
		st, err := svc.AddFriend(ctx, c, service.AddFriendInput{Name: pair[1]})
		if want := []string{"requested", "friends"}[i]; err != nil || st.Status != want {
			t.Fatalf("%s add_friend %s: %+v %v, want %s", pair[0], pair[1], st, err, want)
		}
	}
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// session connects the SDK's client as user (no token when user is "").
func (f *fixture) session(t *testing.T, user string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "expenses-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: f.url,
		HTTPClient: &http.Client{Transport: bearer{f.tokens[user]}}, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls tool and decodes its successful result into T.
func call[T any](t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) T {
	t.Helper()
	res := mcptest.CallTool(t, cs, tool, args)
	if res.IsError {
		t.Fatalf("%s %v: tool error %s", tool, args, res.Content[0].(*mcp.TextContent).Text)
	}
	var out T
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v in %s", tool, err, b)
	}
	if len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text == "" {
		t.Fatalf("%s: content %+v", tool, res.Content)
	}
	return out
}

// wantError checks that tool answers a tool error {error, code} with code, and returns its
// message.
func wantError(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, code string) string {
	t.Helper()
	res := mcptest.CallTool(t, cs, tool, args)
	if !res.IsError || len(res.Content) != 1 || res.StructuredContent != nil {
		t.Fatalf("%s %v: not a tool error: %+v", tool, args, res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var body map[string]string
	if err := json.Unmarshal([]byte(text), &body); err != nil || len(body) != 2 || body["error"] == "" {
		t.Fatalf("%s: error body %s: %v", tool, text, err)
	}
	if body["code"] != code {
		t.Fatalf("%s %v: %s, want code %s", tool, args, text, code)
	}
	return body["error"]
}

// wantUnauthorized checks that calling tool is refused with the 401's JSON-RPC error, whose
// data is the tool error {error, code: UNAUTHORIZED}, as the SDK's client reports it.
func wantUnauthorized(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != JSONRPCUnauthorized {
		t.Fatalf("%s %v: %v, want the JSON-RPC error %d", tool, args, err, JSONRPCUnauthorized)
	}
	var data service.Error
	if err := json.Unmarshal(rpcErr.Data, &data); err != nil || data.Reason != service.ReasonUnauthorized {
		t.Fatalf("%s: error data %s: %v", tool, rpcErr.Data, err)
	}
}

// undescribed returns the paths of the properties of a JSON schema, at any depth, that have no
// description: the records a tool returns are documented field by field.
func undescribed(schema any, path string) []string {
	s, _ := schema.(map[string]any)
	var out []string
	if props, ok := s["properties"].(map[string]any); ok {
		for name, p := range props {
			if d, _ := p.(map[string]any)["description"].(string); d == "" {
				out = append(out, path+name)
			}
			out = append(out, undescribed(p, path+name+".")...)
		}
	}
	if items, ok := s["items"]; ok {
		out = append(out, undescribed(items, path+"[].")...)
	}
	return out
}

func TestToolList(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st)
		cs := f.session(t, "") // tools/list needs no token
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		tools := map[string]*mcp.Tool{}
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			tools[tool.Name] = tool
			if tool.Description == "" || tool.Annotations == nil || tool.OutputSchema == nil {
				t.Errorf("%s: description, annotations or output schema missing", tool.Name)
				continue
			}
			var schema any
			b, _ := json.Marshal(tool.OutputSchema)
			if err := json.Unmarshal(b, &schema); err != nil {
				t.Fatalf("unmarshal: %v", err)
			}
			for _, p := range undescribed(schema, "") {
				t.Errorf("%s: output property %s has no description", tool.Name, p)
			}
		}
		want := slices.Clone(ToolNames)
		slices.Sort(want)
		slices.Sort(names)
		if !reflect.DeepEqual(names, want) || len(names) != 14 {
			t.Fatalf("tools %v, want %v", names, want)
		}
		props := func(tool string) map[string]any {
			b, _ := json.Marshal(tools[tool].InputSchema)
			var s struct {
				Properties map[string]map[string]any `json:"properties"`
			}
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatalf("unmarshal: %v", err)
			}
			out := map[string]any{}
			for k, v := range s.Properties {
				out[k] = v["type"]
			}
			return out
		}
		for tool, want := range map[string]map[string]any{
			"add_expense": {"title": "string", "amount": "number", "currency": "string", "paidBy": "string",
				"group": "string", "splits": "object", "date": "string", "recurring": "boolean"},
			"list_expenses": {"limit": "integer", "cursor": "string", "group": "string", "recurring": "boolean"},
			"add_payment": {"amount": "number", "currency": "string", "from": "string", "to": "string",
				"date": "string", "description": "string"},
			"get_group":    {"name": "string"},
			"get_balances": {},
		} {
			if got := props(tool); !reflect.DeepEqual(got, want) {
				t.Errorf("%s properties %v, want %v", tool, got, want)
			}
		}
		b, _ := json.Marshal(tools["add_expense"].InputSchema)
		if !strings.Contains(string(b), `"additionalProperties":{"type":"number"}`) {
			t.Errorf("add_expense splits values are not numbers: %s", b)
		}
		if a := tools["get_balances"].Annotations; !a.ReadOnlyHint || !a.IdempotentHint {
			t.Errorf("get_balances annotations %+v", a)
		}
		if a := tools["delete_expense"].Annotations; a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
			t.Errorf("delete_expense annotations %+v", a)
		}
		// tools/call needs one (auth_test.go has the rest).
		wantUnauthorized(t, cs, "get_me", nil)
		wantUnauthorized(t, cs, "add_expense", map[string]any{"amount": "abc"})
	})
}

func TestFlow(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st)
		anna, ben, dora := f.session(t, "Anna"), f.session(t, "Ben"), f.session(t, "Dora")

		if me := call[service.Me](t, anna, "get_me", nil); me.Name != "Anna" {
			t.Fatalf("get_me %+v", me)
		}
		g := call[service.GroupDetails](t, anna, "create_group", map[string]any{"name": "Trip", "currency": "EUR",
			"type": "travel", "members": []string{"Ben", "Carl"}})
		if len(g.Members) != 2 || len(g.Invited) != 1 {
			t.Fatalf("group %+v", g)
		}
		if g = call[service.GroupDetails](t, ben, "join_group", map[string]any{"group": g.ID}); len(g.Members) != 3 {
			t.Fatalf("group %+v", g)
		}
		e := call[service.Expense](t, anna, "add_expense", map[string]any{"title": "Dinner", "amount": 10, "currency": "EUR", "group": "Trip"})
		shares := map[string]string{}
		for _, s := range e.Splits {
			shares[s.Name] = s.Amount
		}
		if e.Amount != "10.00" || !reflect.DeepEqual(shares, map[string]string{"me": "3.34", "Ben": "3.33", "Carl": "3.33"}) {
			t.Fatalf("expense %+v", e)
		}
		p := call[service.Payment](t, anna, "add_payment", map[string]any{"amount": 2, "currency": "EUR", "from": "Ben", "to": "me"})
		if p.Amount != "2.00" || p.From != "Ben" || p.To != "me" {
			t.Fatalf("payment %+v", p)
		}
		ab := call[service.Balances](t, anna, "get_balances", nil)
		if !reflect.DeepEqual(ab.OwedToYou, []service.BalanceItem{{Name: "Ben", Amount: "1.33", Currency: "EUR"}, {Name: "Carl", Amount: "3.33", Currency: "EUR"}}) || len(ab.Owed) != 0 {
			t.Fatalf("Anna's balances %+v", ab)
		}
		bb := call[service.Balances](t, ben, "get_balances", nil)
		if !reflect.DeepEqual(bb.Owed, []service.BalanceItem{{Name: "Anna", Amount: "1.33", Currency: "EUR"}}) || len(bb.OwedToYou) != 0 {
			t.Fatalf("Ben's balances %+v", bb)
		}
		if got := call[service.Expense](t, ben, "get_expense", map[string]any{"id": e.ID}); got.ID != e.ID || got.PaidBy != "Anna" {
			t.Fatalf("Ben's view %+v", got)
		}

		// Pagination.
		for _, title := range []string{"Taxi", "Museum"} {
			call[service.Expense](t, anna, "add_expense", map[string]any{"title": title, "amount": 3.5, "currency": "EUR",
				"splits": map[string]any{"me": 1.5, "Ben": 2}})
		}
		page := call[service.ExpensePage](t, anna, "list_expenses", map[string]any{"limit": 2})
		if len(page.Expenses) != 2 || page.NextCursor == "" {
			t.Fatalf("first page %+v", page)
		}
		page2 := call[service.ExpensePage](t, anna, "list_expenses", map[string]any{"limit": 2, "cursor": page.NextCursor})
		if len(page2.Expenses) != 1 || page2.NextCursor != "" || page2.Expenses[0].ID == page.Expenses[0].ID {
			t.Fatalf("second page %+v", page2)
		}
		if inGroup := call[service.ExpensePage](t, anna, "list_expenses", map[string]any{"group": "Trip"}); len(inGroup.Expenses) != 1 {
			t.Fatalf("group filter %+v", inGroup)
		}

		// Delete and restore.
		if d := call[service.Expense](t, anna, "delete_expense", map[string]any{"id": e.ID}); !d.Deleted {
			t.Fatalf("deleted %+v", d)
		}
		if l := call[service.ExpensePage](t, anna, "list_expenses", nil); len(l.Expenses) != 2 {
			t.Fatalf("after delete %+v", l)
		}
		wantError(t, anna, "delete_expense", map[string]any{"id": e.ID}, service.ReasonInvalidInput)
		if r := call[service.Expense](t, ben, "restore_expense", map[string]any{"id": e.ID}); r.Deleted {
			t.Fatalf("restored %+v", r)
		}
		if l := call[service.ExpensePage](t, anna, "list_expenses", nil); len(l.Expenses) != 3 {
			t.Fatalf("after restore %+v", l)
		}

		// Errors.
		wantError(t, dora, "get_expense", map[string]any{"id": e.ID}, service.ReasonForbidden)
		wantError(t, dora, "delete_expense", map[string]any{"id": e.ID}, service.ReasonForbidden)
		wantError(t, anna, "get_expense", map[string]any{"id": "00000000000000000000000000000000"}, service.ReasonNotFound)
		wantError(t, dora, "get_group", map[string]any{"name": "Trip"}, service.ReasonNotFound)
		wantError(t, anna, "add_expense", map[string]any{"title": "X", "amount": 1.234, "currency": "EUR", "group": "Trip"}, service.ReasonInvalidInput)
		wantError(t, anna, "add_expense", map[string]any{"title": "X", "amount": -5, "currency": "EUR", "group": "Trip"}, service.ReasonInvalidInput)
		wantError(t, anna, "add_expense", map[string]any{"title": "X", "amount": "ten", "currency": "EUR", "group": "Trip"}, service.ReasonInvalidInput)
		wantError(t, anna, "add_expense", map[string]any{"amount": 5}, service.ReasonInvalidInput)
		wantError(t, anna, "add_payment", map[string]any{"amount": 1, "currency": "EUR", "from": "Ben", "to": "Carl"}, service.ReasonForbidden)
		// Outside a group, the caller pays or shares: no debt between two others.
		wantError(t, anna, "add_expense", map[string]any{"title": "X", "amount": 2, "currency": "EUR", "paidBy": "Ben",
			"splits": map[string]any{"Carl": 2}}, service.ReasonForbidden)
		if cb := call[service.Balances](t, ben, "get_balances", nil); len(cb.OwedToYou) != 0 {
			t.Errorf("Ben is owed after a refused expense: %+v", cb)
		}
		wantUnauthorized(t, f.session(t, ""), "get_balances", nil)
		if msg := wantError(t, anna, "add_expense", map[string]any{"title": "X", "amount": 2, "currency": "EUR",
			"splits": map[string]any{"me": 1, "Zed": 1}}, service.ReasonInvalidInput); !strings.Contains(msg, "Zed") || !strings.Contains(msg, "Ben") {
			t.Errorf("unknown person: %q does not name it and the candidates", msg)
		}
		wantError(t, anna, "list_expenses", map[string]any{"cursor": "not-a-cursor"}, service.ReasonInvalidInput)
		wantError(t, anna, "list_expenses", map[string]any{"limit": 0}, service.ReasonInvalidInput)
		if l := call[service.ExpensePage](t, anna, "list_expenses", map[string]any{"limit": 1000}); len(l.Expenses) != 3 {
			t.Errorf("a limit over 100 is cut to 100: %d expenses", len(l.Expenses))
		}
		wantError(t, anna, "create_group", map[string]any{"name": "Trip", "currency": "EUR"}, service.ReasonInvalidInput)
		wantError(t, anna, "create_group", map[string]any{"name": "Moon", "currency": "XYZ"}, service.ReasonInvalidInput)

		// Groups and friends.
		call[service.GroupDetails](t, anna, "create_group", map[string]any{"name": "Flat", "currency": "JPY", "members": []string{"Ben"}})
		gp := call[service.GroupPage](t, anna, "list_groups", map[string]any{"limit": 1})
		if len(gp.Groups) != 1 || gp.NextCursor == "" {
			t.Fatalf("list_groups first page %+v", gp)
		}
		gp2 := call[service.GroupPage](t, anna, "list_groups", map[string]any{"limit": 1, "cursor": gp.NextCursor})
		if len(gp2.Groups) != 1 || gp2.NextCursor != "" || gp2.Groups[0].ID == gp.Groups[0].ID {
			t.Fatalf("list_groups second page %+v", gp2)
		}
		if dg := call[service.GroupPage](t, dora, "list_groups", nil); len(dg.Groups) != 0 {
			t.Errorf("Dora sees groups %+v", dg)
		}
		trip := call[service.GroupDetails](t, ben, "get_group", map[string]any{"name": g.ID})
		if trip.Name != "Trip" || trip.CreatedBy != "Anna" || trip.DefaultSplit != "equal" || !reflect.DeepEqual(trip.Members, []service.Member{
			{Name: "Anna", Registered: true, Weight: 1}, {Name: "Carl", Registered: false, Weight: 1}, {Name: "me", Registered: true, Weight: 1}}) {
			t.Errorf("Ben's get_group %+v", trip)
		}
		fr := call[service.Friends](t, anna, "list_friends", nil)
		if !reflect.DeepEqual(fr.Friends, []service.Friend{{Name: "Ben", Registered: true}, {Name: "Carl", Registered: false}}) {
			t.Errorf("Anna's friends %+v", fr)
		}
	})
}
