// Package mcpserver is the service's Model Context Protocol edge (spec 4.7): one tool,
// generate_qr, served statelessly over Streamable HTTP with the official Go SDK. A call takes
// a payload type with its fields and the style fields (never raw data), counts against the
// caller's budget shared with the HTTP API, and returns the PNG as an image content block,
// structured content that describes the code (Output, declared as the tool's outputSchema),
// and, for public url and text codes, a Markdown image and resource links to
// /api/qr-code.png and /api/qr-code.svg.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/admission"
	"github.com/bananaqr/bananaqr/internal/buildinfo"
	"github.com/bananaqr/bananaqr/internal/generate"
	"github.com/bananaqr/bananaqr/internal/mcphttp"
	"github.com/bananaqr/bananaqr/internal/mcptasks"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/bananaqr/bananaqr/payload"
)

// Caller is what the HTTP edge tells a tool call through the request's context: who calls and
// where the service is. Nothing of it comes from request headers the edge did not vet.
type Caller struct {
	// Key is the caller's key in the rate limit (an IPv4 address or an IPv6 prefix).
	Key string
	// BaseURL, such as https://qr.example.com, starts the link to a public code's PNG; empty
	// when there is none, and then there is no link.
	BaseURL string
}

// callerKey is the context key of a Caller.
type callerKey struct{}

// WithCaller returns ctx carrying c, for the HTTP request that Handler serves.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// callerOf returns the Caller that WithCaller put in ctx, or the zero Caller.
func callerOf(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}

// ToolName is the one tool's name.
const ToolName = "generate_qr"

// Config configures the MCP edge.
type Config struct {
	// Admit counts a call of caller against the budget it shares with the HTTP API: false
	// when over it, with the decision (admission.Gate.Admit).
	Admit func(ctx context.Context, caller string) (ratelimit.Decision, bool)
	// Code makes a code within the bound on simultaneous work it shares with the HTTP API
	// (admission.Gate.Code).
	Code func(context.Context, *api.Request) (*generate.Result, error)
	// Refund gives n codes back to caller's budget, for a call counted and refused OVERLOADED
	// (admission.Gate.Refund); nil for none.
	Refund func(ctx context.Context, caller string, n int) ratelimit.Decision
	// DisableLocalhostProtection turns off the SDK's DNS-rebinding protection, which refuses
	// requests that reach a loopback listener with another Host: needed behind a reverse proxy
	// on the same machine.
	DisableLocalhostProtection bool
	// RateLimit is the codes a minute Admit lets each caller make, for the tool's description;
	// 0 when there is no limit.
	RateLimit int
	// Logger gets the tool calls' faults and the SDK's own (default slog.Default()).
	Logger *slog.Logger
	// Middleware, when set, wraps the server's handling of every MCP method: the metrics' count
	// of tool calls (telemetry.ToolCalls.Middleware).
	Middleware mcp.Middleware
}

// Handler returns the HTTP handler of /mcp. A request's context tells the tool who calls
// (WithCaller); without it the caller is "" and there is no link. A POST body over api.MaxBody
// or holding a JSON-RPC batch is refused before the SDK reads it (package mcphttp), with a
// JSON-RPC error whose data is the API's error object.
func Handler(cfg Config) http.Handler {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "bananaqr", Title: "bananaqr QR codes", Version: buildinfo.Version(), Icons: Icons},
		&mcp.ServerOptions{Capabilities: capabilities})
	no := false
	server.AddTool(&mcp.Tool{
		Name:         ToolName,
		Title:        "Generate a QR code",
		Description:  toolDescription(cfg.RateLimit),
		InputSchema:  inputSchema(),
		OutputSchema: outputSchema(),
		Icons:        Icons,
		Annotations: &mcp.ToolAnnotations{Title: "Generate a QR code", ReadOnlyHint: true, IdempotentHint: true,
			DestructiveHint: &no, OpenWorldHint: &no},
	}, (&tool{cfg: cfg}).call)
	if cfg.Middleware != nil {
		server.AddReceivingMiddleware(cfg.Middleware)
	}
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless: true, JSONResponse: true, DisableLocalhostProtection: cfg.DisableLocalhostProtection,
		MaxRequestBodyBytes: api.MaxBody, Logger: cfg.Logger,
	})
	return (&mcphttp.Body{Limit: api.MaxBody, ErrorData: refusalError}).Handler(mcptasks.Handler(sdk))
}

