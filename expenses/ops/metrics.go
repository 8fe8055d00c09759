package ops

import (
	"net/http"

	"github.com/bananaqr/bananaqr/internal/telemetry"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the expenses server's Prometheus metrics, in a registry of their own:
//
//   - internal/telemetry's HTTP metrics and build information (telemetry.NewMetrics), the
//     same families as the QR service's;
//   - bananaqr_mcp_tool_calls_total{tool,outcome} (telemetry.ToolCalls);
//   - bananaqr_rate_limit_decisions_total{decision}: the write limit's decisions, allowed or
//     limited (the QR service's family, whose third value failed_open never occurs here: the
//     write limit is kept in memory and cannot fail, so there is no
//     bananaqr_rate_limiter_backend_errors_total either);
//   - the Go runtime's and the process's collectors.
type Metrics struct {
	registry *prometheus.Registry
	// HTTP times the requests (telemetry.Handler).
	HTTP *telemetry.Metrics
	// ToolCalls counts the tool calls; its Middleware goes on the MCP server.
	ToolCalls *telemetry.ToolCalls
	allowed   prometheus.Counter
	limited   prometheus.Counter
}

// NewMetrics returns the metrics of a server whose MCP tools are tools.
func NewMetrics(tools []string) *Metrics {
	reg := prometheus.NewRegistry()
	decisions := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bananaqr_rate_limit_decisions_total",
		Help: "Decisions of the rate limit (the expenses server's write limit): allowed or limited."},
		[]string{"decision"})
	reg.MustRegister(decisions, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return &Metrics{registry: reg, HTTP: telemetry.NewMetrics(reg), ToolCalls: telemetry.NewToolCalls(reg, tools),
		allowed: decisions.WithLabelValues("allowed"), limited: decisions.WithLabelValues("limited")}
}

// WriteDecided counts a decision of the write limit (service.Service.ObserveWrites).
func (m *Metrics) WriteDecided(allowed bool) {
	if allowed {
		m.allowed.Inc()
		return
	}
	m.limited.Inc()
}

// Handler serves the metrics in Prometheus's text format (or OpenMetrics, as the scraper asks).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}
