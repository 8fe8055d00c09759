package cors

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// fetchAllows is the browser's side of a preflight (Fetch 4.8, "CORS-preflight fetch", steps
// 7.3 to 7.8, for a request without credentials): whether the preflight's answer lets a script
// send method with the request headers named, and, if not, why.
func fetchAllows(res *http.Response, method string, headers []string) (bool, string) {
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return false, "status " + res.Status
	}
	if res.Header.Get("Access-Control-Allow-Origin") != "*" {
		return false, "no Access-Control-Allow-Origin: *"
	}
	list := func(name string) []string {
		var out []string
		for _, v := range strings.Split(res.Header.Get(name), ",") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, strings.ToLower(v))
			}
		}
		return out
	}
	methods, allowed := list("Access-Control-Allow-Methods"), list("Access-Control-Allow-Headers")
	if method != http.MethodGet && method != http.MethodHead && method != http.MethodPost &&
		!slices.Contains(methods, strings.ToLower(method)) && !slices.Contains(methods, "*") {
		return false, method + " not in Access-Control-Allow-Methods"
	}
	for _, h := range headers {
		h = strings.ToLower(h)
		// The wildcard covers every name but Authorization (Fetch 4.8 step 7.8).
		if !slices.Contains(allowed, h) && (h == "authorization" || !slices.Contains(allowed, "*")) {
			return false, h + " not in Access-Control-Allow-Headers " + res.Header.Get("Access-Control-Allow-Headers")
		}
	}
	return true, ""
}

// server serves a handler that answers 200 with an Mcp-Session-Id and a WWW-Authenticate,
// behind the MCP policy, for POST.
func server(t *testing.T) *httptest.Server {
	t.Helper()
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Mcp-Session-Id", "s1")
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource"`)
		w.WriteHeader(http.StatusUnauthorized)
	})
	ts := httptest.NewServer(New(MCPRequestHeaders, MCPResponseHeaders, time.Hour).Handler(http.MethodPost, next))
	t.Cleanup(ts.Close)
	return ts
}

// send sends a request with the headers given and returns its response, body closed.
func send(t *testing.T, method, url string, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// TestPreflightAllowsMCPHeaders checks that a preflight of the MCP policy lets a browser send
// each header an MCP client sends, Authorization included, and nothing it did not list.
func TestPreflightAllowsMCPHeaders(t *testing.T) {
	ts := server(t)
	res := send(t, http.MethodOptions, ts.URL, map[string]string{"Origin": "http://b.example",
		"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type,mcp-protocol-version"})
	if res.StatusCode != http.StatusNoContent || res.Header.Get("Allow") != "POST, OPTIONS" ||
		res.Header.Get("Access-Control-Max-Age") != "3600" || res.Header.Get("Access-Control-Allow-Credentials") != "" {
		t.Errorf("preflight: %d %v", res.StatusCode, res.Header)
	}
	for _, h := range append(MCPRequestHeaders, "Mcp-Method", "mcp-name") {
		if ok, why := fetchAllows(res, http.MethodPost, []string{h}); !ok {
			t.Errorf("%s: %s", h, why)
		}
	}
	for _, h := range []string{"X-Unlisted", "Cookie2"} {
		if ok, _ := fetchAllows(res, http.MethodPost, []string{h}); ok {
			t.Errorf("%s allowed, but not listed", h)
		}
	}
	if ok, _ := fetchAllows(res, http.MethodDelete, nil); ok {
		t.Error("DELETE allowed, but the endpoint takes POST only")
	}
}

// TestPreflightOfContentTypeOnly checks that a narrower policy (the QR API's) allows what it
// lists and refuses Authorization.
func TestPreflightOfContentTypeOnly(t *testing.T) {
	ts := httptest.NewServer(New([]string{"Content-Type"}, nil, 24*time.Hour).Handler("GET, HEAD, POST", http.NotFoundHandler()))
	defer ts.Close()
	res := send(t, http.MethodOptions, ts.URL, map[string]string{"Origin": "http://b.example", "Access-Control-Request-Method": "POST"})
	if res.Header.Get("Access-Control-Allow-Methods") != "GET, HEAD, POST, OPTIONS" || res.Header.Get("Access-Control-Max-Age") != "86400" {
		t.Errorf("preflight: %v", res.Header)
	}
	if ok, why := fetchAllows(res, http.MethodPost, []string{"content-type"}); !ok {
		t.Error(why)
	}
	if ok, _ := fetchAllows(res, http.MethodPost, []string{"authorization"}); ok {
		t.Error("Authorization allowed by a policy that does not list it")
	}
	if res := send(t, http.MethodGet, ts.URL, map[string]string{"Origin": "http://b.example"}); res.Header.Get("Access-Control-Expose-Headers") != "" {
		t.Errorf("Access-Control-Expose-Headers %q with nothing to expose", res.Header.Get("Access-Control-Expose-Headers"))
	}
}

// TestRespondExposes checks an actual response: readable from any origin, errors too, and on a
// cross-origin request the MCP transport's headers exposed to the script.
func TestRespondExposes(t *testing.T) {
	ts := server(t)
	res := send(t, http.MethodPost, ts.URL, map[string]string{"Origin": "http://b.example"})
	if res.StatusCode != http.StatusUnauthorized || res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("%d %v", res.StatusCode, res.Header)
	}
	exposed := strings.Split(res.Header.Get("Access-Control-Expose-Headers"), ", ")
	for _, h := range []string{"Mcp-Session-Id", "WWW-Authenticate", "Mcp-Protocol-Version"} {
		if !slices.Contains(exposed, h) {
			t.Errorf("%s not in Access-Control-Expose-Headers %q", h, exposed)
		}
	}
	if res := send(t, http.MethodPost, ts.URL, nil); res.Header.Get("Access-Control-Expose-Headers") != "" ||
		res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("same-origin request: %v", res.Header)
	}
}

// TestRespondAllocatesNothing holds Respond to sharing the policy's values.
func TestRespondAllocatesNothing(t *testing.T) {
	p := New(MCPRequestHeaders, MCPResponseHeaders, time.Hour)
	r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	r.Header.Set("Origin", "http://b.example")
	h := http.Header{}
	if n := testing.AllocsPerRun(100, func() { p.Respond(h, r) }); n != 0 {
		t.Errorf("Respond: %v allocations", n)
	}
}
