package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/internal/logtest"
)

// TestServeFlags checks the flags and their environment twins: a flag given wins over its
// variable, a variable over the default, and --help lists every flag with its variable.
func TestServeFlags(t *testing.T) {
	env := map[string]string{"BANANAQR_ADDR": "127.0.0.1:9999", "BANANAQR_RATE_LIMIT": "5", "BANANAQR_LOG_FORMAT": "json"}
	c, err := parseServe([]string{"--rate-limit", "7"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.addr != "127.0.0.1:9999" || c.rateLimit != 7 || c.logFormat != "json" || c.maxQueue != 256 || c.shutdownTimeout != 30*time.Second {
		t.Fatalf("%+v", c)
	}
	if _, err := parseServe(nil, func(k string) string {
		if k == "BANANAQR_MAX_QUEUE" {
			return "many"
		}
		return ""
	}, io.Discard); err == nil || !strings.Contains(err.Error(), "BANANAQR_MAX_QUEUE") {
		t.Fatalf("a bad variable: %v", err)
	}
	var help bytes.Buffer
	if code := run([]string{"serve", "--help"}, nil, io.Discard, &help); code != 0 {
		t.Fatalf("serve --help: exit %d", code)
	}
	for _, f := range []string{"addr", "base-url", "trusted-proxies", "rate-limit", "log-format", "max-active", "max-queue", "shutdown-timeout", "mcp-allow-any-host", "redis-url", "metrics-addr", "read-header-timeout"} {
		if !strings.Contains(help.String(), "--"+f+" ") || !strings.Contains(help.String(), envName(f)) {
			t.Errorf("--help lacks --%s or %s:\n%s", f, envName(f), help.String())
		}
	}
	if code := run([]string{"serve", "--log-format", "xml", "--addr", "127.0.0.1:0"}, nil, io.Discard, io.Discard); code != 2 {
		t.Errorf("a bad --log-format: exit %d", code)
	}
}

// TestServeShutdown starts the server, begins a request, stops the server while the request's
// body is still coming, and checks that the request is answered and the server returns 0.
func TestServeShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs := make(chan net.Addr, 1)
	exit := make(chan int, 1)
	var log logtest.Buffer
	c := serveConfig{addr: "127.0.0.1:0", logFormat: "json", rateLimit: 60, maxQueue: 8, shutdownTimeout: 10 * time.Second,
		connConfig: connConfig{readHeaderTimeout: 5 * time.Second}}
	go func() { exit <- runServer(ctx, c, &log, func(a net.Addr) { addrs <- a }) }()
	addr := (<-addrs).String()

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"type":"text","text":"in flight","format":"svg"}`
	fmt.Fprintf(conn, "POST /api/qr-code HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body[:10])
	// A request on a second connection, answered, means the server has accepted the first, dialled
	// before it; http.Server.Shutdown then waits for it (it closes only connections idle, or new
	// for more than 5 s).
	if res, err := http.Get("http://" + addr + "/healthz"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /healthz: %v", err)
	} else {
		res.Body.Close()
	}
	cancel()
	log.WaitFor(t, `"msg":"shutting down"`) // shutting down, waiting for the request
	select {
	case code := <-exit:
		t.Fatalf("the server stopped (exit %d) with a request in flight", code)
	default:
	}
	io.WriteString(conn, body[10:])
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	svg, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !bytes.HasPrefix(svg, []byte("<svg")) {
		t.Fatalf("in-flight request: %d %.60s", res.StatusCode, svg)
	}
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop")
	}
	if !strings.Contains(log.String(), `"msg":"shutting down"`) || strings.Contains(log.String(), "in flight") {
		t.Errorf("log:\n%s", log.String())
	}
}

// TestServeMetricsPortBusy checks that a busy --metrics-addr fails the start before the service
// is announced or served, and leaves the service's port free.
func TestServeMetricsPortBusy(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := free.Addr().String()
	free.Close()
	var log logtest.Buffer
	c := serveConfig{addr: addr, metricsAddr: busy.Addr().String(), logFormat: "json", rateLimit: 60, maxQueue: 8,
		shutdownTimeout: time.Second, connConfig: connConfig{readHeaderTimeout: 5 * time.Second}}
	readied := false
	code := runServer(context.Background(), c, &log, func(net.Addr) { readied = true })
	if code != 2 || readied {
		t.Fatalf("exit %d, ready called: %v", code, readied)
	}
	if !strings.Contains(log.String(), "--metrics-addr") || strings.Contains(log.String(), `"msg":"listening"`) {
		t.Errorf("log:\n%s", log.String())
	}
	again, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("the service's port is still held: %v", err)
	}
	again.Close()
}

// TestServeMetricsPort checks that --metrics-addr serves /metrics on a port of its own, and
// that the service's port then has none.
func TestServeMetricsPort(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	exit := make(chan int, 1)
	log := &logtest.Buffer{}
	c := serveConfig{addr: "127.0.0.1:0", metricsAddr: "127.0.0.1:0", logFormat: "json", rateLimit: 60, maxQueue: 8,
		shutdownTimeout: time.Second, connConfig: connConfig{readHeaderTimeout: 5 * time.Second}}
	go func() { exit <- runServer(ctx, c, log, func(a net.Addr) { addrs <- a }) }()
	addr := (<-addrs).String()
	var metricsAddr string
	for deadline := time.Now().Add(5 * time.Second); metricsAddr == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for line := range strings.Lines(log.String()) {
			var entry struct{ Msg, Addr string }
			if json.Unmarshal([]byte(line), &entry) == nil && entry.Msg == "metrics listening" {
				metricsAddr = entry.Addr
			}
		}
	}
	if metricsAddr == "" {
		t.Fatal("no metrics listening in the log")
	}
	for target, want := range map[string]int{"http://" + metricsAddr + "/metrics": http.StatusOK, "http://" + addr + "/metrics": http.StatusNotFound} {
		res, err := http.Get(target)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("%s: %d, want %d", target, res.StatusCode, want)
		}
	}
	cancel()
	if code := <-exit; code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// The log line at start names the page to open: the base URL, or an address a browser can
// open.
func TestPageURL(t *testing.T) {
	for _, c := range []struct {
		base, addr, want string
	}{
		{"", "[::]:8080", "http://localhost:8080/"},
		{"", "0.0.0.0:8080", "http://localhost:8080/"},
		{"", "127.0.0.1:9000", "http://127.0.0.1:9000/"},
		{"", "[::1]:9000", "http://[::1]:9000/"},
		{"", "[::ffff:10.0.0.1]:80", "http://10.0.0.1:80/"},
		{"https://qr.example.com/", "[::]:8080", "https://qr.example.com/"},
		{"https://qr.example.com", "[::]:8080", "https://qr.example.com/"},
	} {
		addr, err := net.ResolveTCPAddr("tcp", c.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := pageURL(c.base, addr); got != c.want {
			t.Errorf("pageURL(%q, %s) = %q, want %q", c.base, c.addr, got, c.want)
		}
	}
}
