package telemetry

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/bananaqr/bananaqr/internal/accesslog"
	"github.com/bananaqr/bananaqr/internal/telemetry/otlptest"
	"github.com/prometheus/client_golang/prometheus"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// TestTracingExports: with tracing on, a request carrying a traceparent gets a server span that
// is the child of the caller's span, a span started below it is its child, the log line has the
// trace id, and Shutdown sends them all to the collector over OTLP/HTTP.
func TestTracingExports(t *testing.T) {
	collector := otlptest.NewCollector(t)
	tr, err := NewTracing(context.Background(), collector.URL, "bananaqr-test")
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, end := tr.Start(r.Context(), "work")
		end()
		w.WriteHeader(http.StatusInternalServerError)
	}), Config{Log: accesslog.New(&log, "json"), Metrics: NewMetrics(prometheus.NewRegistry()), Tracing: tr,
		Route: func(*http.Request) string { return "/known" }})
	r := httptest.NewRequest("POST", "/known?text=secret", nil)
	r.Header.Set("Traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if err := tr.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}

	spans := map[string]*tracepb.Span{}
	for _, s := range collector.Spans() {
		spans[s.Name] = s
	}
	server, work := spans["POST /known"], spans["work"]
	if server == nil || work == nil || len(spans) != 2 {
		t.Fatalf("spans %v, want POST /known and work", spans)
	}
	if hex.EncodeToString(server.TraceId) != "4bf92f3577b34da6a3ce929d0e0e4736" ||
		hex.EncodeToString(server.ParentSpanId) != "00f067aa0ba902b7" || server.Kind != tracepb.Span_SPAN_KIND_SERVER {
		t.Errorf("server span: trace %x parent %x kind %v, want the caller's trace and span", server.TraceId, server.ParentSpanId, server.Kind)
	}
	if !bytes.Equal(work.ParentSpanId, server.SpanId) || !bytes.Equal(work.TraceId, server.TraceId) {
		t.Errorf("work's parent %x, want the server span %x", work.ParentSpanId, server.SpanId)
	}
	attrs := map[string]any{}
	for _, a := range server.Attributes {
		switch v := a.Value.Value.(type) {
		case *commonpb.AnyValue_StringValue:
			attrs[a.Key] = v.StringValue
		case *commonpb.AnyValue_IntValue:
			attrs[a.Key] = v.IntValue
		}
	}
	if attrs["http.request.method"] != "POST" || attrs["http.route"] != "/known" || attrs["http.response.status_code"] != int64(500) ||
		server.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("server span attributes %v status %v", attrs, server.Status)
	}
	if got := collector.Service("work"); got != "bananaqr-test" {
		t.Errorf("service.name %q", got)
	}
	var line map[string]any
	if err := json.Unmarshal(log.Bytes(), &line); err != nil || line["trace_id"] != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("log line %s: %v", log.String(), err)
	}
}

// TestTracingOff: a nil Tracing starts nothing and allocates nothing.
func TestTracingOff(t *testing.T) {
	var tr *Tracing
	ctx := context.Background()
	if n := testing.AllocsPerRun(100, func() {
		c, end := tr.Start(ctx, "encode")
		end()
		if c != ctx {
			t.Fatal("a new context with tracing off")
		}
	}); n != 0 {
		t.Errorf("%v allocations with tracing off", n)
	}
	if tr.Shutdown(ctx) != nil {
		t.Error("Shutdown of nil")
	}
}

// TestOTLPFromEnv: the standard variables turn export on; OTEL_SDK_DISABLED turns it off.
func TestOTLPFromEnv(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "TRUE"}, false},
	} {
		if got := OTLPFromEnv(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: %v", c.env, got)
		}
	}
}
