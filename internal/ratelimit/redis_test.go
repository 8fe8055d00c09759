package ratelimit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/internal/testenv"
)

// testRedisURL returns the Redis the tests may use (BANANAQR_TEST_REDIS_URL, which .ci/run
// sets), or skips the test; in CI (CI set) a missing Redis fails it.
func testRedisURL(t *testing.T) string {
	t.Helper()
	return testenv.RedisURL(t)
}

// uniqueCaller returns a caller name no earlier run has used.
func uniqueCaller(name string) string {
	return fmt.Sprintf("test-%s-%d", name, time.Now().UnixNano())
}

func TestRedisBudget(t *testing.T) {
	r, err := NewRedis(testRedisURL(t), 60, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	caller := uniqueCaller("budget")
	for i := range 60 {
		d, err := r.Allow(context.Background(), caller)
		if err != nil || !d.Allowed || d.Limit != 60 || d.Remaining != 59-i {
			t.Fatalf("request %d: %+v, %v", i+1, d, err)
		}
	}
	if d, err := r.Allow(context.Background(), caller); err != nil || d.Allowed || d.Remaining != 0 {
		t.Fatalf("61st: %+v, %v", d, err)
	}
	if d, _ := r.Allow(context.Background(), caller+"-other"); !d.Allowed {
		t.Fatal("another caller refused")
	}
}

// TestRedisCancelledCaller: a caller that hangs up mid-request is no fault of Redis, so it
// does not lift the limit for others.
func TestRedisCancelledCaller(t *testing.T) {
	r, err := NewRedis(testRedisURL(t), 1, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	caller := uniqueCaller("cancelled")
	if d, err := r.Allow(context.Background(), caller); err != nil || !d.Allowed {
		t.Fatalf("first: %+v, %v", d, err)
	}
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Allow(gone, uniqueCaller("gone")); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled request: %v", err)
	}
	if d, err := r.Allow(context.Background(), caller); err != nil || d.Allowed || !r.up.Load() {
		t.Fatalf("after another caller hung up: %+v, %v, up %v; want refused by Redis", d, err, r.up.Load())
	}
}

// TestRedisConcurrent lets 16 goroutines on two limiters (two replicas) spend one budget with
// 192 requests: exactly 60 get through.
func TestRedisConcurrent(t *testing.T) {
	url := testRedisURL(t)
	caller := uniqueCaller("concurrent")
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for replica := range 2 {
		r, err := NewRedis(url, 60, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		// 8 workers a replica, 100 requests in all: within the connection pool, so that no
		// request gives up waiting for a connection (100 ms, then fail open) on a loaded machine.
		for range 8 {
			wg.Go(func() {
				for range 100 / 8 {
					d, err := r.Allow(context.Background(), caller)
					if err != nil {
						t.Errorf("replica %d: %v", replica, err)
					}
					if d.Allowed {
						allowed.Add(1)
					}
				}
			})
		}
	}
	wg.Wait()
	if n := allowed.Load(); n != 60 {
		t.Fatalf("%d of 192 allowed, want 60", n)
	}
}

// TestRedisFailOpen points the limiter at a port where no Redis listens: requests are let
// through with ErrBackend, and the fault is logged once however many requests come.
func TestRedisFailOpen(t *testing.T) {
	var log bytes.Buffer
	r, err := NewRedis("redis://127.0.0.1:1/0", 60, slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for range 100 {
		d, err := r.Allow(context.Background(), "anyone")
		var be *ErrBackend
		if !d.Allowed || !errors.As(err, &be) {
			t.Fatalf("%+v, %v", d, err)
		}
	}
	if n := strings.Count(log.String(), "redis unreachable"); n != 1 {
		t.Fatalf("logged %d times:\n%s", n, log.String())
	}
	if r.Ping(context.Background()) == nil {
		t.Fatal("Ping succeeds without Redis")
	}
}

// TestRedisRecovers runs its own redis-server, stops it mid-run (requests are let through) and
// starts it again on the same port (limiting resumes by itself).
func TestRedisRecovers(t *testing.T) {
	testRedisURL(t) // the Redis tests are wanted here
	bin := testenv.Program(t, "redis-server", ".ci/run installs it")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	start := func() *exec.Cmd {
		cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for i := 0; ; i++ {
			if c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
				c.Close()
				return cmd
			}
			if i > 100 {
				t.Fatal("redis-server did not start")
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	server := start()
	defer func() { server.Process.Kill(); server.Wait() }()
	r, err := NewRedis(fmt.Sprintf("redis://127.0.0.1:%d/0", port), 3, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	spend := func(caller string) (allowed int, backendErrors int) {
		for range 5 {
			d, err := r.Allow(context.Background(), caller)
			if err != nil {
				backendErrors++
			}
			if d.Allowed {
				allowed++
			}
		}
		return
	}
	if a, e := spend("before"); a != 3 || e != 0 {
		t.Fatalf("before: %d allowed, %d errors", a, e)
	}
	server.Process.Kill()
	server.Wait()
	if a, e := spend("during"); a != 5 || e != 5 {
		t.Fatalf("Redis down: %d allowed, %d errors; want all let through", a, e)
	}
	server = start()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := r.Allow(context.Background(), "probe"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the limiter did not recover")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if a, e := spend("after"); a != 3 || e != 0 {
		t.Fatalf("Redis back: %d allowed, %d errors", a, e)
	}
}
