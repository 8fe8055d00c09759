// Package otlptest is an OpenTelemetry collector stub for tests: it receives spans over
// OTLP/HTTP as the OTLP specification (opentelemetry-proto, "OTLP/HTTP") defines the protocol —
// POST /v1/traces, an ExportTraceServiceRequest in binary protobuf, possibly gzipped — and keeps
// them.
package otlptest

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Collector receives spans until its test ends.
type Collector struct {
	URL string // the base URL an exporter is given (OTEL_EXPORTER_OTLP_ENDPOINT's form)

	mu    sync.Mutex
	spans []*tracepb.Span
	names map[string]string // service.name of each span's resource, by span name
}

// NewCollector starts a collector, stopped when t ends.
func NewCollector(t testing.TB) *Collector {
	c := &Collector{names: map[string]string{}}
	srv := httptest.NewServer(http.HandlerFunc(c.receive))
	t.Cleanup(srv.Close)
	c.URL = srv.URL
	return c
}

// receive answers an export: 200 with an empty ExportTraceServiceResponse, or 400 for what
// is not one.
func (c *Collector) receive(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "want POST /v1/traces of application/x-protobuf", http.StatusBadRequest)
		return
	}
	body := io.Reader(r.Body)
	if r.Header.Get("Content-Encoding") == "gzip" {
		z, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = z
	}
	b, err := io.ReadAll(body)
	var req coltracepb.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(b, &req)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.keep(&req)
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

// keep notes the spans of req and their service's name.
func (c *Collector) keep(req *coltracepb.ExportTraceServiceRequest) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		service := ""
		for _, a := range rs.GetResource().GetAttributes() {
			if a.Key == "service.name" {
				service = a.GetValue().GetStringValue()
			}
		}
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				c.spans = append(c.spans, s)
				c.names[s.Name] = service
			}
		}
	}
}

// Spans returns the spans received so far.
func (c *Collector) Spans() []*tracepb.Span {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*tracepb.Span(nil), c.spans...)
}

// Service returns the service.name of the resource the span named name came with.
func (c *Collector) Service(name string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.names[name]
}
