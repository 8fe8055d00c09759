// Metrics: the service's Prometheus metrics, what admission's Gate decides among them, and the
// handler that serves them.

package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the service's Prometheus metrics, in a registry of its own. Labels carry routes,
// statuses and formats only: never a payload or a query string.
type metrics struct {
	registry      *prometheus.Registry
	requests      *prometheus.CounterVec   // by route, status and format
	generation    *prometheus.HistogramVec // seconds to make a code, by format
	rateLimited   prometheus.Counter
	limiterErrors prometheus.Counter
	inFlight      prometheus.Gauge
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bananaqr_http_requests_total", Help: "HTTP requests answered, by route, status (499 when the client went away first) and format (json, svg, png; empty when none)."},
			[]string{"route", "status", "format"}),
		generation: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "bananaqr_generation_seconds", Help: "Time to make a code (payload, symbol and image), by format.",
			Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1}},
			[]string{"format"}),
		rateLimited: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "bananaqr_rate_limited_total", Help: "Requests and tool calls refused by the rate limit."}),
		limiterErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "bananaqr_rate_limiter_backend_errors_total", Help: "Requests let through because the rate limiter's backend (Redis) failed."}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "bananaqr_renders_in_flight", Help: "Codes being made now."}),
	}
	m.registry.MustRegister(m.requests, m.generation, m.rateLimited, m.limiterErrors, m.inFlight,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// observeRequest counts an answered request.
func (m *metrics) observeRequest(route string, status int, format string) {
	m.requests.WithLabelValues(route, strconv.Itoa(status), format).Inc()
}

// The metrics are the admission.Observer of the server's Gate: they count what it decides.

func (m *metrics) LimiterFailed() { m.limiterErrors.Inc() }
func (m *metrics) RateLimited()   { m.rateLimited.Inc() }
func (m *metrics) Started()       { m.inFlight.Inc() }
func (m *metrics) Finished()      { m.inFlight.Dec() }

// Made records the time a code took.
func (m *metrics) Made(format api.Format, d time.Duration) {
	m.generation.WithLabelValues(string(format)).Observe(d.Seconds())
}

// MetricsHandler returns the handler of the Prometheus metrics, for /metrics on the service's
// port or on a port of its own (--metrics-addr).
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.metrics.registry, promhttp.HandlerOpts{})
}
