package httpapi

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/internal/mcpserver"
	"github.com/bananaqr/bananaqr/internal/mcptest"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
)

// TestMetrics checks /metrics after a few requests: requests by route, status and format,
// generation latency, the rate limit's decisions, codes and requests in flight, the build info;
// promlint (promtool check metrics) clean; and no payload in any label.
func TestMetrics(t *testing.T) {
	ts := newTestServer(t, Config{Limiter: ratelimit.NewMemory(2, time.Minute, nil)})
	ts.get(t, "/api/qr-code.png?text=secret-metric-payload")
	ts.post(t, `{"type":"wifi","ssid":"MetricNet","password":"metricpass1","format":"json"}`)
	ts.get(t, "/api/qr-code.svg?text=third")                                                                // over the budget of 2
	mcptest.CallTool(t, mcpSession(t, ts), mcpserver.ToolName, map[string]any{"type": "text", "text": "x"}) // a tool error: over it
	r := ts.get(t, "/metrics")
	if r.status != http.StatusOK {
		t.Fatalf("/metrics: %d", r.status)
	}
	body := string(r.body)
	for _, want := range []string{
		`bananaqr_http_requests_total{format="png",route="/api/qr-code.png",status="200"} 1`,
		`bananaqr_http_requests_total{format="json",route="/api/qr-code",status="200"} 1`,
		`bananaqr_http_requests_total{format="",route="/api/qr-code.svg",status="429"} 1`,
		`bananaqr_generation_seconds_count{format="png"} 1`,
		`bananaqr_rate_limit_decisions_total{decision="limited"} 2`,
		`bananaqr_mcp_tool_calls_total{outcome="error",tool="generate_qr"} 1`,
		`bananaqr_mcp_tool_calls_total{outcome="ok",tool="generate_qr"} 0`,
		`bananaqr_rate_limit_decisions_total{decision="allowed"} 2`,
		`bananaqr_rate_limit_decisions_total{decision="failed_open"} 0`,
		`bananaqr_http_request_duration_seconds_count{method="GET",route="/api/qr-code.png",status_class="2xx"} 1`,
		`bananaqr_http_request_duration_seconds_count{method="POST",route="/api/qr-code",status_class="2xx"} 1`,
		`bananaqr_http_requests_in_flight 1`, // the request for /metrics
		`bananaqr_build_info{`,
		`bananaqr_rate_limiter_backend_errors_total 0`,
		`bananaqr_renders_in_flight 0`,
		`go_goroutines`, `process_resident_memory_bytes`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	// promtool check metrics runs promlint over the text: no problem may be found.
	if problems, err := promlint.New(strings.NewReader(body)).Lint(); err != nil || len(problems) != 0 {
		t.Errorf("promlint: %v %v", err, problems)
	}
	for _, leak := range []string{"secret-metric-payload", "MetricNet", "metricpass1", "text="} {
		if strings.Contains(body, leak) {
			t.Errorf("/metrics holds %q", leak)
		}
	}
	if r := newTestServer(t, Config{OwnMetricsPort: true}).do(t, http.MethodGet, "/metrics", "", nil); r.status != http.StatusNotFound {
		t.Errorf("/metrics with its own port: %d on the service's", r.status)
	}
}
