package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/buildinfo"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/internal/mcpserver"
	"github.com/bananaqr/bananaqr/internal/mcptest"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/bananaqr/bananaqr/payload"
)

// inMemory is an http.RoundTripper that serves requests with a handler in memory, with the
// caller the HTTP edge puts in every /mcp request's context.
type inMemory struct {
	h      http.Handler
	caller mcpserver.Caller
}

func (m inMemory) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(mcpserver.WithCaller(r.Context(), m.caller))
	w := httptest.NewRecorder()
	m.h.ServeHTTP(w, r)
	return w.Result(), nil
}

// fakes records what the tool asks of the edge: the callers admitted and the requests made.
type fakes struct {
	mu       sync.Mutex
	callers  []string
	requests []api.Request
	admit    bool
	limit    int
	generate func(context.Context, *api.Request) (*generate.Result, error) // generate.Code when nil
}

func (f *fakes) config() mcpserver.Config {
	return mcpserver.Config{
		RateLimit: f.limit,
		Logger:    slog.New(slog.DiscardHandler),
		Admit: func(_ context.Context, caller string) (ratelimit.Decision, bool) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.callers = append(f.callers, caller)
			return ratelimit.Decision{Allowed: f.admit, Limit: f.limit}, f.admit
		},
		Code: func(ctx context.Context, r *api.Request) (*generate.Result, error) {
			f.mu.Lock()
			f.requests = append(f.requests, *r)
			f.mu.Unlock()
			if f.generate != nil {
				return f.generate(ctx, r)
			}
			return generate.Code(r)
		},
	}
}

// session connects the SDK's own client to mcpserver.Handler(cfg), in memory; caller is what
// the HTTP edge would tell it.
func session(t *testing.T, cfg mcpserver.Config, caller mcpserver.Caller) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpserver-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:             "http://127.0.0.1/mcp",
		HTTPClient:           &http.Client{Transport: inMemory{mcpserver.Handler(cfg), caller}},
		DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// edge returns what the HTTP edge tells a call from caller to a service at base.
func edge(caller, base string) mcpserver.Caller {
	return mcpserver.Caller{Key: caller, BaseURL: base}
}

// errorBody returns the API's error object of a tool error, checking that it has no
// structured content (which would have to match the outputSchema of a code).
func errorBody(t *testing.T, res *mcp.CallToolResult) api.ErrorBody {
	t.Helper()
	if !res.IsError || len(res.Content) != 1 {
		t.Fatalf("not a tool error: %+v", res)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content %T", res.Content[0])
	}
	var e api.ErrorBody
	if err := json.Unmarshal([]byte(text.Text), &e); err != nil {
		t.Fatalf("tool error %q: %v", text.Text, err)
	}
	if res.StructuredContent != nil {
		t.Errorf("a tool error with structured content %v", res.StructuredContent)
	}
	return e
}

