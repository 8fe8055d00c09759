package main

import (
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/internal/testenv"
)

// startProcess starts the built binary as `serve` with args and returns its address, read
// from its first log line.
func startProcess(t *testing.T, bin string, args ...string) string {
	t.Helper()
	_, addr := startCommand(t, exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--log-format", "json"}, args...)...))
	return addr
}

// TestReplicaProcesses runs two bananaqr processes on one Redis (BANANAQR_TEST_REDIS_URL): a
// caller's 60 codes a minute hold across both, under 200 parallel requests too.
func TestReplicaProcesses(t *testing.T) {
	redisURL := testenv.RedisURL(t)
	bin := buildBinary(t)
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

	// GCRA gives a caller one code back a second, and a replica whose Redis call times out lets
	// the request through (fail open, counted in its metrics): on a loaded machine both can
	// happen during the test, and are allowed for, so that what it checks is the sharing.
	start := time.Now()
	extra := func() int64 { return int64(time.Since(start)/time.Second) + limiterFailures(t, replicas) }

	one := callerIP(0)
	for i := range 60 {
		if s := get(i%2, one); s != http.StatusOK {
			t.Fatalf("code %d: %d", i+1, s)
		}
	}
	refused := 0
	for replica := range 2 {
		if get(replica, one) == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused < 2-int(extra()) {
		t.Errorf("the 61st and 62nd, one from each replica: %d refused, want 2 (%d refills and fail-opens)", refused, extra())
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
	start = time.Now()
	failed := limiterFailures(t, replicas)
	wg.Wait()
	if n, more := ok.Load(), extra()-failed; n < 60 || n > 60+more {
		t.Errorf("200 parallel requests across two replicas: %d served, want 60 (up to %d more for refills and fail-opens)", n, more)
	}
}

// limiterFailures returns how many requests the replicas let through because Redis failed, from
// their metrics.
func limiterFailures(t *testing.T, replicas []string) int64 {
	t.Helper()
	var total int64
	for _, addr := range replicas {
		res, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		for line := range strings.Lines(string(b)) {
			if v, ok := strings.CutPrefix(line, "bananaqr_rate_limiter_backend_errors_total "); ok {
				n, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
				total += int64(n)
			}
		}
	}
	return total
}
