package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// startServer runs the server with c on a loopback port until the test ends and returns its
// address.
func startServer(t *testing.T, c serveConfig) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	exit := make(chan int, 1)
	go func() { exit <- runServer(ctx, c, io.Discard, func(a net.Addr) { addrs <- a }) }()
	t.Cleanup(func() { cancel(); <-exit })
	select {
	case a := <-addrs:
		return a.String()
	case code := <-exit:
		t.Fatalf("the server exited with %d", code)
	}
	return ""
}

func hostileConfig() serveConfig {
	return serveConfig{addr: "127.0.0.1:0", logFormat: "text", maxQueue: 256, shutdownTimeout: time.Second,
		connConfig: connConfig{readHeaderTimeout: 300 * time.Millisecond}}
}

// TestSlowHeaders sends headers a byte at a time, slowly: the header timeout cuts the client off.
func TestSlowHeaders(t *testing.T) {
	addr := startServer(t, hostileConfig())
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	request := "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + strings.Repeat("a", 100) + "\r\n\r\n"
	for i := range len(request) {
		if _, err := conn.Write([]byte{request[i]}); err != nil {
			break // cut off
		}
		time.Sleep(50 * time.Millisecond)
		if time.Since(start) > 5*time.Second {
			t.Fatal("still connected after 5 s of slow headers")
		}
	}
	conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err == nil && res.StatusCode == http.StatusOK {
		t.Fatalf("a slow client was served after %v", time.Since(start))
	}
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Errorf("cut off after %v, want about the header timeout", elapsed)
	}
}

// TestHugeBody starts a 10 MB POST and sends only part of it: the server answers 413 without
// waiting for the rest.
func TestHugeBody(t *testing.T) {
	addr := startServer(t, hostileConfig())
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/qr-code HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"text\":\"", 10<<20)
	chunk := strings.Repeat("a", 64<<10)
	for range 3 { // 192 KiB of 10 MB
		if _, err := io.WriteString(conn, chunk); err != nil {
			break
		}
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer while the body was still coming: %v", err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), "BODY_TOO_LARGE") {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
}

// TestIdleConnections opens a thousand connections that send nothing: a new request is still
// served at once.
func TestIdleConnections(t *testing.T) {
	c := hostileConfig()
	c.readHeaderTimeout = 30 * time.Second // the idle connections stay for the whole test
	addr := startServer(t, c)
	var idle []net.Conn
	defer func() {
		for _, conn := range idle {
			conn.Close()
		}
	}()
	for range 1000 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("after %d connections: %v", len(idle), err)
		}
		idle = append(idle, conn)
	}
	start := time.Now()
	res, err := http.Get("http://" + addr + "/api/qr-code.svg?text=still%20here")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || time.Since(start) > 2*time.Second {
		t.Fatalf("%d after %v", res.StatusCode, time.Since(start))
	}
}
