package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

// names returns n distinct names of length at least width, starting with prefix.
func names(prefix string, n, width int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%0*d", prefix, max(width-len(prefix), 1), i)
	}
	return out
}

// TestGroupBounds is issue 26's create_group of 88,000 members: members a call and a group,
// friends (placeholders) a user, and the names an error lists are bounded, with
// INVALID_INPUT that says the bound, and published in the input schemas.
func TestGroupBounds(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st)
		anna := f.session(t, "Anna")
		// Members a call: 49 others (50 with the creator) pass, 50 do not, nor 2,000.
		start := time.Now()
		g := call[service.GroupDetails](t, anna, "create_group", map[string]any{"name": "Big", "currency": "EUR",
			"members": names("Member ", 49, 100)})
		took := time.Since(start)
		if len(g.Members) != 50 {
			t.Fatalf("a group of 50: %d members", len(g.Members))
		}
		b, _ := json.Marshal(g)
		if len(b) > 16<<10 {
			t.Fatalf("get_group's answer for the largest group is %d bytes", len(b))
		}
		t.Logf("create_group of 49 new people with 100-character names: %v; the group is %d bytes of JSON", took, len(b))
		for _, n := range []int{50, 2000} {
			msg := wantError(t, anna, "create_group", map[string]any{"name": fmt.Sprint("Huge ", n), "currency": "EUR",
				"members": names("Huge ", n, 8)}, service.ReasonInvalidInput)
			if len(msg) > 1000 {
				t.Fatalf("the refusal of %d members is %d bytes long", n, len(msg))
			}
		}
		// splits: at most 50 people.
		splits := map[string]any{}
		for i, n := range names("Member ", 49, 100) {
			splits[n] = 1 + i%2
		}
		splits["me"], splits["Extra"] = 1, 1
		wantError(t, anna, "add_expense", map[string]any{"title": "x", "amount": 76, "group": "Big", "splits": splits},
			service.ReasonInvalidInput)
		// Friends a user: Anna has Ben and 49 placeholders; 9 more groups of 49 new people make
		// 491, and 10 more people would pass 500.
		for i := range 9 {
			call[service.GroupDetails](t, anna, "create_group", map[string]any{"name": fmt.Sprint("G", i), "currency": "EUR",
				"members": names(fmt.Sprintf("P%d ", i), 49, 8)})
		}
		msg := wantError(t, anna, "create_group", map[string]any{"name": "Last", "currency": "EUR",
			"members": names("Q ", 10, 8)}, service.ReasonInvalidInput)
		if !strings.Contains(msg, "500") {
			t.Fatalf("the friends bound is not said: %s", msg)
		}
		fr := call[service.Friends](t, anna, "list_friends", nil)
		if len(fr.Friends) != 491 {
			t.Fatalf("Anna has %d friends, want 491", len(fr.Friends))
		}
		b, _ = json.Marshal(fr)
		t.Logf("list_friends of 491 friends: %d bytes of JSON", len(b))
		// An unknown name lists ten of the 492 people Anna knows and says how many more.
		msg = wantError(t, anna, "add_payment", map[string]any{"amount": 1, "currency": "EUR", "to": "Nobody"},
			service.ReasonInvalidInput)
		if !strings.Contains(msg, "and 482 more") || len(msg) > 1000 {
			t.Fatalf("the unknown name's message (%d bytes): %s", len(msg), msg)
		}
	})
}

// TestBoundsInSchemas: the bounds on inputs are published as maxItems and maxProperties.
func TestBoundsInSchemas(t *testing.T) {
	f := newFixture(t, storetest.Open(t, storetest.SQLitePath(t)))
	res, err := f.session(t, "").ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"create_group": `"maxItems":49`, "add_expense": `"maxProperties":50`}
	for _, tool := range res.Tools {
		if w, ok := want[tool.Name]; ok {
			b, _ := json.Marshal(tool.InputSchema)
			if !strings.Contains(string(b), w) {
				t.Errorf("%s's input schema lacks %s: %s", tool.Name, w, b)
			}
			delete(want, tool.Name)
		}
	}
	if len(want) != 0 {
		t.Errorf("tools not listed: %v", want)
	}
}

// TestErrorSize: an error about an oversized input never echoes the input.
func TestErrorSize(t *testing.T) {
	f := newFixture(t, storetest.Open(t, storetest.SQLitePath(t)))
	anna := f.session(t, "Anna")
	huge := strings.Repeat("x", 30_000) // three of them fit in a body (MaxRequestBody)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"add_expense", map[string]any{"title": huge, "amount": 1, "currency": "EUR", "splits": map[string]any{"me": 1}}},
		{"add_expense", map[string]any{"title": "x", "amount": 1, "currency": "EUR", "splits": map[string]any{huge: 1}}},
		{"create_group", map[string]any{"name": "G", "currency": "EUR", "members": names(huge, 3, 0)}},
		{"get_group", map[string]any{"name": huge}},
		{"add_payment", map[string]any{"amount": 1, "currency": "EUR", "to": huge}},
	} {
		if msg := wantError(t, anna, c.tool, c.args, service.ReasonInvalidInput); len(msg) > 1000 {
			t.Errorf("%s: the error is %d bytes long", c.tool, len(msg))
		}
	}
}
