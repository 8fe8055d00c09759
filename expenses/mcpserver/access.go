// The MCP line of a request: what the access log cannot know of it (the JSON-RPC method, the tool,
// the user), never a secret.

package mcpserver

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/bananaqr/bananaqr/internal/mcphttp"
	"github.com/bananaqr/bananaqr/internal/telemetry"
)

// rpcMethods are the JSON-RPC methods of MCP (client to server) the access log names; any
// other method is logged as "other", since a method name is read from the body, which the log
// never quotes.
var rpcMethods = map[string]bool{
	"initialize": true, "ping": true, "server/discover": true,
	"tools/list": true, "tools/call": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"prompts/list": true, "prompts/get": true, "completion/complete": true, "logging/setLevel": true,
	"notifications/initialized": true, "notifications/cancelled": true, "notifications/progress": true,
	"notifications/roots/list_changed": true,
}

// requestNote is what the access log learns about a request from the handlers that serve it.
type requestNote struct {
	rpc  string // the JSON-RPC method (see rpcMethods), "batch" (refused), or "" when none was read
	tool string // the tool a tools/call names, when it is one of the tools
	user string // the id of the user the token authenticated
}

type noteKey struct{}

// noteOf returns the request's note, or a note nobody reads when the request is not logged.
func noteOf(ctx context.Context) *requestNote {
	if n, ok := ctx.Value(noteKey{}).(*requestNote); ok {
		return n
	}
	return &requestNote{}
}

// setRPC notes the method and the tool of body's one message.
func (n *requestNote) setRPC(body rpcBody, tools map[string]string) {
	c, ok := body.single()
	switch {
	case !ok:
	case rpcMethods[c.Method]:
		n.rpc = c.Method
		if t := c.toolName(); tools[t] != "" {
			n.tool = t
		}
	default:
		n.rpc = "other"
	}
}

// setRefusal notes a body mcphttp refused: "batch" for a JSON-RPC batch, nothing for an
// oversized or unreadable body, whose method was never read.
func (n *requestNote) setRefusal(refusal mcphttp.Refusal) {
	if refusal == mcphttp.Batch {
		n.rpc = "batch"
	}
}

// logRequests wraps next with a line "mcp" a request to /mcp whose JSON-RPC method was read:
// the request's id (the X-Request-Id the access log gave it, internal/telemetry), the JSON-RPC
// method, the tool and the user's id, at level INFO. The access log's line of the request
// (method, route, status, bytes, duration) is the server's, around this handler. Never the
// Authorization header, a token, the query string, the body or a path that is not a route.
func logRequests(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		note := &requestNote{}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), noteKey{}, note)))
		if note.rpc == "" {
			return
		}
		attrs := make([]slog.Attr, 0, 4)
		if id := telemetry.ResponseRequestID(w); id != "" {
			attrs = append(attrs, slog.String("request_id", id))
		}
		attrs = append(attrs, slog.String("rpc", note.rpc))
		if note.tool != "" {
			attrs = append(attrs, slog.String("tool", note.tool))
		}
		if note.user != "" {
			attrs = append(attrs, slog.String("user", note.user))
		}
		logger.LogAttrs(r.Context(), slog.LevelInfo, "mcp", attrs...)
	})
}
