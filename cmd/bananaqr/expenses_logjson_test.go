package main

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/logtest"
)

// TestExpensesLogAllJSON runs the built binary's expenses serve with --log-format json on
// SQLite and on PostgreSQL, sends it requests good and bad (tool calls with and without a
// token, an unknown tool, which the MCP SDK logs, a malformed body, a batch, an unknown path, the
// probes, the metrics, a request line net/http refuses), stops it, and checks that every line
// it wrote to stderr is a JSON object; and that a start that fails (PostgreSQL unreachable)
// says so in JSON too.
func TestExpensesLogAllJSON(t *testing.T) {
	bin := buildBinary(t)
	for _, engine := range []struct {
		name    string
		storage func(*testing.T) []string
	}{
		{"sqlite", func(t *testing.T) []string { return []string{"--db", storetest.SQLitePath(t)} }},
		{"postgres", func(t *testing.T) []string { return []string{"--database-url", storetest.PostgresURL(t)} }},
		{"unreachable", func(*testing.T) []string {
			return []string{"--database-url", "postgres://postgres@127.0.0.1:1/none?connect_timeout=1"}
		}},
	} {
		t.Run(engine.name, func(t *testing.T) {
			storage := engine.storage(t)
			var log logtest.Buffer
			cmd := exec.Command(bin, append([]string{"expenses", "serve", "--addr", "127.0.0.1:0", "--log-format", "json"}, storage...)...)
			cmd.Stderr = &log
			if engine.name == "unreachable" {
				if err := cmd.Run(); err == nil {
					t.Fatalf("started with PostgreSQL unreachable:\n%s", log.String())
				}
			} else {
				exerciseJSONLog(t, bin, cmd, storage, &log)
			}
			allJSON(t, log.String())
		})
	}
}

// exerciseJSONLog starts cmd, whose stderr is log, sends it requests good and bad, and stops it.
func exerciseJSONLog(t *testing.T, bin string, cmd *exec.Cmd, storage []string, log *logtest.Buffer) {
	if out, err := exec.Command(bin, append([]string{"expenses", "user", "add", "Anna"}, storage...)...).CombinedOutput(); err != nil {
		t.Fatalf("user add: %v %s", err, out)
	}
	token, err := exec.Command(bin, append([]string{"expenses", "token", "Anna"}, storage...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	log.WaitFor(t, `"msg":"listening"`)
	var s expensesServer
	for line := range strings.Lines(log.String()) {
		if s.addr = listening([]byte(line)); s.addr != "" {
			break
		}
	}
	s.token = strings.TrimSpace(string(token))
	s.call(t, toolCall("get_me", "{}"), true)
	s.call(t, toolCall("get_me", "{}"), false)
	s.call(t, toolCall("no_such_tool", "{}"), true)
	s.call(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":`, true)
	s.call(t, "["+toolCall("get_me", "{}")+"]", true)
	for _, path := range []string{"/no/such/path", "/healthz", "/readyz", "/metrics"} {
		getURL(t, "http://"+s.addr+path)
	}
	if c, err := net.Dial("tcp", s.addr); err == nil {
		c.Write([]byte("NOT HTTP AT ALL\r\n\r\n"))
		c.SetReadDeadline(time.Now().Add(time.Second))
		c.Read(make([]byte, 512))
		c.Close()
	}
	log.WaitFor(t, `"route":"/metrics"`)
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	if !strings.Contains(log.String(), `"msg":"shutting down"`) {
		t.Errorf("no shutdown line:\n%s", log.String())
	}
}

// allJSON checks that every line of log is a JSON object.
func allJSON(t *testing.T, log string) {
	t.Helper()
	if log == "" {
		t.Fatal("nothing was logged")
	}
	for line := range strings.Lines(log) {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Errorf("not JSON: %q", line)
		}
	}
	t.Logf("%d lines:\n%s", strings.Count(log, "\n"), log)
}