// refusalError returns the API's error object of a body that mcphttp refuses before the SDK
// reads it: a batch or an unreadable body is INVALID_JSON (not one JSON object), an oversized
// body BODY_TOO_LARGE, as the HTTP API's POST answers them.
func refusalError(refusal mcphttp.Refusal, msg string) any {
	switch refusal {
	case mcphttp.Batch:
		return api.NewError(api.ReasonInvalidJSON, "", "Send each JSON-RPC message in a request of its own (MCP 2025-06-18 removed batches).", "%s", msg).Body()
	case mcphttp.TooLarge:
		return api.NewError(api.ReasonBodyTooLarge, "", "Send at most 64 KiB: one tools/call with its arguments.", "%s", msg).Body()
	default:
		return api.NewError(api.ReasonInvalidJSON, "", "Send the whole body.", "%s", msg).Body()
	}
}

// toolDescription tells an agent what generate_qr does and needs, and the caller's budget of
// limit codes a minute (0: none).
func toolDescription(limit int) string {
	budget := " Codes are not rate-limited."
	if limit > 0 {
		budget = fmt.Sprintf(" Codes count against the caller's %d codes a minute.", limit)
	}
	return toolDescriptionText + budget
}

// toolDescriptionText is the description of generate_qr, less the rate limit; the types and
// their fields are payload.TypeFields'.
var toolDescriptionText = `Makes a QR code and returns it as a PNG image. Choose type and give its fields: ` + typeFieldList() + `.
A url without a scheme gets https://; a wifi password is not needed when security is nopass; security WPA covers WPA2 and WPA3.
Style fields are optional: color and background (RRGGBB; the colour must be clearly darker than the background, or the call fails with LOW_CONTRAST and a readable colour in its hint), logo (banana puts the service's mark in the centre), corners, size in pixels, ecc, margin in modules (below 4 gives a warning).
A geo latitude, longitude or altitude and an epc amount may be numbers or strings; an event's start and end are dates (2026-12-24) or date-times with a time zone (2026-12-24T18:00:00+01:00).
` + generate.FixedSentences() + `
Up to 2,048 characters of payload. ` + privateTypesSentence

// privateTypesSentence says which types are private (payload.PrivateTypes).
var privateTypesSentence = "Payloads of the types " + payload.JoinWords(payload.PrivateTypes(), "and") + " are private: they are not repeated in the answer."

// typeFieldList lists the types with their fields: "url (url), wifi (ssid, password; security,
// hidden optional), …".
func typeFieldList() string {
	list := make([]string, len(payload.Types))
	for i, t := range payload.Types {
		list[i] = string(t) + " (" + payload.TypeFields[t].String() + ")"
	}
	return strings.Join(list, ", ")
}

// tool serves generate_qr calls.
type tool struct{ cfg Config }

// call answers one call: its arguments read as the HTTP API reads a POST body, less raw data,
// format and download, which the tool does not take.
func (t *tool) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.Params.Arguments
	if err := checkArguments(args); err != nil {
		return toolError(err), nil
	}
	r, err := api.DecodeJSON(args)
	if err != nil {
		return toolError(err), nil
	}
	r.Format = api.FormatPNG
	caller := callerOf(ctx)
	if err := t.admit(ctx, caller.Key); err != nil {
		return toolError(err), nil
	}
	res, err := t.cfg.Code(ctx, &r)
	if err != nil {
		if ctx.Err() != nil {
			// The client cancelled the call or went away: no fault of the service, and no one
			// to read a tool error. The SDK answers a JSON-RPC error, if anything.
			return nil, ctx.Err()
		}
		if api.ErrorOf(err).Reason == api.ReasonOverloaded && t.cfg.Refund != nil {
			t.cfg.Refund(ctx, caller.Key, 1) // not made: not charged
		}
		t.logFault(err)
		return toolError(err), nil
	}
	defer res.Release()
	return codeResult(res, caller.BaseURL, &r), nil
}

