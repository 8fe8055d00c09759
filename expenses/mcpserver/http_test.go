package mcpserver

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/accesslog"
	"github.com/bananaqr/bananaqr/internal/cors"
	"github.com/bananaqr/bananaqr/internal/cors/corstest"
	"github.com/bananaqr/bananaqr/internal/logtest"
	"github.com/bananaqr/bananaqr/internal/telemetry"
	"github.com/prometheus/client_golang/prometheus"
)

// TestMetadata checks the protected resource metadata (RFC 9728) at both of its paths: the
// same JSON document, application/json, cacheable with an ETag answered 304, readable from any
// origin, GET and HEAD only.
func TestMetadata(t *testing.T) {
	f := newFixture(t, storetest.Open(t, storetest.SQLitePath(t)))
	var first []byte
	for _, path := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"} {
		got := do(t, http.MethodGet, f.base+path, "", "Origin", "https://client.example")
		var doc map[string]any
		if err := json.Unmarshal(got.body, &doc); err != nil || got.status != 200 {
			t.Fatalf("%s: %d %s %v", path, got.status, got.body, err)
		}
		want := map[string]any{"resource": f.url, "bearer_methods_supported": []any{"header"},
			"resource_name": ResourceName, "resource_documentation": f.base + "/"}
		if !equalJSON(doc, want) {
			t.Errorf("%s: %s", path, got.body)
		}
		if first == nil {
			first = got.body
		} else if !bytes.Equal(first, got.body) {
			t.Errorf("%s differs from the root form", path)
		}
		h := got.header
		if h.Get("Content-Type") != "application/json" || h.Get("Cache-Control") != "public, max-age=3600" ||
			h.Get("Access-Control-Allow-Origin") != "*" || h.Get("ETag") == "" {
			t.Errorf("%s: headers %v", path, h)
		}
		if again := do(t, http.MethodGet, f.base+path, "", "If-None-Match", h.Get("ETag")); again.status != http.StatusNotModified {
			t.Errorf("%s with If-None-Match: %d", path, again.status)
		}
		if head := do(t, http.MethodHead, f.base+path, ""); head.status != 200 || len(head.body) != 0 ||
			head.header.Get("Content-Length") != h.Get("Content-Length") {
			t.Errorf("%s HEAD: %d %v", path, head.status, head.header)
		}
		if post := do(t, http.MethodPost, f.base+path, "{}"); post.status != http.StatusMethodNotAllowed ||
			post.header.Get("Allow") != "GET, HEAD, OPTIONS" {
			t.Errorf("%s POST: %d %v", path, post.status, post.header)
		}
		pre := do(t, http.MethodOptions, f.base+path, "", "Origin", "https://client.example",
			"Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "mcp-protocol-version")
		if pre.status != http.StatusNoContent || !slices.Contains(corstest.List(pre.header, "Access-Control-Allow-Headers"), "mcp-protocol-version") {
			t.Errorf("%s preflight: %d %v", path, pre.status, pre.header)
		}
	}
	for _, path := range []string{"/.well-known/oauth-protected-resource/other", "/mcp/", "/nothing"} {
		if got := do(t, http.MethodGet, f.base+path, ""); got.status != http.StatusNotFound {
			t.Errorf("%s: %d", path, got.status)
		}
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// TestBaseURL: the handler takes only an origin as its base URL, and an absolute
// documentation URL, which the metadata then names.
func TestBaseURL(t *testing.T) {
	svc := service.New(storetest.Open(t, storetest.SQLitePath(t)), nil)
	for _, bad := range []Options{{}, {BaseURL: "expenses.example.com"}, {BaseURL: "ftp://expenses.example.com"},
		{BaseURL: "https://expenses.example.com/app"}, {BaseURL: "https://expenses.example.com/?a=b"},
		{BaseURL: "https://user@expenses.example.com"}, {BaseURL: "https://expenses.example.com", DocumentationURL: "/docs"}} {
		if _, err := Handler(svc, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	for _, good := range []string{"https://expenses.example.com", "https://expenses.example.com/", "http://127.0.0.1:8090"} {
		urls, err := newPublicURLs(good, "https://docs.example.com/expenses")
		if err != nil || urls.endpoint != strings.TrimSuffix(good, "/")+"/mcp" || urls.docs != "https://docs.example.com/expenses" ||
			urls.metadata != strings.TrimSuffix(good, "/")+"/.well-known/oauth-protected-resource/mcp" {
			t.Errorf("%s: %+v %v", good, urls, err)
		}
	}
}

// TestCORS: a browser-hosted client's preflight to /mcp is allowed every header of the MCP
// transport, the bearer token's included, and the answers, a 401 too, let its script read the
// transport's response headers and WWW-Authenticate.
func TestCORS(t *testing.T) {
	f := newFixture(t, storetest.Open(t, storetest.SQLitePath(t)))
	pre := do(t, http.MethodOptions, f.url, "", "Origin", "https://client.example", "Access-Control-Request-Method", "POST",
		"Access-Control-Request-Headers", strings.ToLower(strings.Join(cors.MCPRequestHeaders, ",")))
	allowed := corstest.List(pre.header, "Access-Control-Allow-Headers")
	if pre.status != http.StatusNoContent || pre.header.Get("Access-Control-Allow-Origin") != "*" ||
		!slices.Contains(corstest.List(pre.header, "Access-Control-Allow-Methods"), "post") {
		t.Fatalf("preflight: %d %v", pre.status, pre.header)
	}
	for _, h := range []string{"Content-Type", "Authorization", "Mcp-Protocol-Version", "Mcp-Session-Id", "Last-Event-ID", "Mcp-Method", "Mcp-Name"} {
		if !slices.Contains(allowed, strings.ToLower(h)) {
			t.Errorf("preflight does not allow %s: %v", h, allowed)
		}
	}
	for _, c := range []struct{ name, authorization string }{{"401", ""}, {"200", "Bearer " + f.tokens["Anna"]}} {
		h := []string{"Origin", "https://client.example", "Content-Type", "application/json",
			"Accept", "application/json, text/event-stream", "Mcp-Protocol-Version", "2025-06-18"}
		if c.authorization != "" {
			h = append(h, "Authorization", c.authorization)
		}
		got := do(t, http.MethodPost, f.url, callBody, h...)
		exposed := corstest.List(got.header, "Access-Control-Expose-Headers")
		if got.status == 401 != (c.name == "401") || got.header.Get("Access-Control-Allow-Origin") != "*" ||
			!slices.Contains(exposed, "www-authenticate") || !slices.Contains(exposed, "mcp-session-id") {
			t.Errorf("%s: %d %v", c.name, got.status, got.header)
		}
	}
}

// TestAccessLog sends requests that carry secrets everywhere a client can put them (the
// Authorization header, valid or not, the query string, the path, the arguments, the tool's
// and the method's names, a malformed body) and checks that the log has one line a request
// with what identifies it, and none of the secrets.
func TestAccessLog(t *testing.T) {
	st := storetest.Open(t, storetest.SQLitePath(t))
	svc := service.New(st, nil)
	var log logtest.Buffer
	f := &fixture{tokens: map[string]string{}}
	if _, err := st.CreateUser(t.Context(), "Anna"); err != nil {
		t.Fatal(err)
	}
	anna, err := svc.IssueToken(t.Context(), "Anna", 0)
	if err != nil {
		t.Fatal(err)
	}
	me, err := svc.Authenticate(t.Context(), anna)
	if err != nil {
		t.Fatal(err)
	}
	unknown, _ := service.NewToken()
	f.base = serveObserved(t, svc, slog.New(slog.NewJSONHandler(&log, nil)))
	f.url = f.base + EndpointPath
	const secret = "s3cr3t-in-the-request"
	headers := func(authorization string) []string {
		return []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
			"Mcp-Protocol-Version", "2025-06-18", "Authorization", authorization}
	}
	requests := []struct {
		method, url, body string
		headers           []string
		want              map[string]any // attributes the line must have
	}{
		{"POST", f.url + "?access_token=" + secret, callBody, headers("Bearer " + anna),
			map[string]any{"route": "/mcp", "status": 200, "rpc": "tools/call", "tool": "get_me", "user": me.UserID}},
		{"POST", f.url, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_expense","arguments":{"id":"` + secret + `"}}}`,
			headers("Bearer " + anna), map[string]any{"status": 200, "tool": "get_expense"}},
		{"POST", f.url, callBody, headers("Bearer " + unknown), map[string]any{"status": 401, "rpc": "tools/call"}},
		{"POST", f.url, callBody, headers("Bearer " + secret), map[string]any{"status": 401}},
		{"POST", f.url, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"` + secret + `"}}`, headers("Basic " + anna),
			map[string]any{"status": 200, "rpc": "tools/call"}},
		{"POST", f.url, `{"jsonrpc":"2.0","id":7,"method":"` + secret + `"}`, headers("Bearer " + anna),
			map[string]any{"rpc": "other", "user": me.UserID}},
		{"POST", f.url, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"get_me"` + secret, headers("Bearer " + anna),
			map[string]any{"status": 400}},
		{"GET", f.base + "/.well-known/oauth-protected-resource/" + secret, "", headers("Bearer " + anna),
			map[string]any{"route": "(unknown)", "status": 404}},
		{"GET", f.base + "/.well-known/oauth-protected-resource/mcp?" + secret, "", nil,
			map[string]any{"route": "/.well-known/oauth-protected-resource/mcp", "status": 200}},
		{"OPTIONS", f.url, "", []string{"Origin", "https://client.example", "Access-Control-Request-Method", "POST"},
			map[string]any{"route": "/mcp", "status": 204}},
	}
	for _, r := range requests {
		do(t, r.method, r.url, r.body, r.headers...)
	}
	out := log.String()
	for _, s := range []string{anna, unknown, secret, "Bearer", "Basic", "access_token", "authorization", "Authorization"} {
		if strings.Contains(out, s) {
			t.Errorf("the log holds %q:\n%s", s, out)
		}
	}
	lines := requestLines(t, out)
	if len(lines) != len(requests) {
		t.Fatalf("%d access log lines for %d requests:\n%s", len(lines), len(requests), out)
	}
	// Lines are written when requests end; these ran one after another.
	for i, r := range requests {
		l := lines[i]
		if l["method"] != r.method || l["duration_ms"] == nil || l["request_id"] == nil || l["bytes"] == nil {
			t.Errorf("line %d: %v", i, l)
		}
		for k, v := range r.want {
			if !equalJSON(l[k], v) {
				t.Errorf("line %d (%s %s): %s = %v, want %v", i, r.method, r.url, k, l[k], v)
			}
		}
	}
}

// serveObserved serves the edge over svc as bananaqr expenses serve does, inside
// internal/telemetry's handler whose access log goes to logger with the edge's own lines.
func serveObserved(t *testing.T, svc *service.Service, logger *slog.Logger) string {
	ts := httptest.NewUnstartedServer(nil)
	base := "http://" + ts.Listener.Addr().String()
	h, err := Handler(svc, Options{BaseURL: base, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	routes := Routes()
	ts.Config.Handler = telemetry.Handler(h, telemetry.Config{Log: accesslog.FromLogger(logger),
		Metrics: telemetry.NewMetrics(prometheus.NewRegistry()), Route: func(r *http.Request) string {
			if slices.Contains(routes, r.URL.Path) {
				return r.URL.Path
			}
			return "(unknown)"
		}})
	ts.Start()
	t.Cleanup(ts.Close)
	return base
}

// requestLines returns the access log's lines of log, in order, each with the attributes of
// the edge's "mcp" line of the same request id added.
func requestLines(t *testing.T, log string) []map[string]any {
	var lines []map[string]any
	mcpLines := map[any]map[string]any{}
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		switch m["msg"] {
		case "request":
			lines = append(lines, m)
		case "mcp":
			if mcpLines[m["request_id"]] != nil || m["request_id"] == nil {
				t.Errorf("an mcp line without a request id of its own: %v", m)
			}
			mcpLines[m["request_id"]] = m
		}
	}
	for _, l := range lines {
		for k, v := range mcpLines[l["request_id"]] {
			if k != "time" && k != "level" && k != "msg" {
				l[k] = v
			}
		}
	}
	return lines
}
