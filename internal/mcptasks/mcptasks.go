// Package mcptasks answers the task methods of MCP's tasks extension (io.modelcontextprotocol/
// tasks, SEP-2663) for a server that runs no tasks, as the 2026-07-28 revision says: the Go
// SDK does not know the methods and would answer -32601 Method not found.
//
// Under 2026-07-28 a client declares the capabilities a request relies on in the request's own
// _meta (SEP-2575). A tasks/get, tasks/update or tasks/cancel from a client that did not declare
// the extension is answered MissingRequiredClientCapabilityError (-32021, HTTP 400) naming it;
// from a client that did, the task id cannot be one the server knows, since it creates none,
// and the answer is Invalid params (-32602, HTTP 400), as SEP-2663 prescribes for an unknown
// task id. Requests of older revisions, and ones whose headers or _meta are not well formed,
// go to the SDK, which validates them and answers as before.
package mcptasks

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/bananaqr/bananaqr/internal/mcphttp"
)

// Extension is the tasks extension's identifier, under which a client declares it in
// clientCapabilities.extensions.
const Extension = "io.modelcontextprotocol/tasks"

// Revision is the first MCP revision whose requests carry their protocol version and client
// capabilities in _meta (SEP-2575), and which this package answers.
const Revision = "2026-07-28"

// JSON-RPC error codes of the answers (JSON-RPC 2.0 section 5.1; SEP-2575).
const (
	JSONRPCInvalidParams             = -32602
	JSONRPCMissingClientCapabilities = -32021
)

// methods are the extension's methods on the server.
var methods = map[string]bool{"tasks/get": true, "tasks/update": true, "tasks/cancel": true}

// request is the part of a JSON-RPC request the gate reads.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta struct {
			ProtocolVersion    string `json:"io.modelcontextprotocol/protocolVersion"`
			ClientCapabilities *struct {
				Extensions map[string]json.RawMessage `json:"extensions"`
			} `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
	} `json:"params"`
}

// Handler answers the task methods of 2026-07-28 requests and passes every other request to
// next. A POST body must already be read whole (mcphttp.Body.Read does): the gate reads it
// again and gives next a fresh reader of the same bytes.
func Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		data, err := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(data))
		if err != nil || !answer(w, r, data) {
			next.ServeHTTP(w, r)
		}
	})
}

// answer writes the answer to data when it is a well-formed 2026-07-28 request of a task
// method, and reports whether it did.
func answer(w http.ResponseWriter, r *http.Request, data []byte) bool {
	var req request
	if json.Unmarshal(data, &req) != nil || !methods[req.Method] || len(req.ID) == 0 || string(req.ID) == "null" {
		return false
	}
	meta := req.Params.Meta
	// The SDK answers a missing or mismatched version (-32020, -32022) and missing
	// capabilities (-32602): only a request it would have dispatched is answered here.
	if meta.ProtocolVersion != Revision || r.Header.Get("Mcp-Protocol-Version") != meta.ProtocolVersion || meta.ClientCapabilities == nil {
		return false
	}
	if _, declared := meta.ClientCapabilities.Extensions[Extension]; !declared {
		data := map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{Extension: map[string]any{}}}}
		mcphttp.WriteError(w, http.StatusBadRequest, req.ID, JSONRPCMissingClientCapabilities,
			req.Method+" needs the client capability extensions[\""+Extension+"\"], which the request did not declare", data)
		return true
	}
	mcphttp.WriteError(w, http.StatusBadRequest, req.ID, JSONRPCInvalidParams,
		"unknown taskId: this server creates no tasks", nil)
	return true
}