// checkArguments refuses arguments that are not a JSON object, that hold what the tool does not
// take (raw data, format, download), or that have no type.
func checkArguments(args json.RawMessage) error {
	var fields map[string]json.RawMessage
	if len(args) == 0 || json.Unmarshal(args, &fields) != nil || fields == nil {
		return api.NewError(api.ReasonInvalidJSON, "", `Pass the arguments as an object, such as {"type":"url","url":"https://example.com"}.`,
			"the arguments are not a JSON object")
	}
	for _, name := range []string{"data", "format", "download"} {
		if _, ok := fields[name]; ok {
			hint := "Remove " + name + "; generate_qr always returns a PNG."
			if name == "data" {
				hint = "Remove data: generate_qr does not take raw QR strings; give type and its fields."
			}
			return api.NewError(api.ReasonUnknownField, name, hint, "generate_qr takes no %s", name)
		}
	}
	if _, ok := fields["type"]; !ok {
		return api.NewError(payload.ReasonMissingField, "type", "Add type: "+payload.JoinWords(payload.Types, "or")+", with its fields.",
			"type is required")
	}
	return nil
}

// admit counts the call of caller against its budget, or returns RATE_LIMITED.
func (t *tool) admit(ctx context.Context, caller string) error {
	// A call is a request for one code: its error, and the seconds its hint says, are those of
	// a single code at the HTTP API (admission.RateLimited), where Retry-After says them.
	if d, ok := t.cfg.Admit(ctx, caller); !ok {
		err, _ := admission.RateLimited(d, 1)
		return err
	}
	return nil
}

// logFault logs err when it is the service's fault: neither an API nor a payload error, which
// are the caller's.
func (t *tool) logFault(err error) {
	var e *api.Error
	var p *payload.Error
	if !errors.As(err, &e) && !errors.As(err, &p) {
		t.cfg.Logger.Error("tool call failed", "error", err.Error())
	}
}

// codeResult returns the result of a call that made res for r: the PNG as an image, then, for a
// public code when the service has a base URL, a Markdown image linking its PNG (for clients
// older than resource_link, which show Markdown) and resource links to its PNG and SVG, then
// the warnings as text; and the structured content (Output), which says all of it as the HTTP
// API's JSON answer does.
func codeResult(res *generate.Result, base string, r *api.Request) *mcp.CallToolResult {
	// The PNG is copied out of the pooled buffer, which Release returns when call does: the SDK
	// marshals the result (ImageContent.MarshalJSON, base64 of Data) only after the handler has
	// returned (jsonrpc2's processResult), so handing it res.PNG would let another request
	// overwrite the image before it is written. Not releasing instead would cost the pool the
	// buffer, which the next code then regrows from nothing: dearer than this one copy.
	structured := output(res, base, r)
	out := &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.ImageContent{Data: append([]byte(nil), res.PNG...), MIMEType: "image/png"},
	}, StructuredContent: structured}
	if structured.ImageURL != nil {
		out.Content = append(out.Content, &mcp.TextContent{Text: api.MarkdownImage(*structured.ImageURL)})
		out.Content = append(out.Content, links(structured)...)
	}
	for _, wn := range res.Warnings {
		out.Content = append(out.Content, &mcp.TextContent{Text: "Warning " + wn.Reason + " (" + wn.Field + "): " + wn.Message})
	}
	return out
}

// toolError returns err as a tool error (isError true), whose text is the HTTP API's error
// object as JSON: an agent can read the code and follow the hint. It has no structured
// content: the spec (2025-06-18, 2025-11-25) says structured results MUST conform to the
// tool's outputSchema, which describes a code, and the TypeScript SDK's client validates
// structuredContent against it even when isError is true, so an error object there would turn
// the tool error into a client-side exception that hides the hint.
func toolError(err error) *mcp.CallToolResult {
	text, _ := json.Marshal(api.ErrorOf(err).Body())
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}
}

// capabilities are what the server declares in server/discover (and initialize): tools, and
// prompts and resources, none of which it has. The SDK answers prompts/list, resources/list and
// resources/read (-32602 for an unknown URI, SEP-2164) whatever is declared, and the 2026-07-28
// revision requires that "servers that support prompts MUST declare the prompts capability"
// (likewise resources): the declaration says what the server answers, empty lists. Not logging
// or tools.listChanged, which the SDK would add by default and the server does not use.
var capabilities = &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Prompts: &mcp.PromptCapabilities{},
	Resources: &mcp.ResourceCapabilities{}}
