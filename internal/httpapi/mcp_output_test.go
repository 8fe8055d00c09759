package httpapi

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/internal/mcpserver"
	"github.com/bananaqr/bananaqr/internal/mcptest"
	"github.com/bananaqr/bananaqr/render"
)

// TestMCPStructuredMatchesJSON checks that generate_qr's structured content says what the HTTP
// API's JSON answer to the same request says, field by field, for a public code (payload and
// links) and a private one (null payload and links), and that only the public one has resource
// links, to the JSON answer's image_url and svg_url.
func TestMCPStructuredMatchesJSON(t *testing.T) {
	ts := newTestServer(t, Config{})
	cs := mcpSession(t, ts)
	for _, args := range []map[string]any{
		{"type": "url", "url": "example.com/menu", "size": 512, "corners": "rounded", "margin": 2},
		{"type": "text", "text": "Grüße", "logo": "banana", "color": "1a237e"},
		{"type": "wifi", "ssid": "home", "password": "correct horse"},
	} {
		res := mcptest.CallTool(t, cs, mcpserver.ToolName, args)
		if res.IsError || res.StructuredContent == nil {
			t.Fatalf("%v: %+v", args, res)
		}
		var mcpOut map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &mcpOut); err != nil {
			t.Fatalf("unmarshal: %v", err)
		}

		body, _ := json.Marshal(args)
		body = append(body[:len(body)-1], []byte(`,"format":"json"}`)...)
		answer := ts.post(t, string(body))
		if answer.status != http.StatusOK {
			t.Fatalf("%s: %d %s", body, answer.status, answer.body)
		}
		var httpOut map[string]any
		if err := json.Unmarshal(answer.body, &httpOut); err != nil {
			t.Fatalf("unmarshal: %v", err)
		}
		for name, v := range mcpOut {
			if name == "format" {
				continue // the image block's format, png; the HTTP answer's is json
			}
			w, _ := json.Marshal(httpOut[name])
			g, _ := json.Marshal(v)
			if _, ok := httpOut[name]; !ok || !bytes.Equal(g, w) {
				t.Errorf("%v: %s = %s, the JSON answer's %s", args, name, g, w)
			}
		}
		var links []string
		for _, c := range res.Content {
			if l, ok := c.(*mcp.ResourceLink); ok {
				links = append(links, l.URI)
			}
		}
		if imageURL, public := httpOut["image_url"].(string); public {
			if len(links) != 2 || links[0] != imageURL || links[1] != httpOut["svg_url"] {
				t.Errorf("%v: resource links %q", args, links)
			}
		} else if len(links) != 0 || mcpOut["payload"] != nil || bytes.Contains(b, []byte("correct horse")) {
			t.Errorf("%v: a private code with links %q or its payload: %s", args, links, b)
		}
	}
}

// TestIcons checks /icon.svg and /icon.png: the banana mark as the MCP server lists it, an SVG
// that parses and a PNG that decodes, with their media types, an hour's caching and an ETag
// answered with 304; and the server card's icons at those addresses under the base URL.
func TestIcons(t *testing.T) {
	ts := newTestServer(t, Config{BaseURL: "https://qr.example.com"})
	svg := ts.get(t, "/icon.svg")
	var root struct{ XMLName xml.Name }
	if svg.status != http.StatusOK || svg.header.Get("Content-Type") != "image/svg+xml" || xml.Unmarshal(svg.body, &root) != nil ||
		root.XMLName.Local != "svg" || !bytes.Equal(svg.body, render.IconSVG()) {
		t.Errorf("/icon.svg: %d %v %.80s", svg.status, svg.header, svg.body)
	}
	pngIcon := ts.get(t, "/icon.png")
	img, err := png.Decode(bytes.NewReader(pngIcon.body))
	if pngIcon.status != http.StatusOK || pngIcon.header.Get("Content-Type") != "image/png" || err != nil || img.Bounds().Dx() != render.IconSide {
		t.Errorf("/icon.png: %d %v %v", pngIcon.status, pngIcon.header, err)
	}
	for _, r := range []*result{svg, pngIcon} {
		if r.header.Get("Cache-Control") != "public, max-age=3600" || r.header.Get("ETag") == "" ||
			!strings.Contains(r.header.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Errorf("headers %v", r.header)
		}
	}
	again := ts.do(t, http.MethodGet, "/icon.png", "", map[string]string{"If-None-Match": pngIcon.header.Get("ETag")})
	if again.status != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", again.status)
	}
	var card struct{ Icons []mcp.Icon }
	if err := json.Unmarshal(ts.get(t, "/mcp/server-card").body, &card); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	if len(card.Icons) != 2 || card.Icons[0].Source != "https://qr.example.com/icon.svg" || card.Icons[1].Source != "https://qr.example.com/icon.png" {
		t.Errorf("card icons %+v", card.Icons)
	}
	if err := json.Unmarshal(newTestServer(t, Config{}).get(t, "/mcp/server-card").body, &card); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	if len(card.Icons) != 2 || card.Icons[1].Source != mcpserver.Icons[1].Source {
		t.Errorf("card icons without a base URL: %.100v", card.Icons)
	}
}
