package telemetry

import (
	"context"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// TestToolCalls calls a server's tools through the SDK's client: a result counts as ok, a
// result with isError as error, a call of a tool the server does not have as failed under
// "other", and other methods not at all.
func TestToolCalls(t *testing.T) {
	reg := prometheus.NewRegistry()
	calls := NewToolCalls(reg, []string{"fine", "broken"})
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	type none struct{}
	mcp.AddTool(server, &mcp.Tool{Name: "fine"}, func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	mcp.AddTool(server, &mcp.Tool{Name: "broken"}, func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
		return nil, nil, errors.New("no") // the SDK answers a result with isError
	})
	server.AddReceivingMiddleware(calls.Middleware)
	ct, st := mcp.NewInMemoryTransports()
	ctx := t.Context()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	for _, name := range []string{"fine", "fine", "broken", "missing"} {
		session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
	}
	if _, err := session.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	want := map[[2]string]float64{{"fine", "ok"}: 2, {"broken", "error"}: 1, {"other", "failed"}: 1}
	got := toolCallCounts(t, reg)
	if len(got) != 9 {
		t.Errorf("%d series, want 9 (3 tools by 3 outcomes, at 0 before any call): %v", len(got), got)
	}
	for key, n := range got {
		if n != want[key] {
			t.Errorf("%s %s: %v, want %v", key[0], key[1], n, want[key])
		}
	}
}

// toolCallCounts gathers reg's bananaqr_mcp_tool_calls_total by tool and outcome.
func toolCallCounts(t *testing.T, reg *prometheus.Registry) map[[2]string]float64 {
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[[2]string]float64{}
	for _, f := range families {
		if f.GetName() != "bananaqr_mcp_tool_calls_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			out[[2]string{label(m, "tool"), label(m, "outcome")}] = m.GetCounter().GetValue()
		}
	}
	return out
}

// label returns the value of m's label name.
func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}
