package graceful

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/internal/logtest"
)

// listen returns a server of h on a free loopback port, and its URL.
func listen(t *testing.T, h http.Handler) (Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return Server{HTTP: &http.Server{Handler: h}, Listener: ln}, "http://" + ln.Addr().String()
}

// blocking is a handler that says when a request has come in and answers it once released.
type blocking struct {
	entered chan struct{}
	release chan struct{}
}

func newBlocking() *blocking {
	return &blocking{entered: make(chan struct{}, 1), release: make(chan struct{})}
}

func (b *blocking) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.entered <- struct{}{}
	<-b.release
	io.WriteString(w, "done")
}

// get GETs url and sends the body, or the error, on the channel it returns.
func get(url string) <-chan string {
	out := make(chan string, 1)
	go func() {
		res, err := http.Get(url)
		if err != nil {
			out <- "error: " + err.Error()
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		out <- string(b)
	}()
	return out
}

// waitRefused waits, for at most 5 s, until connections to addr are refused.
func waitRefused(t *testing.T, addr string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			return
		}
		conn.Close()
	}
	t.Fatalf("after 5 s %s still takes connections", addr)
}

// TestServeDrains: once ctx is done, Serve says it is shutting down, refuses new connections,
// lets the request in flight finish, and returns nil after it; the aux server is served until
// then and closed with it.
func TestServeDrains(t *testing.T) {
	h := newBlocking()
	main, url := listen(t, h)
	aux, auxURL := listen(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "aux") }))
	log := &logtest.Buffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, slog.New(slog.NewTextHandler(log, nil)), 10*time.Second, main, aux) }()

	inFlight := get(url)
	<-h.entered
	cancel()
	log.WaitFor(t, `msg="shutting down" timeout=10s`)
	waitRefused(t, main.Listener.Addr().String())
	if got := <-get(auxURL); got != "aux" {
		t.Errorf("the aux server while the main one drains: %q", got)
	}
	select {
	case err := <-done:
		t.Fatalf("Serve returned (%v) with a request in flight", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(h.release)
	if got := <-inFlight; got != "done" {
		t.Errorf("the request in flight: %q", got)
	}
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if got := <-get(auxURL); !strings.HasPrefix(got, "error: ") {
		t.Errorf("the aux server after Serve: %q, want closed", got)
	}
}

// TestServeTimeout: a request that outlasts the shutdown timeout makes Serve return an error
// wrapping context.DeadlineExceeded, after about the timeout.
func TestServeTimeout(t *testing.T) {
	h := newBlocking()
	defer close(h.release)
	main, url := listen(t, h)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, slog.New(slog.DiscardHandler), 100*time.Millisecond, main) }()
	get(url)
	<-h.entered
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(err.Error(), "shutdown: ") {
			t.Fatalf("Serve: %v, want shutdown: context deadline exceeded", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not give up after its timeout")
	}
}

// TestServeEarlyStop: when a server stops before ctx is done (here the aux server's listener
// is already closed), Serve returns its error and closes the other servers.
func TestServeEarlyStop(t *testing.T) {
	main, url := listen(t, http.NotFoundHandler())
	aux, _ := listen(t, http.NotFoundHandler())
	aux.Listener.Close()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), slog.New(slog.DiscardHandler), time.Second, main, aux) }()
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Serve: %v, want the closed listener's error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve kept running with a failed server")
	}
	if got := <-get(url); !strings.HasPrefix(got, "error: ") {
		t.Errorf("the main server after Serve: %q, want closed", got)
	}
}

// TestServeDrainDelay: with a Drain delay, Serve calls Draining once ctx is done and answers new
// requests for the delay, then closes its listener.
func TestServeDrainDelay(t *testing.T) {
	var draining atomic.Bool
	main, url := listen(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if draining.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		io.WriteString(w, "answered")
	}))
	main.Drain, main.Draining = 300*time.Millisecond, func() { draining.Store(true) }
	log := &logtest.Buffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, slog.New(slog.NewTextHandler(log, nil)), time.Second, main) }()
	cancel()
	log.WaitFor(t, `msg=draining delay=300ms`)
	res, err := http.Get(url)
	if err != nil {
		t.Fatalf("a request while draining: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("while draining: %d, want the 503 Draining turned on", res.StatusCode)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	waitRefused(t, main.Listener.Addr().String())
	if !strings.Contains(log.String(), `msg="shutting down"`) {
		t.Errorf("log:\n%s", log.String())
	}
}
