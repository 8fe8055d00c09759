package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// runHealthcheck runs "bananaqr healthcheck args" with BANANAQR_ADDR set to addr (when not
// empty) and returns its exit status and stderr, which must be at most one line (a bad flag,
// which prints the usage, is tested through run).
func runHealthcheck(t *testing.T, addr string, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	getenv := func(k string) string {
		if k == "BANANAQR_ADDR" {
			return addr
		}
		return ""
	}
	code := healthcheck(args, getenv, &stderr)
	if strings.Count(stderr.String(), "\n") > 1 {
		t.Errorf("healthcheck %v: the reason is not one line:\n%s", args, stderr.String())
	}
	return code, stderr.String()
}

// TestHealthcheckServe checks the health check against the real service: healthy while serve
// runs on the address BANANAQR_ADDR names (as a container started with another address
// sets it), and unhealthy once it has stopped.
func TestHealthcheckServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs := make(chan net.Addr, 1)
	exit := make(chan int, 1)
	c := serveConfig{addr: "127.0.0.1:0", logFormat: "json", rateLimit: 60, maxQueue: 8, shutdownTimeout: 5 * time.Second,
		connConfig: connConfig{readHeaderTimeout: 5 * time.Second}}
	go func() { exit <- runServer(ctx, c, io.Discard, func(a net.Addr) { addrs <- a }) }()
	addr := (<-addrs).String()
	_, port, _ := net.SplitHostPort(addr)

	for _, env := range []string{addr, ":" + port, "0.0.0.0:" + port} {
		if code, stderr := runHealthcheck(t, env); code != 0 || stderr != "" {
			t.Errorf("BANANAQR_ADDR=%s: exit %d, stderr %q; want 0 while serve runs", env, code, stderr)
		}
	}
	if code, stderr := runHealthcheck(t, "", "-url", "http://"+addr+"/healthz"); code != 0 {
		t.Errorf("-url: exit %d: %s", code, stderr)
	}
	var stderr bytes.Buffer // the dispatch in run
	if code := run([]string{"healthcheck", "-url", "http://" + addr + "/healthz"}, nil, io.Discard, &stderr); code != 0 {
		t.Errorf("bananaqr healthcheck -url: exit %d: %s", code, stderr.String())
	}
	if code, stderr := runHealthcheck(t, "127.0.0.1:1", "-url", "http://"+addr+"/healthz"); code != 0 {
		t.Errorf("-url wins over BANANAQR_ADDR: exit %d: %s", code, stderr)
	}

	cancel()
	if code := <-exit; code != 0 {
		t.Fatalf("serve: exit %d", code)
	}
	code, msg := runHealthcheck(t, addr)
	if code != 1 || !strings.Contains(msg, "connection refused") || !strings.Contains(msg, addr) {
		t.Errorf("after serve stopped: exit %d, stderr %q; want 1 and connection refused at %s", code, msg, addr)
	}
}

// TestHealthcheckUnhealthy checks the answers that are not healthy: another status, a 200 that
// is not {"ok": true}, a redirect, an address nothing listens on, and a server that does not
// answer within -timeout. Each exits 1 with its reason.
func TestHealthcheckUnhealthy(t *testing.T) {
	hang := make(chan struct{})
	defer close(hang)
	mux := http.NewServeMux()
	mux.HandleFunc("/unavailable", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"ok": false}`, http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/not-ok", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"ok": false}`) })
	mux.HandleFunc("/html", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "<!doctype html><p>hello") })
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/healthz", http.StatusFound) })
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"ok": true}`) })
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := closed.Addr().String()
	closed.Close()

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a healthy stand-in, to show the others fail for their own reason", []string{"-url", srv.URL + "/healthz"}, ""},
		{"503", []string{"-url", srv.URL + "/unavailable"}, "503 Service Unavailable"},
		{"200 not ok", []string{"-url", srv.URL + "/not-ok"}, `not {"ok": true}`},
		{"200 not JSON", []string{"-url", srv.URL + "/html"}, `not {"ok": true}`},
		{"a redirect is not followed", []string{"-url", srv.URL + "/moved"}, "302 Found"},
		{"unreachable", []string{"-url", "http://" + refused + "/healthz"}, "connection refused"},
		{"too slow", []string{"-url", srv.URL + "/hang", "-timeout", "200ms"}, "Client.Timeout exceeded"},
		{"an argument", []string{"now"}, `unexpected argument "now"`},
	} {
		start := time.Now()
		code, stderr := runHealthcheck(t, "", tc.args...)
		if tc.want == "" {
			if code != 0 {
				t.Errorf("%s: exit %d: %s", tc.name, code, stderr)
			}
			continue
		}
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want 1 and %q", tc.name, code, stderr, tc.want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: took %v", tc.name, d)
		}
	}
	var usage bytes.Buffer
	if code := run([]string{"healthcheck", "-retries", "3"}, nil, io.Discard, &usage); code != 1 ||
		!strings.Contains(usage.String(), "-retries") || !strings.Contains(usage.String(), "Usage: bananaqr healthcheck") {
		t.Errorf("a bad flag: exit %d (want 1, not 2: Docker reserves 2), stderr %q", code, usage.String())
	}
	if code, stderr := runHealthcheck(t, "no-port"); code != 1 || !strings.Contains(stderr, `BANANAQR_ADDR "no-port"`) {
		t.Errorf("a bad BANANAQR_ADDR: exit %d, stderr %q", code, stderr)
	}
}

// TestHealthURL checks the URL checked for the addresses serve may listen on: a wildcard
// listener is reached on 127.0.0.1, a given host as given, and serve's default address is
// read from serve's flags.
func TestHealthURL(t *testing.T) {
	for addr, want := range map[string]string{
		":8080":            "http://127.0.0.1:8080/healthz",
		"0.0.0.0:8080":     "http://127.0.0.1:8080/healthz",
		"[::]:9000":        "http://127.0.0.1:9000/healthz",
		"127.0.0.2:8080":   "http://127.0.0.2:8080/healthz",
		"[::1]:8080":       "http://[::1]:8080/healthz",
		"localhost:8081":   "http://localhost:8081/healthz",
		"qr.internal:8080": "http://qr.internal:8080/healthz",
	} {
		if got, err := healthURL(addr); err != nil || got != want {
			t.Errorf("healthURL(%q) = %q, %v; want %q", addr, got, err, want)
		}
	}
	if _, err := healthURL("8080"); err == nil {
		t.Error(`healthURL("8080"): no error`)
	}
	var c serveConfig
	if got, want := serveAddr(func(string) string { return "" }), serveFlags(&c, io.Discard).Lookup("addr").DefValue; got != want || want != ":8080" {
		t.Errorf("serveAddr without BANANAQR_ADDR = %q; serve's default is %q (the image's EXPOSE says :8080)", got, want)
	}
}
