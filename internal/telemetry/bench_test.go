package telemetry

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/bananaqr/bananaqr/internal/accesslog"
	"github.com/bananaqr/bananaqr/internal/telemetry/otlptest"
	"github.com/prometheus/client_golang/prometheus"
)

// BenchmarkHandler is what Handler adds to a request that does nothing: its id, the log line
// (to io.Discard), the metrics, and with "traced" a span exported to a collector stub.
func BenchmarkHandler(b *testing.B) {
	for _, traced := range []bool{false, true} {
		name := map[bool]string{false: "off", true: "traced"}[traced]
		b.Run(name, func(b *testing.B) {
			c := Config{Log: accesslog.New(io.Discard, "json"), Metrics: NewMetrics(prometheus.NewRegistry()),
				Route: func(*http.Request) string { return "/api/qr-code.svg" }}
			if traced {
				tr, err := NewTracing(context.Background(), otlptest.NewCollector(b).URL, "bench")
				if err != nil {
					b.Fatal(err)
				}
				defer tr.Shutdown(context.Background())
				c.Tracing = tr
			}
			h := Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), c)
			r := httptest.NewRequest("GET", "/api/qr-code.svg?text=x", nil)
			r.Header.Set("Traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
			w := httptest.NewRecorder()
			b.ReportAllocs()
			for b.Loop() {
				clear(w.Header())
				h.ServeHTTP(w, r)
			}
		})
	}
}
