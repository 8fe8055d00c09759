package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/logtest"
	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
)

// expensesServer is an expenses server a test started in this process.
type expensesServer struct {
	addr  string          // where it listens
	log   *logtest.Buffer // its stderr
	token string          // a bearer token of the user Anna
}

// startObserved starts expenses serve with args over the database dsn (a SQLite file or a
// PostgreSQL URL) with the user Anna, logging JSON, until the test ends.
func startObserved(t *testing.T, dsn string, args ...string) *expensesServer {
	t.Helper()
	storage := []string{"--db", dsn}
	if strings.HasPrefix(dsn, "postgres") {
		storage = []string{"--database-url", dsn}
	}
	if _, errOut, code := runExpenses(t, append([]string{"user", "add", "Anna"}, storage...)...); code != 0 {
		t.Fatal(errOut)
	}
	token, errOut, code := runExpenses(t, append([]string{"token", "Anna"}, storage...)...)
	if code != 0 {
		t.Fatal(errOut)
	}
	s := &expensesServer{log: &logtest.Buffer{}, token: strings.TrimSpace(token)}
	env := map[string]string{"BANANAQR_EXPENSES_ADDR": "127.0.0.1:0", "BANANAQR_EXPENSES_LOG_FORMAT": "json"}
	ctx, cancel := context.WithCancel(context.Background())
	addrs, done := make(chan net.Addr, 1), make(chan int, 1)
	go func() {
		done <- expensesServe(ctx, append(storage, args...), func(k string) string { return env[k] }, s.log, func(a net.Addr) { addrs <- a })
	}()
	select {
	case a := <-addrs:
		s.addr = a.String()
		t.Cleanup(func() { cancel(); <-done })
	case code := <-done:
		cancel()
		t.Fatalf("exit %d: %s", code, s.log.String())
	}
	return s
}

// call sends body to the server's /mcp with the token when withToken, and returns the status
// and the answer.
func (s *expensesServer) call(t *testing.T, body string, withToken bool) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", "http://"+s.addr+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	if withToken {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// toolCall is the body of a tools/call of tool with the JSON object arguments.
func toolCall(tool, arguments string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + arguments + `}}`
}

// getURL fetches url and returns its status, its X-Request-Id and its body.
func getURL(t *testing.T, url string, header ...string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("X-Request-Id"), string(b)
}

// scrape fetches the metrics at url and holds them to promlint (what promtool check metrics
// runs): no problem may be found.
func scrape(t *testing.T, url string) string {
	t.Helper()
	status, _, body := getURL(t, url)
	if status != 200 {
		t.Fatalf("%s: %d %s", url, status, body)
	}
	if problems, err := promlint.New(strings.NewReader(body)).Lint(); err != nil || len(problems) != 0 {
		t.Errorf("%s: promlint: %v %v", url, err, problems)
	}
	return body
}

// sample returns the value of the sample of metrics named name with all of labels
// (`key="value"` each), or -1 when there is none.
func sample(metrics, name string, labels ...string) float64 {
	for line := range strings.Lines(metrics) {
		series, value, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || series != name && !strings.HasPrefix(series, name+"{") {
			continue
		}
		all := true
		for _, l := range labels {
			all = all && strings.Contains(series, l)
		}
		if all {
			v, _ := strconv.ParseFloat(value, 64)
			return v
		}
	}
	return -1
}

// sharedFamilies are the metric families both servers have.
var sharedFamilies = []string{"bananaqr_http_request_duration_seconds_count", "bananaqr_http_requests_in_flight",
	"bananaqr_build_info", "go_goroutines", "process_resident_memory_bytes"}

