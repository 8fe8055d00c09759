package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"slices"
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

// TestExpensesWriteLimit: --write-limit and BANANAQR_EXPENSES_WRITE_LIMIT set the writes a
// user may make a minute; the write past the limit is RATE_LIMITED with retryAfter.
func TestExpensesWriteLimit(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	if _, errOut, code := runExpenses(t, "user", "add", "Anna", "--db", db); code != 0 {
		t.Fatal(errOut)
	}
	token, _, _ := runExpenses(t, "token", "Anna", "--db", db)
	for _, c := range []struct {
		env  string
		args []string
	}{{"-1", nil}, {"many", nil}, {"", []string{"--write-limit", "-1"}}} {
		getenv := func(k string) string {
			return map[string]string{"BANANAQR_EXPENSES_DB": db, "BANANAQR_EXPENSES_WRITE_LIMIT": c.env}[k]
		}
		var stderr bytes.Buffer
		if code := expensesServe(context.Background(), c.args, getenv, &stderr, nil); code != 2 || !strings.Contains(stderr.String(), "limit") {
			t.Errorf("env %q args %q: exit %d %s", c.env, c.args, code, stderr.String())
		}
	}
	for _, c := range []struct {
		env  string
		args []string
	}{{"2", nil}, {"50", []string{"--write-limit", "2"}}} {
		ctx, cancel := context.WithCancel(context.Background())
		addrs := make(chan net.Addr, 1)
		done := make(chan int, 1)
		getenv := func(k string) string {
			return map[string]string{"BANANAQR_EXPENSES_DB": db, "BANANAQR_EXPENSES_ADDR": "127.0.0.1:0",
				"BANANAQR_EXPENSES_WRITE_LIMIT": c.env}[k]
		}
		var stderr bytes.Buffer
		go func() { done <- expensesServe(ctx, c.args, getenv, &stderr, func(a net.Addr) { addrs <- a }) }()
		addr := <-addrs
		var last string
		for i := range 3 {
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_group","arguments":{"name":"G` +
				c.env + `-` + string(rune('a'+i)) + `","currency":"EUR"}}}`
			req, _ := http.NewRequest("POST", "http://"+addr.String()+"/mcp", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
			req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(token))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			b.ReadFrom(resp.Body)
			resp.Body.Close()
			last = b.String()
			if i < 2 && strings.Contains(last, "isError") {
				t.Fatalf("write %d: %s", i, last)
			}
		}
		if !strings.Contains(last, `RATE_LIMITED`) || !strings.Contains(last, `retryAfter`) {
			t.Errorf("env %q args %q: third write %s", c.env, c.args, last)
		}
		cancel()
		<-done
	}
}

