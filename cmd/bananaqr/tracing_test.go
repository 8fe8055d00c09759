package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/internal/logtest"
	"github.com/bananaqr/bananaqr/internal/telemetry/otlptest"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// TestServeTracing runs serve with traces exported to a collector stub, by --otlp-endpoint and
// by the standard OTEL_EXPORTER_OTLP_ENDPOINT: a request carrying a traceparent becomes a
// server span, child of the caller's, with an encode and a render span below it; the access
// log names the trace; shutdown sends what was not yet sent. Without either, nothing is sent.
func TestServeTracing(t *testing.T) {
	for _, how := range []string{"flag", "env", "off"} {
		t.Run(how, func(t *testing.T) {
			collector := otlptest.NewCollector(t)
			c := serveConfig{addr: "127.0.0.1:0", logFormat: "json", rateLimit: 60, maxQueue: 8,
				shutdownTimeout: time.Second, connConfig: connConfig{readHeaderTimeout: 5 * time.Second}}
			switch how {
			case "flag":
				c.otlpEndpoint = collector.URL
			case "env":
				t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
			}
			log := servedTraced(t, c)
			spans := map[string]*tracepb.Span{}
			for _, s := range collector.Spans() {
				spans[s.Name] = s
			}
			if s := spans["GET /api/qr-code.svg"]; s != nil {
				if hex.EncodeToString(s.TraceId) != traceID || hex.EncodeToString(s.ParentSpanId) != "00f067aa0ba902b7" {
					t.Errorf("server span of trace %x, parent %x: want the caller's", s.TraceId, s.ParentSpanId)
				}
				for _, name := range []string{"encode", "render"} {
					if c := spans[name]; c == nil || !bytes.Equal(c.ParentSpanId, s.SpanId) {
						t.Errorf("%s: %v, want a child of the server span %x", name, c, s.SpanId)
					}
				}
			}
			if want := map[bool]int{true: 3, false: 0}[how != "off"]; len(spans) != want {
				t.Errorf("spans %v, want %d", spans, want)
			}
			if !strings.Contains(log, `"trace_id":"`+traceID+`"`) {
				t.Errorf("no trace_id in the access log:\n%s", log)
			}
		})
	}
}

// traceID is the trace of the caller's traceparent in TestServeTracing.
const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"

// servedTraced runs the server of c, asks it for a code with a traceparent, stops it, and
// returns its log.
func servedTraced(t *testing.T, c serveConfig) string {
	return tracedRequest(t, "/api/qr-code.svg?text=traced", func(ctx context.Context, log io.Writer, ready func(net.Addr)) int {
		return runServer(ctx, c, log, ready)
	})
}

// tracedRequest runs a server (serve, which calls ready with its address and returns its exit
// status once ctx is done), GETs path from it with the caller's traceparent, stops it, checks
// that it exits 0 and that every line of its log is JSON, and returns the log.
func tracedRequest(t *testing.T, path string, serve func(ctx context.Context, log io.Writer, ready func(net.Addr)) int) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs := make(chan net.Addr, 1)
	exit := make(chan int, 1)
	var log logtest.Buffer
	go func() { exit <- serve(ctx, &log, func(a net.Addr) { addrs <- a }) }()
	req, _ := http.NewRequest("GET", "http://"+(<-addrs).String()+path, nil)
	req.Header.Set("Traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cancel()
	if code := <-exit; code != 0 {
		t.Fatalf("exit %d:\n%s", code, log.String())
	}
	for line := range strings.Lines(log.String()) {
		if !json.Valid([]byte(line)) {
			t.Errorf("not JSON: %q", line)
		}
	}
	return log.String()
}

// TestExpensesServeTracing: expenses serve with --otlp-endpoint exports a server span for a
// request, the child of the caller's span, and logs its trace id.
func TestExpensesServeTracing(t *testing.T) {
	collector := otlptest.NewCollector(t)
	args := []string{"--db", filepath.Join(t.TempDir(), "e.db"), "--addr", "127.0.0.1:0", "--log-format", "json", "--otlp-endpoint", collector.URL}
	log := tracedRequest(t, "/healthz", func(ctx context.Context, log io.Writer, ready func(net.Addr)) int {
		return expensesServe(ctx, args, func(string) string { return "" }, log, ready)
	})
	spans := collector.Spans()
	if len(spans) != 1 || spans[0].Name != "GET /healthz" || hex.EncodeToString(spans[0].TraceId) != traceID ||
		collector.Service("GET /healthz") != "bananaqr-expenses" {
		t.Errorf("spans %v, want GET /healthz of the caller's trace, from bananaqr-expenses", spans)
	}
	if !strings.Contains(log, `"trace_id":"`+traceID+`"`) {
		t.Errorf("no trace_id in the log:\n%s", log)
	}
}