// TestMetricsBothServers scrapes /metrics of the QR service and of the expenses server: both
// promlint clean, with the families they share; on each a request moves the duration histogram,
// a tool call counts by tool and outcome, and a request (a write) past the rate limit counts as
// limited.
func TestMetricsBothServers(t *testing.T) {
	checkQRMetrics(t)
	s := startObserved(t, filepath.Join(t.TempDir(), "e.db"), "--write-limit", "1")
	metrics := "http://" + s.addr + "/metrics"
	before := scrape(t, metrics)
	getURL(t, "http://"+s.addr+"/healthz")
	s.call(t, toolCall("get_me", "{}"), true)
	s.call(t, toolCall("get_expense", `{"id":"nope"}`), true)
	s.call(t, toolCall("no_such_tool", "{}"), true)
	for _, g := range []string{"A", "B"} {
		s.call(t, toolCall("create_group", `{"name":"`+g+`","currency":"EUR"}`), true)
	}
	after := scrape(t, metrics)
	for _, f := range append(sharedFamilies, "bananaqr_rate_limit_decisions_total", "bananaqr_mcp_tool_calls_total") {
		if sample(after, f) < 0 {
			t.Errorf("the expenses server's metrics lack %s", f)
		}
	}
	healthz := []string{`route="/healthz"`, `method="GET"`, `status_class="2xx"`}
	if b, a := sample(before, "bananaqr_http_request_duration_seconds_count", healthz...), sample(after, "bananaqr_http_request_duration_seconds_count", healthz...); a != max(b, 0)+1 {
		t.Errorf("GET /healthz: the histogram's count went from %v to %v", b, a)
	}
	for _, c := range []struct {
		labels []string
		want   float64
	}{
		{[]string{`tool="get_me"`, `outcome="ok"`}, 1},
		{[]string{`tool="get_expense"`, `outcome="error"`}, 1},
		{[]string{`tool="other"`, `outcome="failed"`}, 1},
		{[]string{`tool="create_group"`, `outcome="ok"`}, 1},
		{[]string{`tool="create_group"`, `outcome="error"`}, 1},
	} {
		if got := sample(after, "bananaqr_mcp_tool_calls_total", c.labels...); got != c.want {
			t.Errorf("bananaqr_mcp_tool_calls_total%v = %v, want %v", c.labels, got, c.want)
		}
	}
	for decision, want := range map[string]float64{"allowed": 1, "limited": 1} {
		if got := sample(after, "bananaqr_rate_limit_decisions_total", `decision="`+decision+`"`); got != want {
			t.Errorf("decisions %s: %v, want %v", decision, got, want)
		}
	}
}

// TestExpensesMetricsAddr: with --metrics-addr the metrics are served on that address, and not
// on the server's.
func TestExpensesMetricsAddr(t *testing.T) {
	s := startObserved(t, filepath.Join(t.TempDir(), "e.db"), "--metrics-addr", "127.0.0.1:0")
	s.log.WaitFor(t, `"msg":"metrics listening"`)
	m := regexp.MustCompile(`"msg":"metrics listening","addr":"([^"]+)"`).FindStringSubmatch(s.log.String())
	if m == nil {
		t.Fatalf("no metrics address in the log:\n%s", s.log.String())
	}
	if body := scrape(t, "http://"+m[1]+"/metrics"); sample(body, "bananaqr_mcp_tool_calls_total") < 0 {
		t.Errorf("the metrics address serves no tool calls:\n%.500s", body)
	}
	if status, _, _ := getURL(t, "http://"+s.addr+"/metrics"); status != http.StatusNotFound {
		t.Errorf("/metrics on the server's address with --metrics-addr: %d, want 404", status)
	}
}

