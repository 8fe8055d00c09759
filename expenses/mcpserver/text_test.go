package mcpserver

import (
	"encoding/base64"
	"regexp"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

// TestControlCharacters sends NUL (which PostgreSQL cannot store) and other control
// characters in every text parameter of every tool: each is INVALID_INPUT on both engines,
// and nothing is written.
func TestControlCharacters(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st)
		anna := f.session(t, "Anna")
		call[service.GroupDetails](t, anna, "create_group", map[string]any{"name": "Trip", "currency": "EUR", "members": []string{"Ben"}})
		call[service.GroupDetails](t, f.session(t, "Ben"), "join_group", map[string]any{"group": "Trip"})
		e := call[service.Expense](t, anna, "add_expense", map[string]any{"title": "Tea", "amount": 2, "group": "Trip"})
		cursor := func(key string) string { return base64.RawURLEncoding.EncodeToString([]byte(key)) }
		expense := func(k, v string) map[string]any {
			a := map[string]any{"title": "Tea", "amount": 2, "currency": "EUR", "group": "Trip", "paidBy": "me", "date": "2026-01-02"}
			a[k] = v
			return a
		}
		payment := func(k, v string) map[string]any {
			a := map[string]any{"amount": 2, "currency": "EUR", "from": "me", "to": "Ben", "date": "2026-01-02", "description": "x"}
			a[k] = v
			return a
		}
		group := func(k string, v any) map[string]any {
			a := map[string]any{"name": "Home", "currency": "EUR", "type": "home", "members": []string{"Ben"}}
			a[k] = v
			return a
		}
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"add_expense", expense("title", "Te\x00a")},
			{"add_expense", expense("title", "Tea\nand cake")},
			{"add_expense", expense("currency", "EU\x00")},
			{"add_expense", expense("paidBy", "Ben\x00")},
			{"add_expense", expense("group", "Trip\x00")},
			{"add_expense", expense("date", "2026-01-0\x00")},
			{"add_expense", map[string]any{"title": "Tea", "amount": 2, "currency": "EUR", "splits": map[string]any{"me": 1, "Ben\x00": 1}}},
			{"add_payment", payment("currency", "\x00EU")},
			{"add_payment", payment("from", "me\x00")},
			{"add_payment", payment("to", "Ben\x00")},
			{"add_payment", payment("date", "\x002026-01-0")},
			{"add_payment", payment("description", "rent\x00")},
			{"create_group", group("name", "Ho\x00me")},
			{"create_group", group("currency", "EU\x00")},
			{"create_group", group("type", "ho\x00me")},
			{"create_group", group("members", []string{"Carl\x00"})},
			{"get_group", map[string]any{"name": "Trip\x00"}},
			{"join_group", map[string]any{"group": "Trip\x00"}},
			{"list_groups", map[string]any{"cursor": "abc\x00"}},
			{"list_groups", map[string]any{"cursor": cursor(`["trip\u0000","x"]`)}},
			{"list_expenses", map[string]any{"group": "Trip\x00"}},
			{"list_expenses", map[string]any{"cursor": "abc\x00"}},
			{"list_expenses", map[string]any{"cursor": cursor(`["2026-01-02\u0000",1,"x"]`)}},
			{"get_expense", map[string]any{"id": e.ID + "\x00"}},
			{"delete_expense", map[string]any{"id": "\x00" + e.ID}},
			{"restore_expense", map[string]any{"id": e.ID + "\x00"}},
		} {
			wantError(t, anna, c.tool, c.args, service.ReasonInvalidInput)
		}
		if n := len(listAll(t, anna, 100, "")); n != 1 {
			t.Fatalf("%d expenses after refused writes, want 1", n)
		}
		if gs := call[service.GroupPage](t, anna, "list_groups", nil); len(gs.Groups) != 1 {
			t.Fatalf("groups after refused writes: %+v", gs)
		}
	})
}

// hexID matches an internal id.
var hexID = regexp.MustCompile(`[0-9a-f]{32}`)

// TestLimits refuses text beyond the documented limits, dates outside the documented range,
// and names people in messages as the caller knows them.
func TestLimits(t *testing.T) {
	f := newFixture(t, storetest.Open(t, storetest.SQLitePath(t)))
	anna := f.session(t, "Anna")
	call[service.GroupDetails](t, anna, "create_group", map[string]any{"name": "Trip", "currency": "EUR", "members": []string{"Ben"}})
	call[service.GroupDetails](t, f.session(t, "Ben"), "join_group", map[string]any{"group": "Trip"})
	long := func(n int) string { return strings.Repeat("x", n) }
	wantError(t, anna, "add_expense", map[string]any{"title": long(100_000), "amount": 2, "group": "Trip"}, service.ReasonInvalidInput)
	wantError(t, anna, "add_expense", map[string]any{"title": long(service.MaxTitleLength + 1), "amount": 2, "group": "Trip"}, service.ReasonInvalidInput)
	call[service.Expense](t, anna, "add_expense", map[string]any{"title": long(service.MaxTitleLength), "amount": 2, "group": "Trip"})
	wantError(t, anna, "create_group", map[string]any{"name": long(100_000), "currency": "EUR"}, service.ReasonInvalidInput)
	wantError(t, anna, "create_group", map[string]any{"name": "Home", "currency": "EUR", "members": []string{long(service.MaxNameLength + 1)}}, service.ReasonInvalidInput)
	wantError(t, anna, "add_payment", map[string]any{"amount": 1, "currency": "EUR", "to": "Ben", "description": long(service.MaxDescriptionLength + 1)}, service.ReasonInvalidInput)
	for _, d := range []string{"0000-01-01", "1969-12-31", "9999-12-31"} {
		msg := wantError(t, anna, "add_expense", map[string]any{"title": "Tea", "amount": 2, "group": "Trip", "date": d}, service.ReasonInvalidInput)
		if !strings.Contains(msg, service.MinDate) {
			t.Errorf("date %s: %s", d, msg)
		}
		wantError(t, anna, "add_payment", map[string]any{"amount": 1, "currency": "EUR", "to": "Ben", "date": d}, service.ReasonInvalidInput)
	}
	call[service.Expense](t, anna, "add_expense", map[string]any{"title": "Tea", "amount": 2, "group": "Trip", "date": service.MinDate})
	if n := len(listAll(t, anna, 100, "")); n != 2 {
		t.Fatalf("%d expenses, want 2", n)
	}
	msg := wantError(t, anna, "add_expense", map[string]any{"title": "Tea", "amount": 10, "currency": "EUR",
		"splits": map[string]any{"me": 15, "ben": -5}}, service.ReasonInvalidInput)
	if !strings.Contains(msg, "ben") || hexID.MatchString(msg) {
		t.Errorf("negative share: %s", msg)
	}
}
