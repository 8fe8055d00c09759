package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConnectionFlood: one client (127.0.0.1) opens 3,000 connections, each sending GET /healthz
// and then staying open, against a server whose open-file limit is 2,048, which 3,000 open
// connections would exhaust. Throughout, another client (127.0.0.2) gets /healthz and a code
// within probeLimit each, the flood's excess is refused at once, and the server's peak RSS stays
// under 150 MB. The slowest probe is logged: a few milliseconds on an idle machine.
func TestConnectionFlood(t *testing.T) {
	// probeLimit tells a starved client from a served one; it is no speed target, so that a
	// loaded CI machine (this test runs beside others, under the race detector) cannot fail it.
	const probeLimit = time.Second
	if testing.Short() {
		t.Skip("opens 3,000 connections")
	}
	bin := buildBinary(t)
	cmd, addr := startCommand(t, exec.Command("sh", "-c", `ulimit -n 2048 && exec "$0" "$@"`, bin,
		"serve", "--addr", "127.0.0.1:0", "--log-format", "json", "--rate-limit", "0"))

	probe := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true,
		DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}).DialContext}}
	var mu sync.Mutex
	var slowest time.Duration
	var failures []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			for _, path := range []string{"/healthz", "/api/qr-code.png?text=probe" + strconv.Itoa(i)} {
				start := time.Now()
				res, err := probe.Get("http://" + addr + path)
				took := time.Since(start)
				mu.Lock()
				slowest = max(slowest, took)
				switch {
				case err != nil:
					failures = append(failures, fmt.Sprintf("%s: %v", path, err))
				case res.StatusCode != http.StatusOK:
					failures = append(failures, fmt.Sprintf("%s: %d", path, res.StatusCode))
				case took > probeLimit:
					failures = append(failures, fmt.Sprintf("%s: %v", path, took))
				}
				mu.Unlock()
				if err == nil {
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
			}
		}
	})

	conns := flood(t, addr, 3000, "/healthz")
	time.Sleep(time.Second) // the flood held open while the probes go on
	kept := served(conns, 20*time.Millisecond)
	close(stop)
	wg.Wait()
	if len(failures) > 0 {
		t.Errorf("%d probes from 127.0.0.2 failed or took over %v, such as %q", len(failures), probeLimit, failures[0])
	}
	if kept > 256 {
		t.Errorf("%d of the flood's connections were served, more than --max-conns-per-client (256)", kept)
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(status)) {
		if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.Fields(kb)[0])
			if n > 150<<10 {
				t.Errorf("peak RSS %d MB", n>>10)
			}
			t.Logf("%d of %d flood connections served, slowest probe %v, peak RSS %.1f MB", kept, len(conns), slowest, float64(n)/1024)
		}
	}
}

// flood opens n connections to addr from 127.0.0.1, each sending a GET of path and then idle on
// keep-alive, and returns those that could be opened; the test's end closes them.
func flood(t *testing.T, addr string, n int, path string) []net.Conn {
	t.Helper()
	var conns []net.Conn
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	dialer := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.1")}, Timeout: time.Second}
	for range n {
		c, err := dialer.DialContext(context.Background(), "tcp", addr)
		if err != nil {
			continue // the server may be slow to accept a refused one: no matter
		}
		c.Write([]byte("GET " + path + " HTTP/1.1\r\nHost: flood\r\n\r\n"))
		conns = append(conns, c)
	}
	return conns
}

// served returns how many of conns the server answered within wait each: those it kept open
// rather than closed at once for being over a bound.
func served(conns []net.Conn, wait time.Duration) int {
	kept := 0
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(wait))
		if n, _ := c.Read(make([]byte, 64)); n > 0 {
			kept++
		}
	}
	return kept
}
