package main

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// startCommand starts cmd, a bananaqr server (serve or expenses serve, logging JSON or text),
// until the test ends, and returns it with the address its "listening" log line names. The
// rest of its log is drained, so that the server never blocks on it.
func startCommand(t *testing.T, cmd *exec.Cmd) (*exec.Cmd, string) {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	var log []string
	for lines.Scan() {
		log = append(log, lines.Text())
		if addr := listening(lines.Bytes()); addr != "" {
			go func() {
				for lines.Scan() { // keep draining the log
				}
			}()
			return cmd, addr
		}
	}
	t.Fatalf("the server did not say where it listens: %s", strings.Join(log, "\n"))
	return nil, ""
}

// listeningText is the "listening" line of a text log.
var listeningText = regexp.MustCompile(`msg=listening addr=(\S+)`)

// listening returns the address a "listening" log line names, in JSON
// ({"msg":"listening","addr":…}) or text (msg=listening addr=…), or "" for another line.
func listening(line []byte) string {
	var entry struct{ Msg, Addr string }
	if json.Unmarshal(line, &entry) == nil && entry.Msg == "listening" {
		return entry.Addr
	}
	if m := listeningText.FindSubmatch(line); m != nil {
		return string(m[1])
	}
	return ""
}

// TestListening reads the address from both log formats, and nothing from other lines.
func TestListening(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"time":"2026-11-26T18:00:00Z","level":"INFO","msg":"listening","addr":"127.0.0.1:8080"}`, "127.0.0.1:8080"},
		{`time=2026-11-26T18:00:00Z level=INFO msg=listening addr=127.0.0.1:9090`, "127.0.0.1:9090"},
		{`{"msg":"request","addr":"127.0.0.1:8080"}`, ""},
		{`time=2026-11-26T18:00:00Z level=INFO msg="shutting down"`, ""},
	} {
		if got := listening([]byte(c.line)); got != c.want {
			t.Errorf("%s: %q, want %q", c.line, got, c.want)
		}
	}
}

// buildBinary builds bananaqr into a folder of t's and returns its path, for the tests that run
// the binary itself (signals, rlimits, every line it writes).
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bananaqr")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
