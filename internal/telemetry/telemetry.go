// Package telemetry gives both of bananaqr's HTTP servers (the QR service and the expenses
// server) the same signals for every request, under the same names: a request id, the caller's
// W3C trace context, one access-log line (internal/accesslog), the Prometheus metrics an
// operator expects of an HTTP server, and an OpenTelemetry span when an exporter is configured.
//
// Handler is the one way a request goes through them: each server wraps its routes in it once.
package telemetry

import (
	"net/http"
	"time"

	"github.com/bananaqr/bananaqr/internal/accesslog"
	"go.opentelemetry.io/otel/trace"
)

// HeaderRequestID is the header that carries a request's id, from the client (when it is short
// and plain) and back in the response.
const HeaderRequestID = "X-Request-Id"

// Config says where Handler's signals go.
type Config struct {
	// Log writes the access log.
	Log *accesslog.Log
	// Metrics count and time the requests.
	Metrics *Metrics
	// Route names the route a request is logged and counted under: one of a fixed set, never
	// the raw path of an unknown URL (a label of unbounded cardinality).
	Route func(*http.Request) string
	// Tracing, when set, exports a server span of each request, the parent of the spans below
	// it (Tracing.Start on the request's context).
	Tracing *Tracing
	// Answered, when set, is called once the request is answered, with its route and what was
	// sent (a server's own metrics: the QR service counts responses by format).
	Answered func(r *http.Request, route string, rec *accesslog.Recorder)
}

// Handler wraps next with the signals of c: it gives the request an id (the client's
// X-Request-Id when plain, else a new one, echoed in the response), reads its traceparent,
// counts it in flight, starts its span when tracing is on, and once answered observes its
// duration and writes its log line, with the trace id of the caller's traceparent (or of the
// new trace, when tracing is on). Never the query string nor the body, which may hold payloads.
func Handler(next http.Handler, c Config) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := RequestID(r)
		w.Header()[HeaderRequestID] = []string{id}
		traceID, _ := ParseTraceparent(r.Header.Get(headerTraceparent))
		route := c.Route(r)
		var span trace.Span
		if c.Tracing != nil {
			r, span = c.Tracing.startRequest(r, route)
		}
		c.Metrics.inFlight.Inc()
		rec := accesslog.NewRecorder(w)
		next.ServeHTTP(rec, r)
		c.Metrics.inFlight.Dec()
		if span != nil {
			traceID = endRequest(span, rec.Status, id)
		}
		if c.Answered != nil {
			c.Answered(r, route, rec)
		}
		end := time.Now()
		c.Metrics.observe(route, r.Method, rec.Status, end.Sub(start))
		c.Log.Write(accesslog.Entry{Time: end, Method: r.Method, Route: route, Status: rec.Status, Bytes: rec.Bytes,
			Duration: end.Sub(start), RequestID: id, TraceID: traceID})
	})
}

// ResponseRequestID returns the id Handler gave the request answered on w, for a server's other
// log lines about it.
func ResponseRequestID(w http.ResponseWriter) string { return w.Header().Get(HeaderRequestID) }
