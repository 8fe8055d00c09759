package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

func runExpenses(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"expenses"}, args...), strings.NewReader(""), &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

func TestExpensesUsersAndTokens(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	for _, name := range []string{"Anna", "Ben"} {
		if out, errOut, code := runExpenses(t, "user", "add", name, "--db", db); code != 0 || !strings.Contains(out, name) {
			t.Fatalf("user add %s: %d %q %q", name, code, out, errOut)
		}
	}
	if _, _, code := runExpenses(t, "user", "add", "anna", "--db", db); code != 1 {
		t.Fatalf("duplicate user: exit %d", code)
	}
	out, _, code := runExpenses(t, "user", "list", "--db", db)
	if code != 0 || !strings.HasPrefix(out, "Anna\t") || !strings.Contains(out, "\nBen\t") {
		t.Fatalf("user list: %d %q", code, out)
	}
	tok, errOut, code := runExpenses(t, "token", "Anna", "--ttl", "1h", "--db", db)
	if code != 0 || len(strings.TrimSpace(tok)) != 43 || !strings.Contains(errOut, "shown once") {
		t.Fatalf("token: %d %q %q", code, tok, errOut)
	}
	if _, _, code := runExpenses(t, "token", "Nobody", "--db", db); code != 1 {
		t.Fatalf("token for unknown user: exit %d", code)
	}
	if _, _, code := runExpenses(t, "user", "add", "--db", db); code != 2 {
		t.Fatalf("user add without name: exit %d", code)
	}
	for _, bad := range []string{"Ca\x00rl", strings.Repeat("x", 101)} {
		if _, errOut, code := runExpenses(t, "user", "add", bad, "--db", db); code != 2 || !strings.Contains(errOut, "name") {
			t.Fatalf("user add %.20q: exit %d %q", bad, code, errOut)
		}
	}
	if _, _, code := runExpenses(t, "frobnicate"); code != 2 {
		t.Fatalf("unknown command: exit %d", code)
	}
}

func TestExpensesStorageFlags(t *testing.T) {
	for _, args := range [][]string{
		{"user", "list", "--db", "postgres://postgres@127.0.0.1/test"},
		{"user", "list", "--database-url", filepath.Join(t.TempDir(), "e.db")},
	} {
		if _, errOut, code := runExpenses(t, args...); code != 1 || !strings.Contains(errOut, "--database-url") {
			t.Errorf("%q: exit %d, %q; want 1 and a pointer to --database-url", args, code, errOut)
		}
	}
}

func TestExpensesPostgres(t *testing.T) {
	url := storetest.PostgresURL(t)
	if _, errOut, code := runExpenses(t, "user", "add", "Anna", "--database-url", url); code != 0 {
		t.Fatalf("user add: %d %q", code, errOut)
	}
	t.Setenv("BANANAQR_EXPENSES_DATABASE_URL", url)
	t.Setenv("BANANAQR_EXPENSES_DB", filepath.Join(t.TempDir(), "unused.db"))
	if out, errOut, code := runExpenses(t, "user", "list"); code != 0 || !strings.HasPrefix(out, "Anna\t") {
		t.Fatalf("user list from the environment's PostgreSQL: %d %q %q", code, out, errOut)
	}
}

func TestExpensesServe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan int, 1)
	var stderr bytes.Buffer
	getenv := func(k string) string {
		return map[string]string{"BANANAQR_EXPENSES_DB": db, "BANANAQR_EXPENSES_ADDR": "127.0.0.1:0"}[k]
	}
	go func() { done <- expensesServe(ctx, nil, getenv, &stderr, func(a net.Addr) { addrs <- a }) }()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case code := <-done:
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	req, _ := http.NewRequest("POST", "http://"+addr.String()+"/mcp",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(body.String(), `"add_expense"`) {
		t.Fatalf("tools/list: %d %s", resp.StatusCode, body.String())
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d", code)
	}
}
