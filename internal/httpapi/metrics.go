// Metrics: the service's Prometheus metrics, what admission's Gate decides among them, and the
// handler that serves them.

package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/admission"
	"github.com/bananaqr/bananaqr/internal/mcpserver"
	"github.com/bananaqr/bananaqr/internal/telemetry"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the service's Prometheus metrics, in a registry of its own. Labels carry routes,
// statuses and formats only: never a payload or a query string.
type metrics struct {
	registry      *prometheus.Registry
	http          *telemetry.Metrics       // the HTTP metrics both servers share
	toolCalls     *telemetry.ToolCalls     // the MCP tool calls, by tool and outcome
	requests      *prometheus.CounterVec   // by route, status and format
	generation    *prometheus.HistogramVec // seconds to make a code, by format
	decisions     [3]prometheus.Counter    // the rate limit's, by admission.LimitDecision
	limiterErrors prometheus.Counter
	inFlight      prometheus.Gauge

	made map[api.Format]prometheus.Observer // generation's histogram of each format

	mu      sync.RWMutex
	counted map[requestLabels]prometheus.Counter // requests' counters, found once by label
}

// requestLabels are the labels of a request's counter.
type requestLabels struct {
	route  string
	status int
	format string
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bananaqr_http_requests_total", Help: "HTTP requests answered, by route, status (499 when the client went away first) and format (" +
				strings.Join(api.StyleValues("format"), ", ") + "; empty when none)."},
			[]string{"route", "status", "format"}),
		generation: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "bananaqr_generation_seconds", Help: "Time to make a code (payload, symbol and image), by format.",
			Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1}},
			[]string{"format"}),
		limiterErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "bananaqr_rate_limiter_backend_errors_total", Help: "Requests let through because the rate limiter's backend (Redis) failed."}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "bananaqr_renders_in_flight", Help: "Codes being made now."}),
		counted: map[requestLabels]prometheus.Counter{},
	}
	m.http = telemetry.NewMetrics(m.registry)
	m.toolCalls = telemetry.NewToolCalls(m.registry, []string{mcpserver.ToolName})
	m.made = map[api.Format]prometheus.Observer{}
	for _, f := range api.StyleValues("format") {
		m.made[api.Format(f)] = m.generation.WithLabelValues(f)
	}
	decisions := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bananaqr_rate_limit_decisions_total",
		Help: "The rate limit's decisions on requests and tool calls: allowed, limited (refused: 429) or failed_open (its backend, Redis, failed: let through without a limit)."},
		[]string{"decision"})
	for d := range m.decisions {
		m.decisions[d] = decisions.WithLabelValues(admission.LimitDecision(d).String())
	}
	m.registry.MustRegister(m.requests, m.generation, decisions, m.limiterErrors, m.inFlight,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// observeRequest counts an answered request. Its counter is looked up by its labels once and
// kept: the vector's own lookup hashes and formats the labels on every request.
func (m *metrics) observeRequest(route string, status int, format string) {
	l := requestLabels{route, status, format}
	m.mu.RLock()
	c, ok := m.counted[l]
	m.mu.RUnlock()
	if !ok {
		c = m.requests.WithLabelValues(route, strconv.Itoa(status), format)
		m.mu.Lock()
		m.counted[l] = c
		m.mu.Unlock()
	}
	c.Inc()
}

// The metrics are the admission.Observer of the server's Gate: they count what it decides.

func (m *metrics) Started()  { m.inFlight.Inc() }
func (m *metrics) Finished() { m.inFlight.Dec() }

// Decided counts one of the rate limit's decisions, and a failed backend as an error too.
func (m *metrics) Decided(d admission.LimitDecision) {
	m.decisions[d].Inc()
	if d == admission.FailedOpen {
		m.limiterErrors.Inc()
	}
}

// Made records the time a code took.
func (m *metrics) Made(format api.Format, d time.Duration) {
	o, ok := m.made[format]
	if !ok {
		o = m.generation.WithLabelValues(string(format))
	}
	o.Observe(d.Seconds())
}

// watchBackend adds bananaqr_rate_limiter_backend_up, the state of limiter's backend
// (backendUp), read at each scrape.
func (m *metrics) watchBackend(limiter any) {
	m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "bananaqr_rate_limiter_backend_up",
		Help: "Whether the rate limiter's backend (Redis) answered when last asked (1) or not (0: requests are let through without a limit); 1 when the limit is kept in memory or off."},
		backendUp(limiter)))
}

// MetricsHandler returns the handler of the Prometheus metrics, for /metrics on the service's
// port or on a port of its own (--metrics-addr).
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.metrics.registry, promhttp.HandlerOpts{})
}
