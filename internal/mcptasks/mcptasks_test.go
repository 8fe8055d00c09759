package mcptasks

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHandler checks what the gate answers itself (a 2026-07-28 task request) and what it
// passes on whole to the SDK: other methods, older revisions, a version header that does not
// match _meta, a notification, and a body that is not JSON.
func TestHandler(t *testing.T) {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, c := range []struct {
		body, header string
		status       int // 0: passed on
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"a",` + meta + `}}`, "2026-07-28", http.StatusBadRequest},
		{`{"jsonrpc":"2.0","id":"x","method":"tasks/cancel","params":{"taskId":"a",` + meta + `}}`, "2026-07-28", http.StatusBadRequest},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`, "2026-07-28", 0},
		{`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"a"}}`, "2025-11-25", 0},
		{`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"a",` + meta + `}}`, "2025-11-25", 0},
		{`{"jsonrpc":"2.0","method":"tasks/get","params":{"taskId":"a",` + meta + `}}`, "2026-07-28", 0},
		{`not json`, "2026-07-28", 0},
	} {
		var passed string
		next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			passed = string(b)
		})
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(c.body))
		r.Header.Set("Mcp-Protocol-Version", c.header)
		w := httptest.NewRecorder()
		Handler(next).ServeHTTP(w, r)
		switch {
		case c.status == 0 && passed != c.body:
			t.Errorf("%s: not passed on whole: %q (answered %d %s)", c.body, passed, w.Code, w.Body)
		case c.status != 0 && (w.Code != c.status || passed != "" || !strings.Contains(w.Body.String(), `"code":-32021`)):
			t.Errorf("%s: %d %s, passed %q", c.body, w.Code, w.Body, passed)
		}
	}
}
