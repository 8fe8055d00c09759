package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/mcpserver"
	"github.com/bananaqr/bananaqr/internal/mcptest"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/bananaqr/bananaqr/payload"
)

// mcpSession connects the MCP SDK's own client to the test server's /mcp over HTTP.
func mcpSession(t *testing.T, ts *testServer) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "bananaqr-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: ts.URL + "/mcp", DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// toolErrorBody returns the error object of a tool error.
func toolErrorBody(t *testing.T, res *mcp.CallToolResult) api.ErrorBody {
	t.Helper()
	if !res.IsError || len(res.Content) != 1 {
		t.Fatalf("not a tool error: %+v", res)
	}
	var e api.ErrorBody
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &e); err != nil || e.Reason == "" || e.Hint == "" || e.Message == "" {
		t.Fatalf("tool error %q: %v", res.Content[0].(*mcp.TextContent).Text, err)
	}
	return e
}

// TestMCPToolList checks that the server offers exactly one tool, generate_qr, with the input
// schema and annotations the issue asks for.
func TestMCPToolList(t *testing.T) {
	cs := mcpSession(t, newTestServer(t, Config{}))
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "generate_qr" {
		t.Fatalf("tools %+v", list.Tools)
	}
	tool := list.Tools[0]
	a := tool.Annotations
	if a == nil || !a.ReadOnlyHint || !a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
		t.Errorf("annotations %+v", a)
	}
	var schema struct {
		Type       string                    `json:"type"`
		Required   []string                  `json:"required"`
		Properties map[string]map[string]any `json:"properties"`
	}
	b, _ := json.Marshal(tool.InputSchema)
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	var names []string
	for name, p := range schema.Properties {
		names = append(names, name)
		if d, _ := p["description"].(string); len(d) < 10 {
			t.Errorf("%s: no description", name)
		}
	}
	want := []string{"type", "url", "text", "ssid", "password", "security", "hidden", "name", "organization", "jobTitle", "phone",
		"email", "website", "to", "subject", "message", "latitude", "longitude", "altitude", "summary", "start", "end",
		"location", "description", "iban", "bic", "amount", "reference", "remittance",
		"currency", "country", "city", "postalCode", "street", "buildingNumber", "debtorName", "debtorStreet",
		"debtorBuildingNumber", "debtorPostalCode", "debtorCity", "debtorCountry", "billInformation", "scheme", "key",
		"merchantCategory", "vpa", "dueDate", "variableSymbol", "specificSymbol", "constantSymbol", "address", "label", "lightning",
		"color", "background", "logo", "corners", "size", "ecc", "margin", "caption", "caption_position", "show_destination"}
	if !sameSet(names, want) || schema.Type != "object" || !reflect.DeepEqual(schema.Required, []string{"type"}) {
		t.Errorf("properties %v, required %v", names, schema.Required)
	}
	for name, want := range map[string]string{
		"type": `["url","wifi","vcard","email","sms","text","tel","geo","event","epc","swissqr","emvco","upi","spayd","bitcoin"]`, "security": `["WPA","WEP","nopass","WPA2","WPA3"]`,
		"logo": `["none","banana"]`, "corners": `["square","rounded"]`, "ecc": `["L","M","Q","H"]`,
	} {
		if got, _ := json.Marshal(schema.Properties[name]["enum"]); string(got) != want {
			t.Errorf("%s: enum %s, want %s", name, got, want)
		}
	}
	if p := schema.Properties["size"]; p["minimum"] != 128.0 || p["maximum"] != 2048.0 || p["default"] != 1024.0 {
		t.Errorf("size %v", p)
	}
	if p := schema.Properties["margin"]; p["minimum"] != 0.0 || p["maximum"] != 16.0 || p["default"] != 4.0 || p["type"] != "integer" {
		t.Errorf("margin %v", p)
	}
	if _, ok := schema.Properties["data"]; ok {
		t.Error("the tool takes raw data")
	}
}

