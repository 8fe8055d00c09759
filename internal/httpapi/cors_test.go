package httpapi

import (
	"net/http"
	"slices"
	"testing"

	"github.com/bananaqr/bananaqr/internal/cors/corstest"
)

// TestMCPPreflight checks that a browser's preflight of /mcp gets leave to send the headers
// the MCP TypeScript SDK sends after initialize (Mcp-Protocol-Version) and a bearer token,
// named one by one: the wildcard would not cover Authorization.
func TestMCPPreflight(t *testing.T) {
	ts := newTestServer(t, Config{})
	r := ts.do(t, http.MethodOptions, "/mcp", "", map[string]string{"Origin": "http://page.example",
		"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type,mcp-protocol-version"})
	if r.status != http.StatusNoContent || r.header.Get("Access-Control-Allow-Origin") != "*" ||
		r.header.Get("Allow") != "POST, OPTIONS" || r.header.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatalf("preflight: %d %v", r.status, r.header)
	}
	allowed := corstest.List(r.header, "Access-Control-Allow-Headers")
	for _, h := range []string{"authorization", "content-type", "mcp-protocol-version", "mcp-session-id", "last-event-id", "mcp-method", "mcp-name"} {
		if !slices.Contains(allowed, h) {
			t.Errorf("%s not in Access-Control-Allow-Headers %q", h, allowed)
		}
	}
	if !slices.Contains(corstest.List(r.header, "Access-Control-Allow-Methods"), "post") {
		t.Errorf("Access-Control-Allow-Methods %q", r.header.Get("Access-Control-Allow-Methods"))
	}
}

// TestMCPExposesHeaders checks that an answer of /mcp to a cross-origin request lets the
// client's script read the transport's headers and the admission's.
func TestMCPExposesHeaders(t *testing.T) {
	ts := newTestServer(t, Config{})
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	r := ts.do(t, http.MethodPost, "/mcp", body, map[string]string{"Origin": "http://page.example",
		"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-06-18"})
	if r.status != http.StatusOK || r.header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("%d %v %s", r.status, r.header, r.body)
	}
	exposed := corstest.List(r.header, "Access-Control-Expose-Headers")
	for _, h := range []string{"mcp-session-id", "mcp-protocol-version", "www-authenticate", "retry-after", "x-request-id"} {
		if !slices.Contains(exposed, h) {
			t.Errorf("%s not in Access-Control-Expose-Headers %q", h, exposed)
		}
	}
}

// TestAPICORSUnchanged checks that the API's routes keep their CORS: a JSON body allowed, no
// MCP or Authorization header, and the code's headers exposed.
func TestAPICORSUnchanged(t *testing.T) {
	ts := newTestServer(t, Config{})
	r := ts.do(t, http.MethodOptions, "/api/qr-code", "", map[string]string{"Origin": "http://page.example", "Access-Control-Request-Method": "POST"})
	if r.status != http.StatusNoContent || r.header.Get("Access-Control-Allow-Headers") != "Content-Type" ||
		r.header.Get("Access-Control-Allow-Methods") != "GET, HEAD, POST, OPTIONS" || r.header.Get("Access-Control-Max-Age") != "86400" {
		t.Errorf("preflight: %d %v", r.status, r.header)
	}
	r = ts.do(t, http.MethodGet, "/api/qr-code.png?text=x", "", map[string]string{"Origin": "http://page.example"})
	if r.header.Get("Access-Control-Expose-Headers") != exposedHeaders {
		t.Errorf("Access-Control-Expose-Headers %q", r.header.Get("Access-Control-Expose-Headers"))
	}
}
