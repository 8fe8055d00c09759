// Package mcptest calls the tools of an MCP server through the SDK's client session, as the
// tests of both servers (bananaqr serve's generate_qr, bananaqr expenses' tools) do. It is
// imported by tests only.
package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/internal/qrtest"
)

// CallTool calls tool with args (a map, a struct or a json.RawMessage; nil is {}) and returns
// its result, which may be a tool error (IsError); a protocol error fails t.
func CallTool(t testing.TB, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := call(t.Context(), cs, tool, args)
	if err != nil {
		t.Fatalf("%s %v: protocol error %v", tool, args, err)
	}
	return res
}

// Call calls tool with args and decodes its structured content into out. A protocol error or
// a tool error is returned, not reported: Call serves goroutines, and tests that expect the
// call to fail (a server killed mid-run).
func Call(ctx context.Context, cs *mcp.ClientSession, tool string, args, out any) error {
	res, err := call(ctx, cs, tool, args)
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("%s: tool error %s", tool, text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

func call(ctx context.Context, cs *mcp.ClientSession, tool string, args any) (*mcp.CallToolResult, error) {
	if args == nil {
		args = map[string]any{}
	}
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
}

// text returns the text of res's first content block, or a description of the block.
func text(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return "(no content)"
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return fmt.Sprintf("%T", res.Content[0])
}

// ImagePNG returns the PNG of res's first content block, a code, and the payload that
// gozxing reads in it; a result that is no such image fails t.
func ImagePNG(t testing.TB, res *mcp.CallToolResult) (data []byte, payload string) {
	t.Helper()
	if res.IsError || len(res.Content) == 0 {
		t.Fatalf("not a code: %+v", res)
	}
	img, ok := res.Content[0].(*mcp.ImageContent)
	if !ok || img.MIMEType != "image/png" {
		t.Fatalf("first content %T %+v", res.Content[0], res.Content[0])
	}
	_, payload = qrtest.DecodePNG(t, img.Data, 0)
	return img.Data, payload
}
