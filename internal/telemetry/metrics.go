package telemetry

import (
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/bananaqr/bananaqr/internal/buildinfo"
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the HTTP metrics of a server, by the names both servers share (the Prometheus
// naming conventions: base units, _total for counters, _seconds for durations).
type Metrics struct {
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge

	mu        sync.RWMutex
	observers map[durationLabels]prometheus.Observer // found once by label, then kept
}

// durationLabels are the labels of a request's duration.
type durationLabels struct{ route, method, class string }

// NewMetrics registers a server's HTTP metrics and its build information with reg:
//
//   - bananaqr_http_request_duration_seconds, a histogram by route, method and status class
//     (2xx, 4xx, …; a request whose client went away first is counted as 4xx, nginx's 499);
//   - bananaqr_http_requests_in_flight, the requests being answered now;
//   - bananaqr_build_info, 1, labelled with the version, the Go version and the commit.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "bananaqr_http_request_duration_seconds",
			Help:    "Time from a request's arrival to the end of its answer, by route, method and status class.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}},
			[]string{"route", "method", "status_class"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "bananaqr_http_requests_in_flight", Help: "HTTP requests being answered now."}),
		observers: map[durationLabels]prometheus.Observer{},
	}
	reg.MustRegister(m.duration, m.inFlight, buildInfo())
	return m
}

// observe records the duration of a request answered with status.
func (m *Metrics) observe(route, method string, status int, d time.Duration) {
	l := durationLabels{route, methodLabel(method), statusClass(status)}
	m.mu.RLock()
	o, ok := m.observers[l]
	m.mu.RUnlock()
	if !ok {
		o = m.duration.WithLabelValues(l.route, l.method, l.class)
		m.mu.Lock()
		m.observers[l] = o
		m.mu.Unlock()
	}
	o.Observe(d.Seconds())
}

// methodLabel is the method label of a request: its method when it is one of RFC 9110's
// (section 9) or PATCH (RFC 5789), else "other", so that a client cannot add labels at will.
func methodLabel(method string) string {
	switch method {
	case "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH":
		return method
	}
	return "other"
}

// statusClasses are the status_class labels, by the status's first digit.
var statusClasses = [...]string{"other", "1xx", "2xx", "3xx", "4xx", "5xx"}

// statusClass is the class of status (RFC 9110, section 15): "2xx" for 200 to 299, and so on.
func statusClass(status int) string {
	if c := status / 100; 1 <= c && c <= 5 {
		return statusClasses[c]
	}
	return statusClasses[0]
}

// buildInfo returns bananaqr_build_info: the version the binary reports (internal/buildinfo),
// the Go version that built it and the commit it was built from ("unknown" when the build did
// not record one).
func buildInfo() prometheus.Collector {
	revision := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				revision = s.Value
			}
		}
	}
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "bananaqr_build_info", Help: "1, labelled with the binary's version, the Go version that built it and its commit.",
		ConstLabels: prometheus.Labels{"version": buildinfo.Version(), "goversion": runtime.Version(), "revision": revision}})
	g.Set(1)
	return g
}
