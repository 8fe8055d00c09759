package telemetry

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
)

// The outcomes of a tool call, the outcome label of bananaqr_mcp_tool_calls_total.
const (
	// ToolCallOK is a call answered with a result.
	ToolCallOK = "ok"
	// ToolCallError is a call answered with a tool error: a result with isError true (MCP
	// 2025-06-18, "Tools", section "Error Handling": errors reported in the result).
	ToolCallError = "error"
	// ToolCallFailed is a call answered with a JSON-RPC error instead of a result (section
	// "Error Handling": protocol errors, such as an unknown tool or a refused request).
	ToolCallFailed = "failed"
	// otherTool is the tool label of a call that names none of the server's tools.
	otherTool = "other"
)

// ToolCalls counts the tool calls an MCP server answers: bananaqr_mcp_tool_calls_total, by tool
// (one of the server's tools, else "other", so that a client cannot add labels at will) and
// outcome (ok, error or failed).
type ToolCalls struct {
	counters map[string]*[3]prometheus.Counter // by tool: ok, error, failed
}

// NewToolCalls registers bananaqr_mcp_tool_calls_total with reg, every series of tools (and
// "other") at 0, so that a rate over it is defined before the first call.
func NewToolCalls(reg prometheus.Registerer, tools []string) *ToolCalls {
	vec := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bananaqr_mcp_tool_calls_total",
		Help: "MCP tool calls answered, by tool (\"other\" for a name the server does not have) and outcome: ok, error (a result with isError) or failed (a JSON-RPC error)."},
		[]string{"tool", "outcome"})
	reg.MustRegister(vec)
	t := &ToolCalls{counters: map[string]*[3]prometheus.Counter{}}
	for _, tool := range append(append([]string{}, tools...), otherTool) {
		t.counters[tool] = &[3]prometheus.Counter{vec.WithLabelValues(tool, ToolCallOK),
			vec.WithLabelValues(tool, ToolCallError), vec.WithLabelValues(tool, ToolCallFailed)}
	}
	return t
}

// Middleware is an MCP receiving middleware (mcp.Server.AddReceivingMiddleware) that counts
// each tools/call once it is answered. Add it after the server's other middleware, so that it
// sees the answer the client gets.
func (t *ToolCalls) Middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method == "tools/call" {
			t.count(req, res, err)
		}
		return res, err
	}
}

// count counts the call req answered with res or err.
func (t *ToolCalls) count(req mcp.Request, res mcp.Result, err error) {
	tool := otherTool
	if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
		if _, known := t.counters[r.Params.Name]; known {
			tool = r.Params.Name
		}
	}
	outcome := 0
	if tr, ok := res.(*mcp.CallToolResult); err != nil || !ok || tr == nil {
		outcome = 2
	} else if tr.IsError {
		outcome = 1
	}
	t.counters[tool][outcome].Inc()
}