// sameSet reports whether a and b hold the same strings.
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]bool{}
	for _, s := range a {
		seen[s] = true
	}
	for _, s := range b {
		if !seen[s] {
			return false
		}
	}
	return true
}

// TestMCPCall makes a code of every type through the tool and reads the PNG back; the Markdown
// link comes for public types only, and points at a PNG that regenerates the same image.
func TestMCPCall(t *testing.T) {
	ts := newTestServer(t, Config{})
	cs := mcpSession(t, ts)
	for _, c := range []struct {
		args    map[string]any
		payload string
		public  bool
	}{
		{map[string]any{"type": "url", "url": "example.com/a b"}, "https://example.com/a%20b", true},
		{map[string]any{"type": "text", "text": "Grüße aus Köln", "corners": "rounded", "size": 512}, "Grüße aus Köln", true},
		{map[string]any{"type": "wifi", "ssid": "Café", "password": "hunter22", "hidden": true}, "WIFI:T:WPA;S:Café;P:hunter22;H:true;;", false},
		{map[string]any{"type": "vcard", "name": "Anna Müller", "phone": "+49 30 1"}, "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Müller;Anna;;;\r\nFN:Anna Müller\r\nTEL:+49 30 1\r\nEND:VCARD\r\n", false},
		{map[string]any{"type": "email", "to": "a@b.com", "subject": "Hi there"}, "mailto:a@b.com?subject=Hi%20there", false},
		{map[string]any{"type": "sms", "phone": "+1 555 123 4567", "message": "hi", "logo": "banana", "margin": 0}, "SMSTO:+15551234567:hi", false},
	} {
		res := mcptest.CallTool(t, cs, mcpserver.ToolName, c.args)
		png, text := mcptest.ImagePNG(t, res)
		if text != c.payload {
			t.Errorf("%v: reads %q, want %q", c.args, text, c.payload)
		}
		if !c.public {
			// Nothing but the image, and the warnings of the style (margin 0), which never
			// quote the payload.
			for _, extra := range res.Content[1:] {
				if text, ok := extra.(*mcp.TextContent); !ok || !strings.HasPrefix(text.Text, "Warning "+api.ReasonSmallQuietZone+" (margin): ") {
					t.Errorf("%v: a private code with the content block %+v", c.args, extra)
				}
			}
			continue
		}
		md, ok := res.Content[1].(*mcp.TextContent)
		if !ok || len(res.Content) != 4 || !strings.HasPrefix(md.Text, "![QR code]("+ts.URL+"/api/qr-code.png?") { // then the PNG's and SVG's resource links
			t.Fatalf("%v: markdown %+v", c.args, res.Content)
		}
		u, _ := url.Parse(strings.TrimSuffix(strings.TrimPrefix(md.Text, "![QR code]("), ")"))
		if again := ts.get(t, u.RequestURI()); string(again.body) != string(png) {
			t.Errorf("%v: the linked PNG differs from the image block", c.args)
		}
	}
}

