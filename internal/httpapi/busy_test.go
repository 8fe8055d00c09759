package httpapi

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/batch"
	"github.com/bananaqr/bananaqr/internal/mcpserver"
	"github.com/bananaqr/bananaqr/internal/mcptest"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// batchOf returns the body of a batch of n text codes in format.
func batchOf(n int, format string) string {
	items := make([]string, n)
	for i := range items {
		items[i] = `{"text":"code ` + strconv.Itoa(i) + `","format":"` + format + `"}`
	}
	return "[" + strings.Join(items, ",") + "]"
}

// fillGate takes the gate's places and seats (MaxActive 1, MaxQueue 1 in the tests): one place
// held, one request waiting for it. The function returned frees both.
func fillGate(t *testing.T, s *Server) func() {
	t.Helper()
	s.gate.Acquire(context.Background())
	waiting := make(chan struct{})
	go func() {
		s.gate.Acquire(context.Background())
		close(waiting)
	}()
	for s.gate.Waiting() < 1 {
		time.Sleep(time.Millisecond)
	}
	return func() {
		s.gate.Release()
		<-waiting
		s.gate.Release()
	}
}

// forwardedFor is a RoundTripper that sends every request as from a trusted proxy for addr.
type forwardedFor string

func (f forwardedFor) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Forwarded-For", string(f))
	return http.DefaultTransport.RoundTrip(r)
}

