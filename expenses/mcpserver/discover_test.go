package mcpserver

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/bananaqr/bananaqr/expenses/store/storetest"
)

// post2026 posts one 2026-07-28 request (version and client capabilities in _meta, SEP-2575)
// to the endpoint, without a token, and returns the status and the JSON-RPC error code (0 for
// a result) and answer.
func post2026(t *testing.T, url, method, params, capabilities string) (int, int, map[string]any) {
	t.Helper()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + capabilities + `}`
	if params != "" {
		meta = params + "," + meta
	}
	got := do(t, http.MethodPost, url, `{"jsonrpc":"2.0","id":3,"method":"`+method+`","params":{`+meta+`}}`,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
		"Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", method)
	var answer map[string]any
	if err := json.Unmarshal(got.body, &answer); err != nil {
		t.Fatalf("%s: %d %q", method, got.status, got.body)
	}
	e, _ := answer["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return got.status, int(code), answer
}

// TestDiscoverAndTasks checks that server/discover declares exactly the capabilities whose
// list method the server answers (prompts and resources, empty, beside tools), and that the
// tasks extension's methods (SEP-2663) answer -32021 when the request did not declare the
// extension and -32602 (unknown task) when it did, with HTTP 400, as the 2026-07-28 revision
// says; none of it needs a token.
func TestDiscoverAndTasks(t *testing.T) {
	f := newFixture(t, storetest.Open(t, storetest.SQLitePath(t)))
	_, _, discover := post2026(t, f.url, "server/discover", "", "{}")
	result, _ := discover["result"].(map[string]any)
	declared, _ := result["capabilities"].(map[string]any)
	for capability, method := range map[string]string{"tools": "tools/list", "prompts": "prompts/list", "resources": "resources/list"} {
		_, isDeclared := declared[capability]
		status, code, answer := post2026(t, f.url, method, "", "{}")
		if !isDeclared || status != http.StatusOK || code != 0 {
			t.Errorf("%s: declared %v in %v; %s answers %d %v", capability, isDeclared, declared, method, status, answer)
		}
	}
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		if status, code, answer := post2026(t, f.url, method, `"taskId":"t1"`, "{}"); status != http.StatusBadRequest || code != -32021 {
			t.Errorf("%s without the extension: %d %v", method, status, answer)
		}
		if status, code, answer := post2026(t, f.url, method, `"taskId":"t1"`, `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`); status != http.StatusBadRequest || code != -32602 {
			t.Errorf("%s with the extension: %d %v", method, status, answer)
		}
	}
}