// startExpensesServe runs expensesServe with args and env on a free loopback port until the
// test ends, and returns its address and its log.
func startExpensesServe(t *testing.T, args []string, env map[string]string) (string, *bytes.Buffer) {
	t.Helper()
	env["BANANAQR_EXPENSES_ADDR"] = "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan int, 1)
	var stderr bytes.Buffer // written by the server until done, read after
	go func() {
		done <- expensesServe(ctx, args, func(k string) string { return env[k] }, &stderr, func(a net.Addr) { addrs <- a })
	}()
	select {
	case addr := <-addrs:
		t.Cleanup(func() {
			cancel()
			if code := <-done; code != 0 {
				t.Errorf("exit %d", code)
			}
		})
		return addr.String(), &stderr
	case code := <-done:
		cancel()
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	return "", nil
}

// TestExpensesServeAuth: a tool call without a token is 401 with a challenge naming the
// protected resource metadata, whose resource is the endpoint's public URL: by default
// http://<listening address>/mcp, else under --base-url (or its environment variable); the
// metadata names --docs-url as resource_documentation. A base URL that is not an origin is a
// usage error.
func TestExpensesServeAuth(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	for _, c := range []struct {
		args               []string
		env                map[string]string
		wantBase, wantDocs string // "" for the defaults
	}{
		{nil, map[string]string{}, "", ""},
		{[]string{"--oauth=false"}, map[string]string{}, "", ""},
		{[]string{"--base-url", "https://expenses.example.com", "--docs-url", "https://docs.example.com/tokens"}, map[string]string{},
			"https://expenses.example.com", "https://docs.example.com/tokens"},
		{nil, map[string]string{"BANANAQR_EXPENSES_BASE_URL": "https://e.example.org:8443/"}, "https://e.example.org:8443", ""},
		{nil, map[string]string{"BANANAQR_EXPENSES_DOCS_URL": "https://docs.example.org/"}, "", "https://docs.example.org/"},
	} {
		c.env["BANANAQR_EXPENSES_DB"] = db
		addr, _ := startExpensesServe(t, c.args, c.env)
		base := c.wantBase
		if base == "" {
			base = "http://" + addr // the listener's, 127.0.0.1
		}
		docs := c.wantDocs
		if docs == "" {
			docs = base + "/"
		}
		req, _ := http.NewRequest("POST", "http://"+addr+"/mcp",
			strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_me","arguments":{}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		metadataURL := base + "/.well-known/oauth-protected-resource/mcp"
		withOAuth := !slices.Contains(c.args, "--oauth=false")
		want := `Bearer resource_metadata="` + metadataURL + `"`
		if withOAuth {
			want += `, scope="expenses:read expenses:write"`
		}
		if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
			t.Errorf("%v %v: %d %q, want 401 %q", c.args, c.env, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
		}
		resp, err = http.Get("http://" + addr + strings.TrimPrefix(metadataURL, base))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Resource              string   `json:"resource"`
			ResourceDocumentation string   `json:"resource_documentation"`
			AuthorizationServers  []string `json:"authorization_servers"`
		}
		json.NewDecoder(resp.Body).Decode(&doc)
		resp.Body.Close()
		if doc.Resource != base+"/mcp" || doc.ResourceDocumentation != docs {
			t.Errorf("%v %v: metadata %+v, want resource %s/mcp and documentation %s", c.args, c.env, doc, base, docs)
		}
		if wantAS := map[bool]int{true: 1, false: 0}[withOAuth]; len(doc.AuthorizationServers) != wantAS ||
			wantAS == 1 && doc.AuthorizationServers[0] != base {
			t.Errorf("%v %v: authorization_servers %v, want %d naming %s", c.args, c.env, doc.AuthorizationServers, wantAS, base)
		}
	}
	for _, bad := range [][]string{{"--base-url", "https://expenses.example.com/app"}, {"--base-url", "expenses.example.com"},
		{"--docs-url", "docs"}} {
		var stderr bytes.Buffer
		getenv := func(k string) string { return map[string]string{"BANANAQR_EXPENSES_DB": db}[k] }
		if code := expensesServe(context.Background(), bad, getenv, &stderr, nil); code != 2 || !strings.Contains(stderr.String(), bad[1]) {
			t.Errorf("%q: exit %d %s", bad, code, stderr.String())
		}
	}
}

// TestExpensesServeOAuthFlags: the authorization server's flags are checked before anything
// starts (exit 2, naming what is wrong).
func TestExpensesServeOAuthFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--registration", "sometimes"}, "--registration"},
		{[]string{"--access-token-ttl", "0s"}, "--access-token-ttl"},
		{[]string{"--refresh-token-ttl", "-1h"}, "--refresh-token-ttl"},
		{[]string{"--oidc-issuer", "https://id.example"}, "--oidc-client-id"},
		{[]string{"--oidc-issuer", "https://id.example", "--oidc-client-id", "x"}, "--oidc-client-secret"},
	} {
		var stderr bytes.Buffer
		getenv := func(k string) string { return map[string]string{"BANANAQR_EXPENSES_DB": db}[k] }
		if code := expensesServe(context.Background(), c.args, getenv, &stderr, nil); code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: exit %d %s", c.args, code, stderr.String())
		}
	}
}

// TestLocalBaseURL: without --base-url the origin is the listener's, localhost for every
// interface.
func TestLocalBaseURL(t *testing.T) {
	for addr, want := range map[string]string{"0.0.0.0:8090": "http://localhost:8090", "[::]:8090": "http://localhost:8090",
		"127.0.0.1:8090": "http://127.0.0.1:8090", "[::1]:8090": "http://[::1]:8090", ":8090": "http://localhost:8090"} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := localBaseURL(a); got != want {
			t.Errorf("%s: %s, want %s", addr, got, want)
		}
	}
}
