package telemetry

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/internal/accesslog"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
)

// served answers one request through Handler over a handler that answers status, and returns
// the response, the log line and the registry.
func served(t *testing.T, r *http.Request, status int) (*httptest.ResponseRecorder, map[string]any, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	var log bytes.Buffer
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(status)
		w.Write([]byte("body"))
	}), Config{Log: accesslog.New(&log, "json"), Metrics: NewMetrics(reg),
		Route: func(r *http.Request) string { return "/known" }})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	var line map[string]any
	if err := json.Unmarshal(log.Bytes(), &line); err != nil {
		t.Fatalf("log line %q: %v", log.String(), err)
	}
	return w, line, reg
}

// TestHandlerLogs: the log line has the route, status, bytes, duration_ms, the request id sent
// back, and the caller's trace id; a 5xx is an ERROR.
func TestHandlerLogs(t *testing.T) {
	r := httptest.NewRequest("GET", "/known?text=secret", nil)
	r.Header.Set("Traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	r.Header.Set("X-Request-Id", "client-id.1")
	w, line, _ := served(t, r, 503)
	if got := w.Header().Get("X-Request-Id"); got != "client-id.1" {
		t.Errorf("X-Request-Id %q, want the client's", got)
	}
	for k, want := range map[string]any{"level": "ERROR", "route": "/known", "status": 503.0, "bytes": 4.0,
		"request_id": "client-id.1", "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"} {
		if line[k] != want {
			t.Errorf("%s = %v, want %v (line %v)", k, line[k], want, line)
		}
	}
	if _, ok := line["duration_ms"].(float64); !ok {
		t.Errorf("no duration_ms in %v", line)
	}

	r = httptest.NewRequest("GET", "/known", nil)
	r.Header.Set("Traceparent", "00-00000000000000000000000000000000-00f067aa0ba902b7-01")
	r.Header.Set("X-Request-Id", "not plain!")
	w, line, _ = served(t, r, 404)
	id := w.Header().Get("X-Request-Id")
	if len(id) != 16 || line["request_id"] != id {
		t.Errorf("request id %q logged as %v, want a new 16-digit id", id, line["request_id"])
	}
	if _, ok := line["trace_id"]; ok || line["level"] != "INFO" {
		t.Errorf("an invalid traceparent or a 4xx: %v", line)
	}
}

// TestHandlerMetrics: the duration histogram counts by route, method (a method outside the
// standard ones is "other") and status class, in flight returns to 0, and promlint (what
// promtool check metrics runs) finds nothing to say about the families.
func TestHandlerMetrics(t *testing.T) {
	for _, c := range []struct {
		method, wantMethod string
		status             int
		wantClass          string
	}{
		{"GET", "GET", 200, "2xx"}, {"POST", "POST", 429, "4xx"}, {"BREW", "other", 500, "5xx"},
	} {
		_, _, reg := served(t, httptest.NewRequest(c.method, "/known", nil), c.status)
		want := `bananaqr_http_request_duration_seconds_count{method="` + c.wantMethod + `",route="/known",status_class="` + c.wantClass + `"} 1`
		text := gathered(t, reg)
		if !strings.Contains(text, want) || !strings.Contains(text, "bananaqr_http_requests_in_flight 0") ||
			!strings.Contains(text, `bananaqr_build_info{goversion="go`) {
			t.Errorf("%s %d: want %s, in-flight 0 and the build info in\n%s", c.method, c.status, want, text)
		}
		problems, err := promlint.New(strings.NewReader(text)).Lint()
		if err != nil || len(problems) > 0 {
			t.Errorf("promlint: %v %v", err, problems)
		}
	}
}

// gathered returns reg's metrics in the text exposition format.
func gathered(t *testing.T, reg *prometheus.Registry) string {
	t.Helper()
	w := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	return w.Body.String()
}

// TestStatusClass: every status maps to its class; out of range is "other".
func TestStatusClass(t *testing.T) {
	for status, want := range map[int]string{100: "1xx", 204: "2xx", 304: "3xx", 499: "4xx", 599: "5xx", 0: "other", 600: "other"} {
		if got := statusClass(status); got != want {
			t.Errorf("statusClass(%d) = %s, want %s", status, got, want)
		}
	}
}
