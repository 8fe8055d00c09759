package httpapi

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// blackhole listens on a loopback port, accepts connections and never answers, as a host whose
// Redis hangs does; it returns its address.
func blackhole(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held []net.Conn // kept open, unanswered, until the listener closes
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return ln.Addr().String()
}

// readyz gets /readyz of ts, failing the test if no answer comes within a second (a watchdog,
// not a measure: the check's own deadline is TestReadyCheckDeadline's).
func readyz(t *testing.T, ts *testServer) (int, Readiness) {
	t.Helper()
	done := make(chan *result, 1)
	go func() { done <- ts.get(t, "/readyz") }()
	select {
	case r := <-done:
		var out Readiness
		if err := json.Unmarshal(r.body, &out); err != nil {
			t.Fatalf("/readyz: %v: %s", err, r.body)
		}
		return r.status, out
	case <-time.After(time.Second):
		t.Fatal("/readyz did not answer within a second")
	}
	return 0, Readiness{}
}

// backendGauge returns the line of bananaqr_rate_limiter_backend_up in ts's /metrics.
func backendGauge(t *testing.T, ts *testServer) string {
	t.Helper()
	for line := range strings.Lines(string(ts.get(t, "/metrics").body)) {
		if strings.HasPrefix(line, "bananaqr_rate_limiter_backend_up ") {
			return strings.TrimSpace(line)
		}
	}
	t.Fatal("/metrics lacks bananaqr_rate_limiter_backend_up")
	return ""
}

// TestReadyzBlackholedRedis: with a Redis limiter on a host that accepts and never answers,
// /readyz answers 200 (the limit fails open, the service stays ready), says the backend is down
// and the limit not enforced, and the metric says the backend is down.
func TestReadyzBlackholedRedis(t *testing.T) {
	ts := newTestServer(t, Config{Limiter: redisLimiter(t, "redis://"+blackhole(t)+"/0", 60)})
	if got := backendGauge(t, ts); got != "bananaqr_rate_limiter_backend_up 1" {
		t.Errorf("before any check: %s", got) // not asked yet: nothing known against it
	}
	status, ready := readyz(t, ts)
	if want := (Readiness{OK: true, RateLimit: "redis", Backend: "down"}); status != http.StatusOK || ready != want {
		t.Errorf("/readyz %d %+v, want 200 %+v", status, ready, want)
	}
	if got := backendGauge(t, ts); got != "bananaqr_rate_limiter_backend_up 0" {
		t.Errorf("after /readyz: %s", got)
	}
}

// hangingBackend is a limiter whose backend never answers: Ping waits for ctx to end, and
// keeps the deadline it was given.
type hangingBackend struct {
	ratelimit.Limiter
	left chan time.Duration // the time left before the deadline, when Ping was called
}

func (h *hangingBackend) Ping(ctx context.Context) error {
	d, ok := ctx.Deadline()
	if !ok {
		d = time.Now().Add(time.Hour)
	}
	h.left <- time.Until(d)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(2 * time.Second): // past the watchdog: a test that fails, not one that hangs
		return context.DeadlineExceeded
	}
}

func (h *hangingBackend) Up() bool { return false }

// TestReadyCheckDeadline: /readyz checks the backend under a deadline of at most 100 ms, and
// answers once it passes (backend down, 200) even though the backend never does.
func TestReadyCheckDeadline(t *testing.T) {
	h := &hangingBackend{Limiter: ratelimit.NewMemory(60, time.Minute, nil), left: make(chan time.Duration, 1)}
	ts := newTestServer(t, Config{Limiter: h})
	status, ready := readyz(t, ts)
	if left := <-h.left; left <= 0 || left > 100*time.Millisecond {
		t.Errorf("the backend check's deadline is %v away, want within 100 ms", left)
	}
	if status != http.StatusOK || ready.Backend != "down" || ready.RateLimitEnforced {
		t.Errorf("/readyz %d %+v", status, ready)
	}
}

// TestReadyzWithoutBackend: with the limit in memory or off there is no backend to fail; the
// limit is enforced only when there is one, and the gauge is 1.
func TestReadyzWithoutBackend(t *testing.T) {
	for _, c := range []struct {
		limiter ratelimit.Limiter
		want    Readiness
	}{
		{ratelimit.NewMemory(60, time.Minute, nil), Readiness{OK: true, RateLimit: "memory", Backend: "up", RateLimitEnforced: true}},
		{nil, Readiness{OK: true, RateLimit: "off", Backend: "up"}},
	} {
		ts := newTestServer(t, Config{Limiter: c.limiter})
		if status, ready := readyz(t, ts); status != http.StatusOK || ready != c.want {
			t.Errorf("/readyz %d %+v, want 200 %+v", status, ready, c.want)
		}
		if got := backendGauge(t, ts); got != "bananaqr_rate_limiter_backend_up 1" {
			t.Errorf("%s: %s", c.want.RateLimit, got)
		}
	}
}

// TestReadyzDraining: once the service drains (Drain, at SIGTERM with --shutdown-delay),
// /readyz answers 503 with ok false and draining true, while codes and /healthz are still
// answered.
func TestReadyzDraining(t *testing.T) {
	ts := newTestServer(t, Config{Limiter: ratelimit.NewMemory(60, time.Minute, nil)})
	if status, ready := readyz(t, ts); status != http.StatusOK || ready.Draining {
		t.Fatalf("before: %d %+v", status, ready)
	}
	ts.api.Drain()
	want := Readiness{OK: false, RateLimit: "memory", Backend: "up", RateLimitEnforced: true, Draining: true}
	if status, ready := readyz(t, ts); status != http.StatusServiceUnavailable || ready != want {
		t.Errorf("draining: %d %+v, want 503 %+v", status, ready, want)
	}
	for _, path := range []string{"/healthz", "/api/qr-code.svg?text=still"} {
		if r := ts.get(t, path); r.status != http.StatusOK {
			t.Errorf("%s while draining: %d", path, r.status)
		}
	}
}
