package main

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/internal/logtest"
)

// TestServeLogAllJSON runs the built binary with --log-format json and a Redis that refuses
// connections: every line it writes to stderr is JSON, go-redis's own messages about the dials
// included (they came as "redis: 2026/11/26 … pool.go:770: …" lines of the standard log
// package).
func TestServeLogAllJSON(t *testing.T) {
	bin := buildBinary(t)
	var log logtest.Buffer
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--log-format", "json", "--redis-url", "redis://127.0.0.1:1")
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	log.WaitFor(t, `"msg":"listening"`)
	addr := ""
	for line := range strings.Lines(log.String()) {
		if addr = listening([]byte(line)); addr != "" {
			break
		}
	}
	for i := range 2 { // two requests a cooldown apart: each asks Redis, which refuses
		if i > 0 {
			time.Sleep(1100 * time.Millisecond)
		}
		res, err := http.Get("http://" + addr + "/api/qr-code.svg?text=x")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	log.WaitFor(t, `"component":"go-redis"`)
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	for line := range strings.Lines(log.String()) {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Errorf("not JSON: %q", line)
		}
	}
}