// mcpSessionAs connects the MCP SDK's client to /mcp as the caller at addr.
func mcpSessionAs(t *testing.T, ts *testServer, addr string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "bananaqr-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp",
		HTTPClient: &http.Client{Transport: forwardedFor(addr)}, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestBusyRefunds: with the one place and the one seat taken (--max-active 1 --max-queue 1), a
// batch of 60, a single code and an MCP call are refused 503 OVERLOADED, and none of them is
// charged: once the service is free, the same caller's batch of 60 passes. Issue 26 (3): the
// refused codes were charged, and the caller's next code got 429.
func TestBusyRefunds(t *testing.T) {
	for name, limiter := range map[string]func(t *testing.T) ratelimit.Limiter{
		"memory": func(*testing.T) ratelimit.Limiter { return ratelimit.NewMemory(60, time.Minute, nil) },
		"redis":  func(t *testing.T) ratelimit.Limiter { return redisLimiter(t, "", 60) },
	} {
		t.Run(name, func(t *testing.T) {
			ts := newTestServer(t, Config{Limiter: limiter(t), RateLimit: 60, MaxActive: 1, MaxQueue: 1, TrustedProxies: loopback})
			caller := batchCaller()
			free := fillGate(t, ts.api)
			r := ts.postBatch(t, batchOf(60, "svg"), caller)
			r.wantError(t, http.StatusServiceUnavailable, api.ReasonOverloaded)
			if got := r.header.Get("Retry-After"); got != "1" || r.header.Get("RateLimit-Remaining") != "60" {
				t.Errorf("the batch refused: Retry-After %q, RateLimit-Remaining %q; want 1 and 60 (all given back)", got, r.header.Get("RateLimit-Remaining"))
			}
			r = ts.do(t, http.MethodGet, "/api/qr-code.svg?text=single", "", caller)
			r.wantError(t, http.StatusServiceUnavailable, api.ReasonOverloaded)
			if r.header.Get("RateLimit-Remaining") != "60" {
				t.Errorf("the single code refused: RateLimit-Remaining %q, want 60", r.header.Get("RateLimit-Remaining"))
			}
			e := toolErrorBody(t, mcptest.CallTool(t, mcpSessionAs(t, ts, caller["X-Forwarded-For"]), mcpserver.ToolName, map[string]any{"type": "text", "text": "x"}))
			if e.Reason != string(api.ReasonOverloaded) {
				t.Errorf("the MCP call: %+v", e)
			}
			free()
			if r := ts.postBatch(t, batchOf(60, "svg"), caller); r.status != http.StatusOK {
				t.Fatalf("the whole budget once the service is free: %d %s", r.status, r.body)
			}
		})
	}
}

// TestBatchMemoryBudget: a batch whose codes would hold more memory than is left is refused
// before any code is made, 503 OVERLOADED with a Retry-After and its codes given back; so is a
// single code; once the memory is free both pass, and each gives back what it held.
func TestBatchMemoryBudget(t *testing.T) {
	ts := newTestServer(t, Config{Limiter: ratelimit.NewMemory(60, time.Minute, nil), RateLimit: 60, MaxBuffered: 1 << 20})
	held, err := ts.api.gate.Hold(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	r := ts.postBatch(t, batchOf(3, "png"), nil)
	r.wantError(t, http.StatusServiceUnavailable, api.ReasonOverloaded)
	if s, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || s < 1 || r.header.Get("RateLimit-Remaining") != "60" {
		t.Errorf("Retry-After %q, RateLimit-Remaining %q", r.header.Get("Retry-After"), r.header.Get("RateLimit-Remaining"))
	}
	ts.get(t, "/api/qr-code.svg?text=single").wantError(t, http.StatusServiceUnavailable, api.ReasonOverloaded)
	held.Release()
	if r := ts.postBatch(t, batchOf(3, "png"), nil); r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if r := ts.get(t, "/api/qr-code.svg?text=single"); r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if n := ts.api.gate.Buffered(); n != 0 {
		t.Errorf("%d bytes still reserved", n)
	}
}

// flushRecorder is a ResponseRecorder that calls onFlush at each flush.
type flushRecorder struct {
	httptest.ResponseRecorder
	onFlush func()
}

func (w *flushRecorder) Flush() { w.onFlush() }

// TestBatchStreams: the archive is sent as it is made, flushed file by file (over HTTP/1.1
// chunked, without Content-Length), its bytes those of batch.WriteZip into memory; while it is
// sent the batch holds batch.Held bytes of the budget and a seat, given back at its end.
func TestBatchStreams(t *testing.T) {
	ts := newTestServer(t, Config{})
	body := batchOf(12, "eps")
	items, err := batch.ReadJSON([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	entries, errs := batch.Plan(items, 1)
	if errs != nil {
		t.Fatal(errs)
	}
	var want bytes.Buffer
	if err := batch.WriteZip(context.Background(), &want, entries, 1, batch.Local, nil); err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/api/qr-code/batch", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	w := &flushRecorder{ResponseRecorder: *httptest.NewRecorder()}
	var sent []int
	w.onFlush = func() {
		sent = append(sent, w.Body.Len())
		if got, held := ts.api.gate.Buffered(), batch.Held(entries, batch.Workers()); got != held || ts.api.gate.Waiting() != 1 {
			t.Errorf("while sent: %d bytes reserved, %d waiting; want %d and the batch's seat", got, ts.api.gate.Waiting(), held)
		}
	}
	ts.api.postBatch(w, req)
	if len(sent) != len(entries) || sent[0] == 0 || sent[0] >= want.Len()/2 {
		t.Errorf("flushed after %v bytes; want once a file, from the first", sent)
	}
	if !bytes.Equal(w.Body.Bytes(), want.Bytes()) {
		t.Errorf("the archive sent (%d bytes) is not batch.WriteZip's (%d)", w.Body.Len(), want.Len())
	}
	if ts.api.gate.Waiting() != 0 || ts.api.gate.Buffered() != 0 {
		t.Errorf("%d waiting, %d bytes held after the batch", ts.api.gate.Waiting(), ts.api.gate.Buffered())
	}
	r, err := http.Post(ts.URL+"/api/qr-code/batch", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	got, err := io.ReadAll(r.Body)
	if err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Errorf("over HTTP: %d bytes, %v", len(got), err)
	}
	if r.ContentLength != -1 || len(r.TransferEncoding) != 1 || r.TransferEncoding[0] != "chunked" {
		t.Errorf("Content-Length %d, Transfer-Encoding %q: want a chunked stream", r.ContentLength, r.TransferEncoding)
	}
}

// failingWriter is a ResponseWriter whose writes fail after the first n bytes, as a connection
// that breaks mid-answer.
type failingWriter struct {
	httptest.ResponseRecorder
	n int
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n <= 0 {
		return 0, errors.New("connection reset")
	}
	if len(p) > w.n {
		n, _ := w.ResponseRecorder.Write(p[:w.n])
		w.n = 0
		return n, errors.New("connection reset")
	}
	w.n -= len(p)
	return w.ResponseRecorder.Write(p)
}

// TestBatchCutOff: a batch that fails after its 200 was sent aborts the connection
// (http.ErrAbortHandler) and logs it, what was sent is no archive (its central directory never
// comes), and its seat and memory are given back.
func TestBatchCutOff(t *testing.T) {
	ts := newTestServer(t, Config{})
	req := httptest.NewRequest(http.MethodPost, "/api/qr-code/batch", strings.NewReader(batchOf(20, "pdf")))
	req.Header.Set("Content-Type", "application/json")
	w := &failingWriter{ResponseRecorder: *httptest.NewRecorder(), n: 10_000}
	func() {
		defer func() {
			if p := recover(); p != http.ErrAbortHandler {
				t.Errorf("panic %v, want http.ErrAbortHandler", p)
			}
		}()
		ts.api.postBatch(w, req)
	}()
	if w.Code != http.StatusOK || w.Body.Len() != 10_000 {
		t.Errorf("status %d, %d bytes", w.Code, w.Body.Len())
	}
	if _, err := zip.NewReader(bytes.NewReader(w.Body.Bytes()), int64(w.Body.Len())); err == nil {
		t.Error("what was sent reads as an archive")
	}
	if log := ts.log.String(); !strings.Contains(log, "batch cut off after its 200") || !strings.Contains(log, "connection reset") {
		t.Errorf("not logged:\n%s", log)
	}
	if ts.api.gate.Waiting() != 0 || ts.api.gate.Buffered() != 0 {
		t.Errorf("%d waiting, %d bytes held after the cut", ts.api.gate.Waiting(), ts.api.gate.Buffered())
	}
}

// TestBatchOutlivesTimeouts: a batch that takes longer than the server's read and write
// timeouts (here 200 ms; serve's are 15 s and 30 s), because it waits for a place, still comes
// back whole: net/http would cut it at the write deadline, but each file has a deadline of its
// own (the read deadline does not matter once the request is read).
func TestBatchOutlivesTimeouts(t *testing.T) {
	s := New(Config{MaxActive: 1, OpenAPI: api.OpenAPI})
	ts := httptest.NewUnstartedServer(s.Handler())
	ts.Config.ReadTimeout, ts.Config.WriteTimeout = 200*time.Millisecond, 200*time.Millisecond
	ts.Start()
	defer ts.Close()
	s.gate.Acquire(context.Background()) // the one place, taken for 600 ms
	time.AfterFunc(600*time.Millisecond, s.gate.Release)
	resp, err := http.Post(ts.URL+"/api/qr-code/batch", "application/json", strings.NewReader(batchOf(3, "svg")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%d, %d bytes, %v", resp.StatusCode, len(body), err)
	}
	if zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body))); err != nil || len(zr.File) != 3 {
		t.Fatalf("not the whole archive: %v", err)
	}
}
