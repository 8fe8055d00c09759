package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// mcpHeaders are the headers an MCP client sends with a POST on protocol version.
func mcpHeaders(version string) map[string]string {
	return map[string]string{"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": version}
}

// mcpRefusal is the JSON-RPC error response with which /mcp refuses a body (McpRefusal).
type mcpRefusal struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// wantMCPRefusal checks that r is a JSON-RPC error response of status with id null, code
// -32600 and a message holding words, whose data is the API's error object of code, and
// returns that object.
func wantMCPRefusal(t *testing.T, r *result, status int, code api.Reason, words ...string) api.ErrorBody {
	t.Helper()
	var got mcpRefusal
	if err := json.Unmarshal(r.body, &got); err != nil || r.status != status || got.JSONRPC != "2.0" ||
		string(got.ID) != "null" || got.Error.Code != -32600 {
		t.Fatalf("%d %.300s: %v", r.status, r.body, err)
	}
	for _, w := range words {
		if !strings.Contains(got.Error.Message, w) {
			t.Errorf("message %q lacks %q", got.Error.Message, w)
		}
	}
	data := (&result{status: status, header: r.header, body: got.Error.Data}).wantError(t, status, code)
	if data.Message != got.Error.Message {
		t.Errorf("data %+v, message %q", data, got.Error.Message)
	}
	return data
}

// toolsListBatch returns a JSON-RPC batch of n tools/list requests.
func toolsListBatch(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"tools/list"}`
	}
	return "[" + strings.Join(items, ",") + "]"
}

// TestMCPBatchRefused: /mcp refuses a JSON-RPC batch, on any protocol version, with 400 and a
// JSON-RPC error whose data is INVALID_JSON, before any of its messages is served: the issue's
// 63 KB batch of 1,150 tools/list is answered in a few hundred bytes, and a batch of tool calls
// spends none of the caller's budget. Every answer holds to the OpenAPI document.
func TestMCPBatchRefused(t *testing.T) {
	ts := newTestServer(t, Config{Limiter: ratelimit.NewMemory(1, time.Minute, nil), RateLimit: 1})
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"generate_qr","arguments":{"type":"text","text":"hi"}}}`
	for _, body := range []string{"[" + call + "," + call + "]", " \n[" + call + "]", "[]", toolsListBatch(1150)} {
		for _, version := range []string{"2025-03-26", "2025-06-18"} {
			r := ts.do(t, http.MethodPost, "/mcp", body, mcpHeaders(version))
			wantMCPRefusal(t, r, http.StatusBadRequest, api.ReasonInvalidJSON, "batches are not supported since MCP 2025-06-18", "one message per request")
			if len(r.body) > 1000 {
				t.Errorf("%d bytes", len(r.body))
			}
		}
	}
	// The one code the caller may make a minute is still there.
	r := ts.do(t, http.MethodPost, "/mcp", call, mcpHeaders("2025-06-18"))
	if r.status != http.StatusOK || !strings.Contains(string(r.body), `"image/png"`) || strings.Contains(string(r.body), `"isError":true`) {
		t.Fatalf("a call after refused batches: %d %.300s", r.status, r.body)
	}
}

// TestMCPBodyTooLarge: a body over 64 KiB (api.MaxBody) is answered 413 with a JSON-RPC error
// whose data is BODY_TOO_LARGE, not the SDK's plain text; a body of exactly 64 KiB is served.
func TestMCPBodyTooLarge(t *testing.T) {
	ts := newTestServer(t, Config{})
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	padded := func(size int) string { return list + strings.Repeat(" ", size-len(list)) }
	if r := ts.do(t, http.MethodPost, "/mcp", padded(api.MaxBody), mcpHeaders("2025-06-18")); r.status != http.StatusOK {
		t.Fatalf("a body of 64 KiB: %d %.300s", r.status, r.body)
	}
	r := ts.do(t, http.MethodPost, "/mcp", padded(api.MaxBody+1), mcpHeaders("2025-06-18"))
	wantMCPRefusal(t, r, http.StatusRequestEntityTooLarge, api.ReasonBodyTooLarge, "65536 bytes")
}
