package mcpserver_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bananaqr/bananaqr/internal/mcpserver"
)

// rpc2026 sends one 2026-07-28 request (protocol version and client capabilities in _meta,
// SEP-2575) of method with params to h and returns the HTTP status and the decoded answer.
func rpc2026(t *testing.T, h http.Handler, method, params, capabilities string) (int, map[string]any) {
	t.Helper()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + capabilities + `}`
	if params != "" {
		meta = params + "," + meta
	}
	body := `{"jsonrpc":"2.0","id":7,"method":"` + method + `","params":{` + meta + `}}`
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	r.Header.Set("Mcp-Method", method)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	var answer map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &answer); err != nil {
		t.Fatalf("%s: %d %q", method, w.Code, w.Body)
	}
	return w.Code, answer
}

// errorCode returns the JSON-RPC error code of answer, 0 for a result.
func errorNumber(answer map[string]any) int {
	e, _ := answer["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return int(code)
}

// TestDiscoverMatchesAnswers checks that server/discover declares exactly the capabilities
// whose list method the server answers (2026-07-28: a server that supports prompts MUST
// declare them): tools, prompts and resources are declared and listed; logging and
// completions are neither.
func TestDiscoverMatchesAnswers(t *testing.T) {
	h := mcpserver.Handler((&fakes{admit: true}).config())
	_, discover := rpc2026(t, h, "server/discover", "", "{}")
	result, _ := discover["result"].(map[string]any)
	declared, _ := result["capabilities"].(map[string]any)
	for capability, call := range map[string][2]string{"tools": {"tools/list"}, "prompts": {"prompts/list"}, "resources": {"resources/list"},
		"logging":     {"logging/setLevel", `"level":"info"`},
		"completions": {"completion/complete", `"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}`}} {
		_, isDeclared := declared[capability]
		method := call[0]
		status, answer := rpc2026(t, h, method, call[1], "{}")
		answered := errorNumber(answer) != -32601
		if isDeclared != answered {
			t.Errorf("%s: declared %v in %v, but %s answers %d %v", capability, isDeclared, declared, method, status, answer)
		}
	}
}

// TestTasksMethods checks the tasks extension's methods (SEP-2663) on a server that runs no
// tasks: -32021 naming the extension when the request did not declare it, -32602 (unknown
// task) when it did; both with HTTP 400 (SEP-2575).
func TestTasksMethods(t *testing.T) {
	h := mcpserver.Handler((&fakes{admit: true}).config())
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		status, answer := rpc2026(t, h, method, `"taskId":"t1"`, "{}")
		data, _ := answer["error"].(map[string]any)["data"].(map[string]any)
		required, _ := data["requiredCapabilities"].(map[string]any)["extensions"].(map[string]any)
		if _, ok := required["io.modelcontextprotocol/tasks"]; status != http.StatusBadRequest || errorNumber(answer) != -32021 || !ok || answer["id"] != 7.0 {
			t.Errorf("%s without the extension: %d %v", method, status, answer)
		}
		status, answer = rpc2026(t, h, method, `"taskId":"t1"`, `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`)
		if status != http.StatusBadRequest || errorNumber(answer) != -32602 {
			t.Errorf("%s with the extension: %d %v", method, status, answer)
		}
	}
}