// TestMCPErrors checks that invalid calls are tool errors with the HTTP API's code and hint.
func TestMCPErrors(t *testing.T) {
	cs := mcpSession(t, newTestServer(t, Config{}))
	for _, c := range []struct {
		args map[string]any
		code api.Reason
	}{
		{map[string]any{"url": "example.com"}, payload.ReasonMissingField},
		{map[string]any{"type": "url"}, payload.ReasonMissingField},
		{map[string]any{"type": "url", "url": "javascript:alert(1)"}, payload.ReasonInvalidURL},
		{map[string]any{"type": "wifi", "ssid": "x", "password": "short"}, payload.ReasonInvalidPassword},
		{map[string]any{"type": "text", "text": "x", "data": "raw"}, api.ReasonUnknownField},
		{map[string]any{"type": "text", "text": "x", "format": "svg"}, api.ReasonUnknownField},
		{map[string]any{"type": "text", "text": "x", "colour": "000000"}, api.ReasonUnknownField},
		{map[string]any{"type": "text", "text": "x", "size": 64}, api.ReasonInvalidValue},
		{map[string]any{"type": "text", "text": "x", "size": "big"}, api.ReasonWrongType},
		{map[string]any{"type": "text", "text": "x", "color": "FFFFFF", "background": "000000"}, api.ReasonLowContrast},
		{map[string]any{"type": "text", "text": strings.Repeat("x", 2049)}, payload.ReasonPayloadTooLarge},
		{map[string]any{"type": "text", "text": strings.Repeat("x", 1300), "ecc": "H"}, api.ReasonNotEncodable},
	} {
		e := toolErrorBody(t, mcptest.CallTool(t, cs, mcpserver.ToolName, c.args))
		if e.Reason != string(c.code) {
			t.Errorf("%v: code %s (%s), want %s", c.args, e.Reason, e.Message, c.code)
		}
		if strings.Contains(e.Message, "short") && c.code == payload.ReasonInvalidPassword {
			t.Errorf("the error quotes the password: %s", e.Message)
		}
	}
}

// TestMCPRateLimit checks that calls count against the caller's budget, shared with the HTTP
// API: the 61st code in a minute is refused with RATE_LIMITED; listing tools is not counted.
func TestMCPRateLimit(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	ts := newTestServer(t, Config{Limiter: ratelimit.NewMemory(60, time.Minute, func() time.Time { return now })})
	cs := mcpSession(t, ts)
	for range 30 {
		if r := ts.get(t, "/api/qr-code.svg?text=x"); r.status != http.StatusOK {
			t.Fatalf("HTTP: %d", r.status)
		}
	}
	for i := range 30 {
		if res := mcptest.CallTool(t, cs, mcpserver.ToolName, map[string]any{"type": "text", "text": "x"}); res.IsError {
			t.Fatalf("call %d: %v", i+31, toolErrorBody(t, res))
		}
		cs.ListTools(context.Background(), nil)
	}
	e := toolErrorBody(t, mcptest.CallTool(t, cs, mcpserver.ToolName, map[string]any{"type": "text", "text": "x"}))
	if e.Reason != string(api.ReasonRateLimited) || !strings.Contains(e.Hint, "60 seconds") {
		t.Errorf("61st: %+v", e)
	}
	ts.get(t, "/api/qr-code.svg?text=x").wantError(t, http.StatusTooManyRequests, api.ReasonRateLimited)
}

// TestMCPTransport checks the wire behaviour around the SDK: GET /mcp is 405 with Allow, a
// client's own caller header is overwritten.
func TestMCPTransport(t *testing.T) {
	ts := newTestServer(t, Config{})
	r := ts.do(t, http.MethodGet, "/mcp", "", nil)
	if r.wantError(t, http.StatusMethodNotAllowed, api.ReasonMethodNotAllowed); !strings.Contains(r.header.Get("Allow"), "POST") {
		t.Errorf("Allow %q", r.header.Get("Allow"))
	}
}

// TestMCPHostProtection checks the SDK's DNS-rebinding protection, and --mcp-allow-any-host
// for a reverse proxy on the same machine: a request reaching the loopback listener with a
// public Host is refused, unless the flag is on.
func TestMCPHostProtection(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
	header := map[string]string{"Host": "qr.example.com", "Accept": "application/json, text/event-stream"}
	if r := newTestServer(t, Config{}).do(t, http.MethodPost, "/mcp", body, header); r.status != http.StatusForbidden {
		t.Errorf("a public Host on loopback: %d %s", r.status, r.body)
	}
	r := newTestServer(t, Config{MCPAllowAnyHost: true}).do(t, http.MethodPost, "/mcp", body, header)
	if r.status != http.StatusOK || !strings.Contains(string(r.body), `"generate_qr"`) {
		t.Errorf("with MCPAllowAnyHost: %d %s", r.status, r.body)
	}
}
