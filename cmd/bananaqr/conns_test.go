package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestExpensesIdleConnections: as in issue 26, one client (127.0.0.1) opens more idle
// keep-alive connections to bananaqr expenses serve than its open-file limit of 256 allows.
// Another client (127.0.0.2) is still served at once, and the first keeps no more connections
// than a quarter of --max-conns' default (64 under that limit). Before the expenses server
// had the connection bounds of serve, 243 such connections made the next client time out
// (accept4: too many open files).
func TestExpensesIdleConnections(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 300 connections")
	}
	dir := t.TempDir()
	bin := buildBinary(t)
	_, addr := startCommand(t, exec.Command("sh", "-c", `ulimit -n 256 && exec "$0" "$@"`, bin,
		"expenses", "serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "e.db")))

	conns := flood(t, addr, 300, "/") // answered, then idle on keep-alive
	kept := served(conns, 50*time.Millisecond)

	probe := &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{DisableKeepAlives: true,
		DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}).DialContext}}
	for i := range 3 {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp",
			strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		start := time.Now()
		res, err := probe.Do(req)
		if err != nil {
			t.Fatalf("probe %d from 127.0.0.2, with %d idle connections from 127.0.0.1: %v", i, kept, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(`"tools"`)) {
			t.Fatalf("probe %d: %d %.200s", i, res.StatusCode, body)
		}
		t.Logf("probe %d answered in %v; %d of %d flood connections kept", i, time.Since(start), kept, len(conns))
	}
	if kept > 16 {
		t.Errorf("%d of the flood's connections were served, more than a quarter of --max-conns (64)", kept)
	}
}

// TestConnFlags: serve and expenses serve take the same connection flags with the same
// defaults, expenses serve's from BANANAQR_EXPENSES_* (the command line winning), serve's from
// BANANAQR_*; --max-conns-per-client defaults to 256 but at most a quarter of --max-conns,
// and a value given is kept.
func TestConnFlags(t *testing.T) {
	expensesFlags := func(args []string, env map[string]string) connConfig {
		t.Helper()
		f, err := newExpensesServeFlags(func(k string) string { return env[k] }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if code, stop := f.parseArgs(args, io.Discard); stop {
			t.Fatalf("%v %v: exit %d", args, env, code)
		}
		return f.connConfig
	}
	serveFlags := func(args []string, env map[string]string) connConfig {
		t.Helper()
		c, err := parseServe(args, func(k string) string { return env[k] }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.settle(); err != nil {
			t.Fatal(err)
		}
		return c.connConfig
	}
	for _, parse := range []struct {
		name   string
		flags  func([]string, map[string]string) connConfig
		envVar func(string) string
	}{{"serve", serveFlags, envName}, {"expenses serve", expensesFlags, expensesEnvName}} {
		got := parse.flags(nil, map[string]string{})
		want := connConfig{maxConns: defaultMaxConns(), maxConnsPerClient: min(256, defaultMaxConns()/4), ipv6Prefix: 64,
			readHeaderTimeout: 5 * time.Second, idleTimeout: 30 * time.Second}
		if got != want {
			t.Errorf("%s defaults: %+v, want %+v", parse.name, got, want)
		}
		env := map[string]string{parse.envVar("max-conns"): "100", parse.envVar("ipv6-prefix"): "56",
			parse.envVar("idle-timeout"): "7s", parse.envVar("read-header-timeout"): "2s"}
		got = parse.flags([]string{"--read-header-timeout", "3s"}, env)
		want = connConfig{maxConns: 100, maxConnsPerClient: 25, ipv6Prefix: 56, readHeaderTimeout: 3 * time.Second, idleTimeout: 7 * time.Second}
		if got != want {
			t.Errorf("%s with %v: %+v, want %+v", parse.name, env, got, want)
		}
		env[parse.envVar("max-conns-per-client")] = "60"
		if got := parse.flags(nil, env); got.maxConnsPerClient != 60 || !got.perClientGiven {
			t.Errorf("%s: %s=60 gives %d", parse.name, parse.envVar("max-conns-per-client"), got.maxConnsPerClient)
		}
		if got := parse.flags([]string{"--max-conns-per-client", "0"}, env); got.maxConnsPerClient != 0 {
			t.Errorf("%s: --max-conns-per-client 0 gives %d", parse.name, got.maxConnsPerClient)
		}
	}
}

// TestConnFlagsRefused: a connection flag's variable that is not a value of its flag, and a
// bound out of range, stop expenses serve with exit 2 before it listens.
func TestConnFlagsRefused(t *testing.T) {
	if _, err := newExpensesServeFlags(func(k string) string {
		return map[string]string{"BANANAQR_EXPENSES_MAX_CONNS": "many"}[k]
	}, io.Discard); err == nil || !strings.Contains(err.Error(), "BANANAQR_EXPENSES_MAX_CONNS") {
		t.Errorf("a bad BANANAQR_EXPENSES_MAX_CONNS: %v", err)
	}
	for _, args := range [][]string{{"--max-conns", "-1"}, {"--ipv6-prefix", "129"}} {
		f, err := newExpensesServeFlags(func(string) string { return "" }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if code, stop := f.parseArgs(args, io.Discard); !stop || code != 2 {
			t.Errorf("expenses serve %v: exit %d", args, code)
		}
	}
}

// TestConnFlagsHelp: both --help texts, and the expenses usage, list the connection flags with
// their variables.
func TestConnFlagsHelp(t *testing.T) {
	var serveHelp, expensesHelp bytes.Buffer
	run([]string{"serve", "--help"}, nil, io.Discard, &serveHelp)
	run([]string{"expenses", "serve", "--help"}, nil, io.Discard, &expensesHelp)
	for _, name := range connFlagNames {
		if !strings.Contains(serveHelp.String(), "--"+name+" ") || !strings.Contains(serveHelp.String(), envName(name)) {
			t.Errorf("serve --help lacks --%s or %s", name, envName(name))
		}
		if !strings.Contains(expensesHelp.String(), "-"+name+" ") || !strings.Contains(expensesHelp.String(), expensesEnvName(name)) {
			t.Errorf("expenses serve --help lacks -%s or %s:\n%s", name, expensesEnvName(name), expensesHelp.String())
		}
	}
	for _, name := range connFlagNames {
		if !strings.Contains(expensesUsage, "--"+name) || !strings.Contains(expensesUsage, expensesEnvName(name)) {
			t.Errorf("the expenses usage lacks --%s or %s", name, expensesEnvName(name))
		}
	}
}