// TestExpensesRequestIDs: a plain X-Request-Id is echoed, any other (or none) replaced by a new
// one, and the access log's line of each request has its id, its route (unknown paths as
// "(unknown)"), its duration in milliseconds and the trace id of its traceparent.
func TestExpensesRequestIDs(t *testing.T) {
	s := startObserved(t, filepath.Join(t.TempDir(), "e.db"))
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	_, echoed, _ := getURL(t, "http://"+s.addr+"/healthz", "X-Request-Id", "lb-42.a_b", "Traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	_, generated, _ := getURL(t, "http://"+s.addr+"/no/such/path")
	_, replaced, _ := getURL(t, "http://"+s.addr+"/readyz", "X-Request-Id", strings.Repeat("x", 65))
	if echoed != "lb-42.a_b" || !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(generated) || !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(replaced) {
		t.Fatalf("request ids: echoed %q, generated %q, replaced %q", echoed, generated, replaced)
	}
	s.log.WaitFor(t, replaced)
	want := map[string]map[string]any{
		echoed:    {"route": "/healthz", "status": 200.0, "trace_id": traceID},
		generated: {"route": "(unknown)", "status": 404.0},
		// Its status is left out: /readyz is 503 when the database takes over 50 ms to answer,
		// as it can on a loaded machine under the race detector (TestExpensesProbes holds it).
		replaced: {"route": "/readyz"},
	}
	for line := range strings.Lines(s.log.String()) {
		var entry map[string]any
		if json.Unmarshal([]byte(line), &entry) != nil || entry["msg"] != "request" {
			continue
		}
		id, _ := entry["request_id"].(string)
		for k, v := range want[id] {
			if entry[k] != v {
				t.Errorf("request %s: %s = %v, want %v", id, k, entry[k], v)
			}
		}
		if _, ok := entry["duration_ms"].(float64); !ok || want[id] == nil {
			t.Errorf("an access line without duration_ms or of an unknown request id: %s", line)
		}
		delete(want, id)
	}
	if len(want) != 0 {
		t.Errorf("no access line of %v:\n%s", want, s.log.String())
	}
}

// TestExpensesProbes: /healthz and /readyz answer 200 with JSON on both engines, and
// /readyz's answer is not cached.
func TestExpensesProbes(t *testing.T) {
	for _, engine := range []struct{ name, dsn func(*testing.T) string }{
		{func(*testing.T) string { return "sqlite" }, storetest.SQLitePath},
		{func(*testing.T) string { return "postgres" }, storetest.PostgresURL},
	} {
		t.Run(engine.name(t), func(t *testing.T) {
			s := startObserved(t, engine.dsn(t))
			for path, want := range map[string]string{"/healthz": `{"ok":true}`, "/readyz": `{"ok":true,"database":"up"}`} {
				if status, _, body := getURL(t, "http://"+s.addr+path); status != 200 || strings.TrimSpace(body) != want {
					t.Errorf("%s: %d %s, want 200 %s", path, status, body, want)
				}
			}
		})
	}
}

// TestExpensesFlagsEnv: every flag of expenses serve is set by its environment variable
// BANANAQR_EXPENSES_<NAME> when not on the command line, the command line wins, and -h lists each
// with its variable in bananaqr serve's form.
func TestExpensesFlagsEnv(t *testing.T) {
	values := map[string][2]string{ // by flag: the variable's value, the command line's
		"addr": {"127.0.0.1:1", "127.0.0.1:2"}, "allow-any-host": {"true", "false"}, "base-url": {"https://a.example", "https://b.example"},
		"database-url": {"postgres://a/x", "postgres://b/x"}, "db": {"a.db", "b.db"}, "docs-url": {"https://a.example/d", "https://b.example/d"},
		"idle-timeout": {"7s", "8s"}, "ipv6-prefix": {"56", "48"}, "log-format": {"json", "text"}, "max-conns": {"100", "200"},
		"max-conns-per-client": {"10", "20"}, "metrics-addr": {"127.0.0.1:3", "127.0.0.1:4"}, "read-header-timeout": {"2s", "3s"},
		"shutdown-timeout": {"4s", "5s"}, "shutdown-delay": {"1s", "2s"}, "write-limit": {"7", "9"},
		"otlp-endpoint": {"http://a.example:4318", "http://b.example:4318"},
		"oauth":         {"false", "true"}, "registration": {"allowlist", "off"},
		"redirect-allowlist": {"https://a.example/cb", "https://b.example/cb"},
		"access-token-ttl":   {"30m0s", "20m0s"}, "refresh-token-ttl": {"48h0m0s", "24h0m0s"},
		"oidc-issuer": {"https://id-a.example", "https://id-b.example"}, "oidc-client-id": {"a", "b"},
		"oidc-client-secret": {"sa", "sb"}, "oidc-username-claim": {"email", "sub"}, "oidc-name": {"A", "B"},
		"trusted-proxies": {"10.0.0.0/8", "192.168.0.1"},
	}
	env := map[string]string{}
	var args []string
	for name, v := range values {
		env[expensesEnvName(name)] = v[0]
		args = append(args, "--"+name+"="+v[1])
	}
	fromEnv, err := newExpensesServeFlags(func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	fromArgs, _ := newExpensesServeFlags(func(k string) string { return env[k] }, io.Discard)
	if _, err := fromArgs.parse(args); err != nil {
		t.Fatal(err)
	}
	var help bytes.Buffer
	run([]string{"expenses", "serve", "-h"}, nil, io.Discard, &help)
	n := 0
	fromEnv.VisitAll(func(f *flag.Flag) {
		n++
		if v, ok := values[f.Name]; !ok {
			t.Errorf("--%s has no values in this test", f.Name)
		} else if got, gotArg := f.Value.String(), fromArgs.Lookup(f.Name).Value.String(); got != v[0] || gotArg != v[1] {
			t.Errorf("--%s: %s=%q gives %q, and --%s=%q with it %q", f.Name, expensesEnvName(f.Name), v[0], got, f.Name, v[1], gotArg)
		}
		if !strings.Contains(help.String(), "  --"+f.Name+" ") || !strings.Contains(help.String(), "("+expensesEnvName(f.Name)+")") {
			t.Errorf("-h lacks --%s with (%s)", f.Name, expensesEnvName(f.Name))
		}
	})
	if n != len(values) {
		t.Errorf("%d flags, %d in this test", n, len(values))
	}
}

// TestExpensesReadyzStalledPostgres runs the server on PostgreSQL through a proxy that then
// stops answering (a network partition: connections cut, new ones accepted and never
// answered): /readyz turns 503 with a JSON body, within its bound, and logs why.
func TestExpensesReadyzStalledPostgres(t *testing.T) {
	dsn, err := url.Parse(storetest.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := startStallProxy(t, dsn.Host)
	dsn.Host = proxy.ln.Addr().String()
	s := startObserved(t, dsn.String())
	if status, _, body := getURL(t, "http://"+s.addr+"/readyz"); status != 200 {
		t.Fatalf("/readyz through the proxy: %d %s", status, body)
	}
	proxy.stall()
	for i := range 3 { // the first finds its connection cut, the next dial a server that never answers
		start := time.Now()
		status, _, body := getURL(t, "http://"+s.addr+"/readyz")
		if d := time.Since(start); status != http.StatusServiceUnavailable || strings.TrimSpace(body) != `{"ok":false,"database":"down"}` || d > 500*time.Millisecond {
			t.Errorf("/readyz %d with PostgreSQL stalled: %d %s in %v, want 503 within 500 ms", i, status, body, d)
		}
	}
	if status, _, _ := getURL(t, "http://"+s.addr+"/healthz"); status != 200 {
		t.Errorf("/healthz with PostgreSQL stalled: %d", status)
	}
	s.log.WaitFor(t, `"msg":"not ready"`)
}

// stallProxy forwards TCP connections to a target until stalled; from then on it has cut
// every connection and holds new ones open without a byte.
type stallProxy struct {
	ln      net.Listener
	mu      sync.Mutex
	stalled bool
	conns   []net.Conn
}

// startStallProxy starts a proxy to target on a loopback port until the test ends.
func startStallProxy(t *testing.T, target string) *stallProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{ln: ln}
	t.Cleanup(func() { ln.Close(); p.stall() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			p.conns = append(p.conns, c)
			stalled := p.stalled
			p.mu.Unlock()
			if !stalled {
				p.forward(c, target)
			}
		}
	}()
	return p
}

// forward copies between c and a new connection to target, both ways.
func (p *stallProxy) forward(c net.Conn, target string) {
	up, err := net.Dial("tcp", target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns = append(p.conns, up)
	p.mu.Unlock()
	go io.Copy(up, c)
	go io.Copy(c, up)
}

// stall cuts every connection and forwards no more.
func (p *stallProxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stalled = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// TestExpensesShutdownDelay: with --shutdown-delay, SIGTERM (ctx done) turns /readyz to 503
// {"draining":true} while the server goes on answering, and the server stops once the delay is
// over, exit 0.
func TestExpensesShutdownDelay(t *testing.T) {
	var log logtest.Buffer
	env := map[string]string{"BANANAQR_EXPENSES_ADDR": "127.0.0.1:0", "BANANAQR_EXPENSES_DB": filepath.Join(t.TempDir(), "e.db"),
		"BANANAQR_EXPENSES_SHUTDOWN_DELAY": "700ms"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs, done := make(chan net.Addr, 1), make(chan int, 1)
	go func() {
		done <- expensesServe(ctx, nil, func(k string) string { return env[k] }, &log, func(a net.Addr) { addrs <- a })
	}()
	addr := (<-addrs).String()
	if status, _, _ := getURL(t, "http://"+addr+"/readyz"); status != 200 {
		t.Fatalf("/readyz before the signal: %d", status)
	}
	cancel()
	log.WaitFor(t, "draining")
	status, _, body := getURL(t, "http://"+addr+"/readyz")
	if status != http.StatusServiceUnavailable || strings.TrimSpace(body) != `{"ok":false,"database":"up","draining":true}` {
		t.Errorf("/readyz while draining: %d %s", status, body)
	}
	if status, _, _ := getURL(t, "http://"+addr+"/healthz"); status != 200 {
		t.Errorf("/healthz while draining: %d", status)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still serving 5 s after the signal")
	}
}

// checkQRMetrics starts the QR service with a rate limit of one code a minute, makes a code
// with its MCP tool and then two with GET (limited), and checks that its metrics are promlint
// clean, have the families both servers share and count those.
func checkQRMetrics(t *testing.T) {
	addr := startServer(t, serveConfig{addr: "127.0.0.1:0", logFormat: "json", rateLimit: 1, maxQueue: 8, shutdownTimeout: time.Second})
	qr := &expensesServer{addr: addr} // the same /mcp transport, no token
	if status, body := qr.call(t, toolCall("generate_qr", `{"type":"text","text":"x"}`), false); status != 200 {
		t.Errorf("generate_qr: %d %s", status, body)
	}
	for range 2 {
		getURL(t, "http://"+addr+"/api/qr-code.svg?text=x")
	}
	metrics := scrape(t, "http://"+addr+"/metrics")
	for _, f := range append(sharedFamilies, "bananaqr_rate_limit_decisions_total", "bananaqr_mcp_tool_calls_total") {
		if sample(metrics, f) < 0 {
			t.Errorf("the QR service's metrics lack %s", f)
		}
	}
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"bananaqr_http_request_duration_seconds_count", []string{`route="/api/qr-code.svg"`, `method="GET"`, `status_class="4xx"`}, 2},
		{"bananaqr_mcp_tool_calls_total", []string{`tool="generate_qr"`, `outcome="ok"`}, 1},
		{"bananaqr_rate_limit_decisions_total", []string{`decision="allowed"`}, 1},
		{"bananaqr_rate_limit_decisions_total", []string{`decision="limited"`}, 2},
	} {
		if got := sample(metrics, c.name, c.labels...); got != c.want {
			t.Errorf("QR service: %s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
}
