package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// startProcess starts the built binary as `serve` with args and returns its address, read
// from its first log line.
func startProcess(t *testing.T, bin string, args ...string) string {
	t.Helper()
	_, addr := startCommand(t, exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--log-format", "json"}, args...)...))
	return addr
}

// startCommand starts cmd, a `serve` with --log-format json, and returns it and its address,
// read from its first log line.
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
	for lines.Scan() {
		var entry struct{ Msg, Addr string }
		if json.Unmarshal(lines.Bytes(), &entry) == nil && entry.Msg == "listening" {
			go func() {
				for lines.Scan() { // keep draining the log
				}
			}()
			return cmd, entry.Addr
		}
	}
	t.Fatal("the server did not say where it listens")
	return nil, ""
}

// TestReplicaProcesses runs two bananaqr processes on one Redis (BANANAQR_TEST_REDIS_URL): a
// caller's 60 codes a minute hold across both, under 200 parallel requests too.
func TestReplicaProcesses(t *testing.T) {
	redisURL := os.Getenv("BANANAQR_TEST_REDIS_URL")
	if redisURL == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("BANANAQR_TEST_REDIS_URL is not set, and CI must run the Redis tests")
		}
		t.Skip("SKIPPED: set BANANAQR_TEST_REDIS_URL (e.g. redis://127.0.0.1:6379/0) to run the Redis tests")
	}
	bin := filepath.Join(t.TempDir(), "bananaqr")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	args := []string{"--redis-url", redisURL, "--trusted-proxies", "127.0.0.1"}
	replicas := []string{startProcess(t, bin, args...), startProcess(t, bin, args...)}
	get := func(replica int, caller string) int {
		req, _ := http.NewRequest(http.MethodGet, "http://"+replicas[replica]+"/api/qr-code.svg?text=x", nil)
		req.Header.Set("X-Forwarded-For", caller)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return 0
		}
		res.Body.Close()
		return res.StatusCode
	}
	n := time.Now().UnixNano()
	callerIP := func(i int64) string { return fmt.Sprintf("10.%d.%d.%d", (n+i)>>16&255, (n+i)>>8&255, (n+i)&255) }

	one := callerIP(0)
	for i := range 60 {
		if s := get(i%2, one); s != http.StatusOK {
			t.Fatalf("code %d: %d", i+1, s)
		}
	}
	for replica := range 2 {
		if s := get(replica, one); s != http.StatusTooManyRequests {
			t.Errorf("the 61st from replica %d: %d", replica, s)
		}
	}

	burst := callerIP(1 << 20)
	var ok atomic.Int64
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() {
			if get(i%2, burst) == http.StatusOK {
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 60 {
		t.Errorf("200 parallel requests across two replicas: %d served, want 60", ok.Load())
	}
}