// TestToolsList checks the server's name and version and the one tool's shape: its name,
// title, annotations, the limit in its description, and an input schema of an object that
// needs type and takes no raw data, format or download.
func TestToolsList(t *testing.T) {
	f := &fakes{admit: true, limit: 7}
	cs := session(t, f.config(), edge("192.0.2.1", ""))
	if info := cs.InitializeResult().ServerInfo; info.Name != "bananaqr" || info.Version != buildinfo.Version() {
		t.Errorf("server %+v", info)
	}
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 {
		t.Fatalf("%d tools", len(list.Tools))
	}
	tool := list.Tools[0]
	if tool.Name != "generate_qr" || tool.Title != "Generate a QR code" {
		t.Errorf("tool %q, title %q", tool.Name, tool.Title)
	}
	if a := tool.Annotations; a == nil || !a.ReadOnlyHint || !a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint ||
		a.OpenWorldHint == nil || *a.OpenWorldHint {
		t.Errorf("annotations %+v", a)
	}
	if !strings.HasPrefix(tool.Description, "Makes a QR code and returns it as a PNG image.") ||
		!strings.HasSuffix(tool.Description, " Codes count against the caller's 7 codes a minute.") {
		t.Errorf("description %q", tool.Description)
	}
	var schema struct {
		Type       string                     `json:"type"`
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	b, _ := json.Marshal(tool.InputSchema)
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	if schema.Type != "object" || !slices.Equal(schema.Required, []string{"type"}) {
		t.Errorf("schema type %q, required %q", schema.Type, schema.Required)
	}
	for _, name := range []string{"data", "format", "download"} {
		if _, ok := schema.Properties[name]; ok {
			t.Errorf("the schema has %s", name)
		}
	}
	var typ struct {
		Enum []string `json:"enum"`
	}
	if err := json.Unmarshal(schema.Properties["type"], &typ); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	if want := []string{"url", "wifi", "vcard", "email", "sms", "text", "tel", "geo", "event", "epc", "swissqr", "emvco", "upi", "spayd", "bitcoin"}; !slices.Equal(typ.Enum, want) {
		t.Errorf("type's enum %q, want %q", typ.Enum, want)
	}
	if len(f.callers) != 0 {
		t.Errorf("listing tools was counted: %q", f.callers)
	}
}

// TestCallPublic checks a call of a public payload: admitted under the caller the edge names, made as
// a PNG, answered with the image, which reads as the payload, a Markdown image whose link asks
// for the same PNG, and the style's warning.
func TestCallPublic(t *testing.T) {
	f := &fakes{admit: true}
	cs := session(t, f.config(), edge("203.0.113.7", "https://qr.example.com"))
	res := mcptest.CallTool(t, cs, mcpserver.ToolName, json.RawMessage(`{"type":"url","url":"example.com/menu?table=4","size":256,"margin":2,"corners":"rounded"}`))
	data, text := mcptest.ImagePNG(t, res)
	if text != "https://example.com/menu?table=4" {
		t.Errorf("the PNG reads %q", text)
	}
	if !slices.Equal(f.callers, []string{"203.0.113.7"}) {
		t.Errorf("admitted %q", f.callers)
	}
	if len(f.requests) != 1 || f.requests[0].Format != api.FormatPNG || f.requests[0].Size != 256 {
		t.Fatalf("requests %+v", f.requests)
	}
	if len(res.Content) != 5 {
		t.Fatalf("%d content blocks: %+v", len(res.Content), res.Content)
	}
	md, _ := res.Content[1].(*mcp.TextContent)
	const want = "![QR code](https://qr.example.com/api/qr-code.png?corners=rounded&margin=2&size=256&url=https%3A%2F%2Fexample.com%2Fmenu%3Ftable%3D4)"
	if md == nil || md.Text != want {
		t.Fatalf("markdown %+v\nwant %s", res.Content[1], want)
	}
	// The link, read as the HTTP API reads it, makes the very same PNG.
	link, err := url.Parse(strings.TrimSuffix(strings.TrimPrefix(want, "![QR code]("), ")"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := api.FromQuery(link.RawQuery, api.RoutePNG)
	if err != nil {
		t.Fatal(err)
	}
	again, err := generate.Code(&r)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Release()
	if !bytes.Equal(again.PNG, data) {
		t.Error("the linked PNG differs from the image block")
	}
	// Resource links to the same PNG and to its SVG follow the Markdown.
	png, _ := res.Content[2].(*mcp.ResourceLink)
	svg, _ := res.Content[3].(*mcp.ResourceLink)
	if png == nil || png.URI != link.String() || png.MIMEType != "image/png" ||
		svg == nil || svg.URI != strings.Replace(link.String(), "/api/qr-code.png?", "/api/qr-code.svg?", 1) || svg.MIMEType != "image/svg+xml" {
		t.Errorf("resource links %+v %+v", res.Content[2], res.Content[3])
	}
	warn, _ := res.Content[4].(*mcp.TextContent)
	if warn == nil || !strings.HasPrefix(warn.Text, "Warning SMALL_QUIET_ZONE (margin): A quiet zone of 2 modules") {
		t.Errorf("warning %+v", res.Content[4])
	}

	// Without a base URL there is no address to link.
	cs = session(t, f.config(), edge("203.0.113.7", ""))
	res = mcptest.CallTool(t, cs, mcpserver.ToolName, json.RawMessage(`{"type":"text","text":"no link"}`))
	if _, text := mcptest.ImagePNG(t, res); text != "no link" || len(res.Content) != 1 {
		t.Errorf("without a base URL: %q, %d blocks", text, len(res.Content))
	}
}

// TestCallPrivate checks that a private payload, of its type or by its content, comes back as
// the image alone: no link and nothing of the payload in the answer but the PNG.
func TestCallPrivate(t *testing.T) {
	f := &fakes{admit: true}
	cs := session(t, f.config(), edge("198.51.100.2", "https://qr.example.com"))
	for _, c := range []struct{ args, payload, secret string }{
		{`{"type":"wifi","ssid":"home","password":"correct horse"}`, "WIFI:T:WPA;S:home;P:correct horse;;", "correct horse"},
		{`{"type":"email","to":"jane@example.com","subject":"Hi"}`, "mailto:jane@example.com?subject=Hi", "jane@example.com"},
		{`{"type":"text","text":"WIFI:T:WPA;S:home;P:secret-pass;;"}`, "WIFI:T:WPA;S:home;P:secret-pass;;", "secret-pass"},
	} {
		res := mcptest.CallTool(t, cs, mcpserver.ToolName, json.RawMessage(c.args))
		if _, text := mcptest.ImagePNG(t, res); text != c.payload {
			t.Errorf("%s: the PNG reads %q, want %q", c.args, text, c.payload)
		}
		if len(res.Content) != 1 {
			t.Errorf("%s: %d content blocks: %+v", c.args, len(res.Content), res.Content[1:])
		}
		if b, _ := json.Marshal(res); bytes.Contains(b, []byte(c.secret)) || bytes.Contains(b, []byte("qr.example.com")) {
			t.Errorf("%s: the answer shows the payload or a link: %.200s", c.args, b)
		}
	}
}

// TestCallRateLimited checks that a refused admission is a tool error, RATE_LIMITED with the
// limit and the wait, and that no code is made for it.
func TestCallRateLimited(t *testing.T) {
	f := &fakes{admit: false, limit: 5}
	cs := session(t, f.config(), edge("192.0.2.9", "https://qr.example.com"))
	e := errorBody(t, mcptest.CallTool(t, cs, mcpserver.ToolName, json.RawMessage(`{"type":"text","text":"x"}`)))
	want := api.ErrorBody{Error: "more than 5 codes a minute", Reason: string(api.ReasonRateLimited),
		Message: "more than 5 codes a minute", Hint: "Wait 60 seconds before asking again; do not retry in a tight loop."}
	if e != want {
		t.Errorf("got  %+v\nwant %+v", e, want)
	}
	if !slices.Equal(f.callers, []string{"192.0.2.9"}) || len(f.requests) != 0 {
		t.Errorf("admitted %q, made %d codes", f.callers, len(f.requests))
	}
}

// TestCallErrors checks that a call's errors are tool errors carrying the API's error object:
// the arguments' own, which are not counted against the budget, and Code's, exactly as
// api.ErrorOf gives them.
func TestCallErrors(t *testing.T) {
	tests := []struct {
		name     string
		args     string
		generate func(context.Context, *api.Request) (*generate.Result, error)
		want     api.ErrorBody
		counted  bool
	}{
		{"raw data", `{"type":"text","data":"x"}`, nil,
			api.ErrorOf(api.NewError(api.ReasonUnknownField, "data", "Remove data: generate_qr does not take raw QR strings; give type and its fields.", "generate_qr takes no data")).Body(), false},
		{"format", `{"type":"text","text":"x","format":"svg"}`, nil,
			api.ErrorOf(api.NewError(api.ReasonUnknownField, "format", "Remove format; generate_qr always returns a PNG.", "generate_qr takes no format")).Body(), false},
		{"no type", `{"text":"x"}`, nil,
			api.ErrorOf(api.NewError(payload.ReasonMissingField, "type", "Add type: url, wifi, vcard, email, sms, text, tel, geo, event, epc, swissqr, emvco, upi, spayd or bitcoin, with its fields.", "type is required")).Body(), false},
		{"wrong type", `{"type":"text","text":"x","size":"big"}`, nil,
			api.ErrorOf(api.NewError(api.ReasonWrongType, "size", "Send size as a JSON integer.", "size must be a JSON integer")).Body(), false},
		{"generate's api error", `{"type":"text","text":"x"}`,
			func(context.Context, *api.Request) (*generate.Result, error) {
				return nil, api.NewError(api.ReasonNotEncodable, "size", "Use size 300 or more.", "too small")
			},
			api.ErrorBody{Error: "too small", Reason: "NOT_ENCODABLE", Message: "too small", Hint: "Use size 300 or more."}, true},
		{"generate's payload error", `{"type":"text","text":"x"}`,
			func(context.Context, *api.Request) (*generate.Result, error) {
				return nil, &payload.Error{Reason: payload.ReasonInvalidPhone, Field: "phone", Message: "bad phone", Hint: "Fix it."}
			},
			api.ErrorBody{Error: "bad phone", Reason: "INVALID_PHONE", Message: "bad phone", Hint: "Fix it."}, true},
		{"generate's fault", `{"type":"text","text":"x"}`,
			func(context.Context, *api.Request) (*generate.Result, error) { return nil, context.DeadlineExceeded },
			api.ErrorOf(context.DeadlineExceeded).Body(), true},
		{"low contrast", `{"type":"text","text":"x","color":"FFFFFF","background":"000000"}`, nil, lowContrast(t), true},
		{"too long at H", `{"type":"text","text":"` + strings.Repeat("x", 1300) + `","ecc":"H"}`, nil,
			api.ErrorBody{Error: "the payload (1300 bytes) does not fit a QR code at level H", Reason: "NOT_ENCODABLE",
				Message: "the payload (1300 bytes) does not fit a QR code at level H",
				Hint:    "At error correction level H a code holds at most 1273 bytes of this text; shorten it, lower ecc, or encode a URL that points to it."}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakes{admit: true, generate: tt.generate}
			cs := session(t, f.config(), edge("192.0.2.3", "https://qr.example.com"))
			if e := errorBody(t, mcptest.CallTool(t, cs, mcpserver.ToolName, json.RawMessage(tt.args))); e != tt.want {
				t.Errorf("got  %+v\nwant %+v", e, tt.want)
			}
			if counted := len(f.callers) == 1; counted != tt.counted || len(f.requests) != len(f.callers) {
				t.Errorf("admitted %q, made %d codes; want counted %t", f.callers, len(f.requests), tt.counted)
			}
		})
	}
}

// lowContrast returns the error object of white on black, as generate.Code gives it.
func lowContrast(t *testing.T) api.ErrorBody {
	r, err := api.DecodeJSON([]byte(`{"type":"text","text":"x","color":"FFFFFF","background":"000000"}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = generate.Code(&r)
	e := api.ErrorOf(err)
	if e.Reason != api.ReasonLowContrast || !strings.HasPrefix(e.Hint, "Use a darker color") {
		t.Fatalf("white on black: %+v", e)
	}
	return e.Body()
}
