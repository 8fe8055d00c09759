package mcpserver

import (
	"encoding/json"
	"html/template"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/testenv"
)

// chromium is Debian's Chromium, which CI installs.
const chromium = "/usr/bin/chromium"

// browserPage is a page on another origin than the MCP server that calls it as a
// browser-hosted MCP client does, with fetch, and posts what its script could read back to its
// own origin. Every request it makes to the server is cross-origin with headers that are not
// CORS-safelisted, so Chromium sends a preflight first and lets the script read an answer only
// as the server's CORS headers allow.
var browserPage = template.Must(template.New("page").Parse(`<!doctype html>
<meta charset="utf-8"><title>expenses MCP client</title>
<script>
const endpoint = {{.Endpoint}}, token = {{.Token}};
async function post(body, authorization) {
  const headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
    "Mcp-Protocol-Version": "2025-06-18"};
  if (authorization) headers["Authorization"] = authorization;
  const r = await fetch(endpoint, {method: "POST", headers, body});
  return {status: r.status, wwwAuthenticate: r.headers.get("WWW-Authenticate"), body: await r.json()};
}
(async () => {
  const out = {};
  try {
    out.list = await post({{.List}});
    out.noToken = await post({{.Call}});
    out.badToken = await post({{.Call}}, "Bearer not-a-token");
    out.withToken = await post({{.Call}}, "Bearer " + token);
    const m = await fetch(out.noToken.wwwAuthenticate.match(/resource_metadata="([^"]+)"/)[1],
      {headers: {"Mcp-Protocol-Version": "2025-06-18"}});
    out.metadata = await m.json();
  } catch (e) {
    out.error = String(e);
  }
  await fetch("/result", {method: "POST", body: JSON.stringify(out)});
})();
</script>`))

// TestBrowserClient runs a cross-origin MCP client in headless Chromium: it lists tools without
// a token, reads the 401's WWW-Authenticate (exposed to its script) and follows it to the
// metadata, is refused a wrong token, and calls a tool with a bearer token, which only a
// preflight answer naming Authorization lets it send.
func TestBrowserClient(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		testenv.Missing(t, chromium+" is missing", "apt-get install chromium")
	}
	f := newFixture(t, storetest.Open(t, storetest.SQLitePath(t)))
	results := make(chan []byte, 1)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			browserPage.Execute(w, map[string]string{"Endpoint": f.url, "Token": f.tokens["Anna"],
				"List": listBody, "Call": callBody})
		case "/result":
			b, _ := io.ReadAll(r.Body)
			select {
			case results <- b:
			default:
			}
		default:
			http.NotFound(w, r)
		}
	}))
	defer page.Close()

	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-extensions", "--user-data-dir="+t.TempDir(), page.URL+"/")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its helpers too are stopped below
	// Chromium's own temporary files (org.chromium.Chromium.*), which the SIGKILL below leaves,
	// go in a folder the test removes.
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}()
	var b []byte
	select {
	case b = <-results:
	case <-time.After(60 * time.Second):
		t.Fatal("the page reported nothing in 60 s")
	}

	type fetched struct {
		Status          int
		WWWAuthenticate *string
		Body            rpcAnswer
	}
	var out struct {
		List, NoToken, BadToken, WithToken fetched
		Metadata                           map[string]any
		Error                              string
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("page: %.300s: %v", b, err)
	}
	if out.Error != "" {
		t.Fatalf("the page's script failed (a CORS refusal is a TypeError): %s", out.Error)
	}
	if out.List.Status != 200 || out.List.Body.Result == nil || len(out.List.Body.Result.Tools) != len(ToolNames) {
		t.Errorf("tools/list: %+v", out.List)
	}
	wantChallenge := `Bearer resource_metadata="` + f.base + `/.well-known/oauth-protected-resource/mcp"`
	if out.NoToken.Status != 401 || out.NoToken.WWWAuthenticate == nil || *out.NoToken.WWWAuthenticate != wantChallenge ||
		out.NoToken.Body.Error == nil || out.NoToken.Body.Error.Code != JSONRPCUnauthorized {
		t.Errorf("tools/call without a token, as the script reads it: %+v", out.NoToken)
	}
	if out.BadToken.Status != 401 || out.BadToken.WWWAuthenticate == nil || !strings.Contains(*out.BadToken.WWWAuthenticate, `error="invalid_token"`) {
		t.Errorf("tools/call with a wrong token: %+v", out.BadToken)
	}
	if out.WithToken.Status != 200 || out.WithToken.Body.Result == nil || out.WithToken.Body.Result.StructuredContent.Name != "Anna" {
		t.Errorf("tools/call with a token: %+v", out.WithToken)
	}
	if out.Metadata["resource"] != f.url {
		t.Errorf("metadata, as the script reads it: %v", out.Metadata)
	}
}
