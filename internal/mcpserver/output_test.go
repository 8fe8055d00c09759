package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/internal/mcpserver"
	"github.com/bananaqr/bananaqr/internal/mcptest"
	"github.com/bananaqr/bananaqr/render"
)

// toolSchema returns generate_qr's output schema as tools/list gives it, resolved.
func toolSchema(t *testing.T, cs *mcp.ClientSession) *jsonschema.Resolved {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(list.Tools) != 1 {
		t.Fatalf("tools/list: %v %+v", err, list)
	}
	if list.Tools[0].OutputSchema == nil {
		t.Fatal("generate_qr declares no outputSchema")
	}
	b, _ := json.Marshal(list.Tools[0].OutputSchema)
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("the outputSchema does not resolve: %v\n%s", err, b)
	}
	return resolved
}

// structured returns the structured content of a code's result, after checking it against the
// output schema, as a generic JSON object.
func structured(t *testing.T, schema *jsonschema.Resolved, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if res.IsError || res.StructuredContent == nil {
		t.Fatalf("no structured content: %+v", res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(m); err != nil {
		t.Errorf("the structured content does not match the outputSchema: %v\n%s", err, b)
	}
	return m
}

// resourceLinks returns the URIs of res's resource_link items.
func resourceLinks(res *mcp.CallToolResult) []string {
	var uris []string
	for _, c := range res.Content {
		if l, ok := c.(*mcp.ResourceLink); ok {
			uris = append(uris, l.URI)
		}
	}
	return uris
}

// TestStructuredContent checks a code's structured content against the declared outputSchema,
// with the payload and links of a public code (and resource links to them after the image),
// null payload and links and no resource link for a private code, and null links with the
// NO_PUBLIC_URL warning when the service has no base URL.
func TestStructuredContent(t *testing.T) {
	f := &fakes{admit: true}
	cs := session(t, f.config(), edge("192.0.2.9", "https://qr.example.com"))
	schema := toolSchema(t, cs)

	res := mcptest.CallTool(t, cs, mcpserver.ToolName, json.RawMessage(`{"type":"url","url":"example.com","size":300,"ecc":"Q"}`))
	mcptest.ImagePNG(t, res) // the image block stays first
	got := structured(t, schema, res)
	const png = "https://qr.example.com/api/qr-code.png?ecc=Q&size=300&url=https%3A%2F%2Fexample.com"
	svg := strings.Replace(png, ".png?", ".svg?", 1)
	for name, want := range map[string]any{"type": "url", "payload_type": "url", "payload": "https://example.com", "format": "png",
		"size": 300.0, "ecc": "Q", "version": 2.0, "modules": 25.0, "margin": 4.0, "module_px": 9.0, "image_url": png, "svg_url": svg, "logo": "none"} {
		if got[name] != want {
			t.Errorf("public: %s = %v, want %v", name, got[name], want)
		}
	}
	if links := resourceLinks(res); len(links) != 2 || links[0] != png || links[1] != svg {
		t.Errorf("public: resource links %q", links)
	}

	res = mcptest.CallTool(t, cs, mcpserver.ToolName, json.RawMessage(`{"type":"wifi","ssid":"home","password":"correct horse"}`))
	got = structured(t, schema, res)
	for _, name := range []string{"payload", "image_url", "svg_url"} {
		if v, ok := got[name]; !ok || v != nil {
			t.Errorf("private: %s = %v, want null", name, v)
		}
	}
	if got["payload_type"] != "wifi" || len(resourceLinks(res)) != 0 {
		t.Errorf("private: %v, resource links %q", got, resourceLinks(res))
	}

	cs = session(t, f.config(), edge("192.0.2.9", ""))
	res = mcptest.CallTool(t, cs, mcpserver.ToolName, json.RawMessage(`{"type":"text","text":"no link"}`))
	got = structured(t, schema, res)
	warnings, _ := got["warnings"].([]any)
	if got["payload"] != "no link" || got["image_url"] != nil || len(resourceLinks(res)) != 0 || len(warnings) != 1 ||
		warnings[0].(map[string]any)["code"] != "NO_PUBLIC_URL" {
		t.Errorf("no base URL: %v, resource links %q", got, resourceLinks(res))
	}
}

// TestIcons checks that the tool and the server list the banana mark as an SVG that parses
// and a PNG that decodes to render.IconSide pixels, both as the /icon.svg and /icon.png bytes.
func TestIcons(t *testing.T) {
	cs := session(t, (&fakes{admit: true}).config(), edge("192.0.2.9", ""))
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for where, icons := range map[string][]mcp.Icon{"tool": list.Tools[0].Icons, "server": cs.InitializeResult().ServerInfo.Icons} {
		if len(icons) != 2 {
			t.Fatalf("%s: %d icons", where, len(icons))
		}
		svg := iconData(t, icons[0], "image/svg+xml")
		var root struct{ XMLName xml.Name }
		if err := xml.Unmarshal(svg, &root); err != nil || root.XMLName.Local != "svg" || !bytes.Equal(svg, render.IconSVG()) {
			t.Errorf("%s: the SVG icon does not parse as render.IconSVG: %v %v", where, err, root.XMLName)
		}
		data := iconData(t, icons[1], "image/png")
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil || img.Bounds().Dx() != render.IconSide || img.Bounds().Dy() != render.IconSide || !bytes.Equal(data, render.IconPNG()) {
			t.Errorf("%s: the PNG icon: %v", where, err)
		}
	}
	if mcpserver.Icons[1].Sizes[0] != "64x64" {
		t.Errorf("PNG sizes %q", mcpserver.Icons[1].Sizes)
	}
}

// iconData returns the bytes of icon's data: URI, after checking its media type.
func iconData(t *testing.T, icon mcp.Icon, typ string) []byte {
	t.Helper()
	prefix := "data:" + typ + ";base64,"
	if icon.MIMEType != typ || !strings.HasPrefix(icon.Source, prefix) {
		t.Fatalf("icon %s %.40s, want %s", icon.MIMEType, icon.Source, typ)
	}
	data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(icon.Source, prefix))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
