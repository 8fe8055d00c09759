// Package mcpserver is the shared-expenses application's Model Context Protocol edge (spec 4.8):
// the fourteen tools of package service, served statelessly over Streamable HTTP at /mcp with
// the official Go SDK.
//
// Each tool's input and output schemas are inferred from the service's input and output
// structs (mcp.AddTool's In and Out), with two adjustments: amounts (json.Number in the
// service) are declared as JSON numbers, as spec 4.8 says, and properties carry descriptions.
// After the SDK has checked a call's arguments against the schema, they are decoded again from
// the JSON text as sent (exactArgs), since the SDK reads numbers as float64 on the way.
//
// Authentication (auth.go): a tools/call of one of the tools needs "Authorization: Bearer
// <token>" (a token from "bananaqr expenses token"); without a valid one the HTTP answer is 401
// with a WWW-Authenticate challenge that names the protected resource metadata of RFC 9728
// (metadata.go). initialize and tools/list need no token; a token that is sent is always
// checked; a call of an unknown tool is a JSON-RPC error whatever the token. The caller the
// HTTP layer authenticated reaches the tools through the SDK's request extra
// (req.Extra.TokenInfo), since the SDK does not hand the HTTP request's context to tool
// handlers; a tool that finds none answers UNAUTHORIZED.
//
// The HTTP handler also answers CORS preflights and sets CORS headers with the MCP transport's
// headers (package internal/cors), serves a page on how to get a token, and writes an access
// log without secrets (access.go).
//
// Tool errors (spec 7.4) are results with isError true whose one text content is the JSON
// object {"error": "...", "code": "UNAUTHORIZED|FORBIDDEN|NOT_FOUND|INVALID_INPUT"}; they carry
// no structuredContent, which would not match the tool's output schema. Arguments that do
// not match the input schema are INVALID_INPUT too. A write past the caller's write limit
// (service.LimitWrites) is RATE_LIMITED, with "retryAfter": the seconds to wait. Errors that are not the caller's fault
// (the database is down) are logged and answered with code INTERNAL and a generic message.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/expenses/oauth"
	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/internal/buildinfo"
	"github.com/bananaqr/bananaqr/internal/cors"
	"github.com/bananaqr/bananaqr/internal/mcptasks"
)

// ReasonInternal is the code of an error that is not the caller's fault.
const ReasonInternal = "INTERNAL"

// cutMark ends an error message cut to MaxErrorMessage.
const cutMark = "… (cut)"

// internalMessage is the message of an error that is not the caller's fault; the error itself
// is logged.
const internalMessage = "internal error; try again later"

// MaxRequestBody caps the size of one request body: 128 KiB, twice the largest call the
// tools' limits allow (an expense split among 50 people of 100-character names, every
// character written as a \uXXXX surrogate pair, is about 64 KB), so that the connections one
// client may hold cannot make the server hold much more than they need.
const MaxRequestBody = 128 << 10

// Options configures the edge.
type Options struct {
	// BaseURL is the server's public origin, such as https://expenses.example.com: the MCP
	// endpoint's public URL is BaseURL + "/mcp", the protected resource of the metadata and of
	// the 401's challenge. Required; never taken from a request's Host.
	BaseURL string
	// DocumentationURL is the metadata's resource_documentation, a page that says how tokens
	// are obtained; by default the page this server serves at BaseURL + "/".
	DocumentationURL string
	// DisableLocalhostProtection turns off the SDK's DNS-rebinding protection, which refuses
	// requests that reach a loopback listener with another Host: needed behind a reverse
	// proxy on the same machine.
	DisableLocalhostProtection bool
	// Logger receives each MCP request's line (access.go), internal errors, and the SDK's
	// warnings and errors; slog.Default() when nil.
	Logger *slog.Logger
	// Middleware is MCP receiving middleware added after the edge's own, so that it sees the
	// answers clients get: telemetry.ToolCalls's count of tool calls, for one.
	Middleware []mcp.Middleware
	// OAuth, when not nil, is the authorization server of this server's users (package oauth):
	// its endpoints are served beside MCP, the protected resource metadata names it, and the
	// MCP endpoint takes its access tokens, each for the scopes it grants, beside the static
	// tokens of "bananaqr expenses token". Its issuer must be BaseURL and its resource the MCP
	// endpoint.
	OAuth *oauth.Server
}

// ToolNames are the tools, in the order tools/list shows them.
var ToolNames = []string{"get_balances", "list_expenses", "get_expense", "add_expense", "delete_expense",
	"restore_expense", "add_payment", "list_groups", "get_group", "create_group", "join_group", "add_friend", "list_friends",
	"get_me"}

// corsMaxAge is how long a browser may keep a preflight's answer.
const corsMaxAge = 24 * time.Hour

// mcpCORS is the CORS policy of every route: a browser-hosted MCP client may send the headers
// of the Streamable HTTP transport, the bearer token among them, and read its response headers
// (WWW-Authenticate among them). The metadata takes the same request headers, since clients
// send Mcp-Protocol-Version when they fetch it.
var mcpCORS = cors.New(cors.MCPRequestHeaders, cors.MCPResponseHeaders, corsMaxAge)

// Handler returns the server's HTTP handler: MCP at /mcp (POST), the protected resource
// metadata at /.well-known/oauth-protected-resource and at its path-suffixed form
// /.well-known/oauth-protected-resource/mcp, and the page on how to get a token at / (GET and
// HEAD); other paths are 404. It fails when opts.BaseURL or opts.DocumentationURL is not a
// usable URL.
func Handler(svc *service.Service, opts Options) (http.Handler, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	urls, err := newPublicURLs(opts.BaseURL, opts.DocumentationURL)
	if err != nil {
		return nil, err
	}
	server := NewServer(svc, opts)
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless: true, JSONResponse: true, DisableLocalhostProtection: opts.DisableLocalhostProtection,
		MaxRequestBodyBytes: MaxRequestBody, Logger: opts.Logger,
	})
	gate := newAuthGate(svc, ToolNames, urls.metadata, urls.docs, opts.OAuth, mcptasks.Handler(sdk), opts.Logger)
	metadata, docs := metadataDocument(urls, opts.OAuth), docsDocument(urls, ToolNames, opts.OAuth)
	mux := http.NewServeMux()
	if opts.OAuth != nil {
		opts.OAuth.Register(mux)
	}
	mux.Handle(EndpointPath, mcpCORS.Handler(http.MethodPost, gate))
	mux.Handle(metadataPrefix, mcpCORS.Handler("GET, HEAD", metadata))
	mux.Handle(metadataPrefix+EndpointPath, mcpCORS.Handler("GET, HEAD", metadata))
	mux.Handle("/{$}", mcpCORS.Handler("GET, HEAD", docs)) // docsPath, the root only
	return logRequests(opts.Logger, mux), nil
}

// Routes are the paths Handler serves, for an access log and metrics that name routes (any
// other path is a 404 and should be counted as one unknown route).
func Routes() []string {
	return []string{EndpointPath, metadataPrefix, metadataPrefix + EndpointPath, docsPath}
}

// NewServer returns the MCP server with the fourteen tools.
func NewServer(svc *service.Service, opts Options) *mcp.Server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	e := &edge{svc: svc, log: opts.Logger}
	server := mcp.NewServer(&mcp.Implementation{Name: "bananaqr-expenses", Title: "bananaqr shared expenses", Version: buildinfo.Version()},
		&mcp.ServerOptions{Capabilities: capabilities, Logger: slog.New(warnings{opts.Logger.Handler()})})
	server.AddReceivingMiddleware(e.middleware)
	server.AddReceivingMiddleware(opts.Middleware...)
	e.addLedgerReadTools(server)
	e.addLedgerWriteTools(server)
	e.addGroupTools(server)
	e.addPeopleTools(server)
	return server
}

// addLedgerReadTools adds the tools that read balances and expenses: get_balances,
// list_expenses and get_expense.
func (e *edge) addLedgerReadTools(server *mcp.Server) {
	svc := e.svc
	addTool(e, server, "get_balances", "Balances", readOnly(),
		"Shows who owes the caller money and whom the caller owes, per person and currency, netting all expenses and payments that are not deleted. owed lists what the caller owes others; owedToYou what others owe the caller. Amounts are decimal strings with the currency's minor-unit digits. Takes no parameters.",
		nil, noArguments(svc.GetBalances))
	addTool(e, server, "list_expenses", "List expenses", readOnly(),
		"Lists the expenses the caller takes part in that are not deleted, newest first, 20 a page by default (at most 100). Pass the nextCursor of the answer as cursor for the next page; no nextCursor means the last page. Filter by group (name or id) and by recurring.",
		map[string]string{
			"limit":     "Expenses per page, 1 to 100; default 20.",
			"cursor":    "The nextCursor of the previous page; omit for the first page.",
			"group":     "Only expenses of this group: its name or id (see list_groups).",
			"recurring": "true: only recurring expenses; false: only one-off expenses; omit for both.",
		}, svc.ListExpenses)
	addTool(e, server, "get_expense", "Get an expense", readOnly(),
		"Shows one expense by id, deleted or not: title, amount, currency, who paid, group, each person's share, date.",
		map[string]string{"id": "The expense's id (see list_expenses)."}, svc.GetExpense)
}

// addLedgerWriteTools adds the tools that record, delete and restore expenses and record
// payments: add_expense, delete_expense, restore_expense and add_payment.
func (e *edge) addLedgerWriteTools(server *mcp.Server) {
	svc := e.svc
	addTool(e, server, "add_expense", "Add an expense", write(false, false),
		`Records an expense someone paid and how it is split. People are named as the caller knows them: "me", a friend's name, or a member of one of the caller's groups. With a group and no splits the group's default split applies (10.00 EUR among three is 3.34, 3.33, 3.33); without a group splits are required. Splits must add up to the amount exactly. Not idempotent: calling twice records two expenses.`,
		map[string]string{
			"title":     `What the expense was for, e.g. "Dinner".`,
			"amount":    "The total, a positive number with at most the currency's minor-unit digits, e.g. 12.50; at most 10^15 minor units (10000000000000.00 EUR, 1000000000000000 JPY).",
			"currency":  "ISO 4217 code such as EUR; default: the group's currency.",
			"paidBy":    `Who paid: "me" (default) or a person's name.`,
			"group":     "The group's name or id (see list_groups); optional.",
			"splits":    `Amount per person, e.g. {"me": 5, "Ben": 7.5}, at most 50 people; must add up to amount. Optional with a group.`,
			"date":      "YYYY-MM-DD; default today (UTC).",
			"recurring": "Marks a recurring expense (rent, subscriptions); default false.",
		}, svc.AddExpense)
	addTool(e, server, "delete_expense", "Delete an expense", write(false, false),
		"Deletes an expense by id. It is a soft delete: the expense leaves the balances and list_expenses but can be brought back with restore_expense, so it is not destructive. Deleting an already deleted expense is INVALID_INPUT.",
		map[string]string{"id": "The expense's id (see list_expenses)."}, svc.DeleteExpense)
	addTool(e, server, "restore_expense", "Restore an expense", write(false, false),
		"Brings back an expense deleted with delete_expense, by id; it counts in the balances again. Restoring an expense that is not deleted is INVALID_INPUT.",
		map[string]string{"id": "The id of the deleted expense."}, svc.RestoreExpense)
	addTool(e, server, "add_payment", "Record a payment", write(false, false),
		`Records money paid from one person to another to settle up, e.g. after get_balances. One of from and to must be "me". Not idempotent: calling twice records two payments.`,
		map[string]string{
			"amount":      "The amount paid, a positive number with at most the currency's minor-unit digits, e.g. 20 or 12.50; at most 10^15 minor units (10000000000000.00 EUR).",
			"currency":    "ISO 4217 code such as EUR.",
			"from":        `Who paid: "me" (default) or a person's name.`,
			"to":          `Who received the money: a person's name, or "me".`,
			"date":        "YYYY-MM-DD; default today (UTC).",
			"description": "A note, optional.",
		}, svc.AddPayment)
}

// addGroupTools adds the tools of groups: list_groups, get_group, create_group and
// join_group.
func (e *edge) addGroupTools(server *mcp.Server) {
	svc := e.svc
	addTool(e, server, "list_groups", "List groups", readOnly(),
		"Lists the groups the caller is a member of (status member) or invited to (status invited: join_group accepts), 20 a page by default (at most 100). Pass the nextCursor of the answer as cursor for the next page.",
		map[string]string{
			"limit":  "Groups per page, 1 to 100; default 20.",
			"cursor": "The nextCursor of the previous page; omit for the first page.",
		}, svc.ListGroups)
	addTool(e, server, "get_group", "Get a group", readOnly(),
		"Shows one of the caller's groups, or a group the caller is invited to, by id or name, with its members, the users invited who have not joined, and its default split. An id is matched before names; a name several of the caller's groups have is INVALID_INPUT listing their ids.",
		map[string]string{"name": "The group's id or name (one of the caller's groups)."}, svc.GetGroup)
	addTool(e, server, "create_group", "Create a group", write(false, false),
		`Creates a group with the caller as its first member. Members are named as the caller knows them (friends, people in the caller's groups); an unknown name becomes a new person without an account, added as the caller's friend, even if a user has that name. Registered users can be invited only by their friends (add_friend, asked by both) and become members when they accept with join_group; naming a registered user who is not the caller's friend is FORBIDDEN. At most 50 people a group, the caller included, and 500 friends a user. Group names are unique among the caller's groups and cannot have the form of an id (32 hexadecimal digits).`,
		map[string]string{
			"name":     `The group's name, e.g. "Lisbon trip".`,
			"currency": "The group's default currency, an ISO 4217 code such as EUR.",
			"type":     "The kind of group, e.g. travel, home, couple, other.",
			"members":  "The other members' names, at most 49; the caller is always a member.",
		}, svc.CreateGroup)
	addTool(e, server, "join_group", "Join a group", write(false, false),
		"Accepts an invitation to a group (see list_groups, status invited): the caller becomes its last member, and from then on its members may record the group's expenses with the caller, and the caller with them. Joining a group does not make its members the caller's friends.",
		map[string]string{"group": "The id or name of the group the caller is invited to."}, svc.JoinGroup)
}

// addPeopleTools adds the tools of the caller and their friends: add_friend, list_friends
// and get_me.
func (e *edge) addPeopleTools(server *mcp.Server) {
	svc := e.svc
	addTool(e, server, "add_friend", "Add a friend", write(false, true),
		`Asks the registered user of that name to be friends. When they have asked for you too, you become friends (status "friends"): you can invite each other to groups and share expenses and payments; otherwise the request is kept (status "requested") until they add you. The answer is the same whether or not the name is registered. Friends without an account need no request: create_group adds them by name.`,
		map[string]string{"name": "The other user's name."}, svc.AddFriend)
	addTool(e, server, "list_friends", "List friends", readOnly(),
		"Lists the caller's friends by the names the caller knows them by, and whether each has an account. Takes no parameters.",
		nil, noArguments(svc.ListFriends))
	addTool(e, server, "get_me", "Who am I", readOnly(),
		"Shows the caller's account: id, name and when it was created. Takes no parameters.",
		nil, noArguments(svc.GetMe))
}

func readOnly() *mcp.ToolAnnotations {
	no := false
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no}
}

func write(destructive, idempotent bool) *mcp.ToolAnnotations {
	no := false
	return &mcp.ToolAnnotations{DestructiveHint: &destructive, IdempotentHint: idempotent, OpenWorldHint: &no}
}

// numberSchemas declares json.Number, the service's type of amounts, as a JSON number.
var numberSchemas = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[json.Number](): {Type: "number"},
}}

// noArguments adapts an operation that takes no arguments to addTool, as a tool whose input is
// the empty object.
func noArguments[Out any](op func(context.Context, service.Caller) (Out, error)) func(context.Context, service.Caller, struct{}) (Out, error) {
	return func(ctx context.Context, c service.Caller, _ struct{}) (Out, error) { return op(ctx, c) }
}

// addTool registers one tool whose schemas come from In and Out. Out is declared through
// the output schema only, and the SDK's handler type uses any, so that a tool error carries
// no structured content of Out's zero value.
func addTool[In, Out any](e *edge, s *mcp.Server, name, title string, ann *mcp.ToolAnnotations, description string,
	props map[string]string, op func(context.Context, service.Caller, In) (Out, error)) {
	in, err := jsonschema.For[In](numberSchemas)
	if err != nil {
		panic(name + ": input schema: " + err.Error())
	}
	for _, ps := range in.Properties {
		// An optional pointer field (recurring *bool) is inferred as ["null", T]: declare T,
		// since omitting the field is how it is left out.
		if len(ps.Types) == 2 && ps.Types[0] == "null" {
			ps.Type, ps.Types = ps.Types[1], nil
		}
	}
	for p, d := range props {
		ps, ok := in.Properties[p]
		if !ok {
			panic(name + ": no property " + p)
		}
		ps.Description = d
	}
	for p, ps := range in.Properties {
		declareTextLimit(p, ps)
		declareItemLimit(p, ps)
	}
	if lim, ok := in.Properties["limit"]; ok {
		lim.Minimum = jsonschema.Ptr(1.0)
	}
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(name + ": output schema: " + err.Error())
	}
	ann.Title = title
	mcp.AddTool(s, &mcp.Tool{Name: name, Title: title, Description: description, InputSchema: in, OutputSchema: out, Annotations: ann},
		func(ctx context.Context, req *mcp.CallToolRequest, _ In) (*mcp.CallToolResult, any, error) {
			c, err := e.caller(ctx)
			if err != nil {
				return e.toolError(name, err), nil, nil
			}
			args, err := exactArgs[In](req)
			if err != nil {
				return e.toolError(name, err), nil, nil
			}
			res, err := op(ctx, c, args)
			if err != nil {
				return e.toolError(name, err), nil, nil
			}
			return nil, res, nil
		})
}

// declareTextLimit puts service.TextLimits into the schema of parameter p: the longest
// string, list element (members) or key (splits) it accepts.
func declareTextLimit(p string, ps *jsonschema.Schema) {
	lim, ok := service.TextLimits[p]
	if !ok {
		return
	}
	switch {
	case ps.Type == "string":
		ps.MaxLength = &lim
	case ps.Type == "array" && ps.Items != nil:
		ps.Items.MaxLength = &lim
	case ps.Type == "object":
		ps.PropertyNames = &jsonschema.Schema{Type: "string", MaxLength: &lim}
	}
}

// declareItemLimit puts service.ItemLimits into the schema of parameter p: the most
// elements of a list (maxItems) or keys of an object (maxProperties) it accepts.
func declareItemLimit(p string, ps *jsonschema.Schema) {
	lim, ok := service.ItemLimits[p]
	if !ok {
		return
	}
	switch ps.Type {
	case "array":
		ps.MaxItems = &lim
	case "object":
		ps.MaxProperties = &lim
	}
}

// exactArgs decodes the call's arguments again from the JSON text the client sent. The SDK
// validates arguments through a map[string]any, so the In it passes has seen every number as
// a float64: 12.3400000000000001 arrives as 12.34. Decoding the raw text hands json.Number
// fields (amounts) the digits as written, so that more decimals than a currency allows are
// refused instead of rounded. The SDK has already checked the arguments against the schema.
func exactArgs[In any](req *mcp.CallToolRequest) (In, error) {
	var in In
	if req.Params == nil || len(req.Params.Arguments) == 0 {
		return in, nil
	}
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
		return in, &service.Error{Reason: service.ReasonInvalidInput, Message: "invalid arguments: " + err.Error()}
	}
	return in, nil
}

// edge holds what the tools share.
type edge struct {
	svc *service.Service
	log *slog.Logger
}

type callerKey struct{}

// middleware puts the caller the HTTP layer authenticated (auth.go) in the context of each
// tools/call, or answers UNAUTHORIZED when there is none, before the SDK reads the call's
// arguments, so that such a call is UNAUTHORIZED whatever its arguments; a call of an unknown
// tool goes on to the SDK's JSON-RPC error. It turns the SDK's own tool errors (arguments that
// do not match the schema) into INVALID_INPUT.
func (e *edge) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		r, ok := req.(*mcp.CallToolRequest)
		if !ok || r.Params == nil || !slices.Contains(ToolNames, r.Params.Name) {
			return next(ctx, method, req)
		}
		c, ok := authenticatedCaller(r)
		if !ok {
			_, err := e.svc.Authenticate(ctx, "") // UNAUTHORIZED, "authentication required"
			return e.toolError(r.Params.Name, err), nil
		}
		res, err := next(context.WithValue(ctx, callerKey{}, c), method, req)
		if tr, ok := res.(*mcp.CallToolResult); ok && err == nil && tr.IsError && tr.GetError() != nil {
			return errorResult(&service.Error{Reason: service.ReasonInvalidInput, Message: "invalid arguments: " + tr.GetError().Error()}), nil
		}
		return res, err
	}
}

// authenticatedCaller returns the caller the HTTP layer put in the call's token info.
func authenticatedCaller(req *mcp.CallToolRequest) (service.Caller, bool) {
	if req.Extra == nil || req.Extra.TokenInfo == nil {
		return service.Caller{}, false
	}
	c, ok := req.Extra.TokenInfo.Extra[callerInfoKey].(service.Caller)
	return c, ok
}

// caller returns the caller the middleware put in ctx.
func (e *edge) caller(ctx context.Context) (service.Caller, error) {
	if c, ok := ctx.Value(callerKey{}).(service.Caller); ok {
		return c, nil
	}
	return e.svc.Authenticate(ctx, "") // UNAUTHORIZED; not reached, as the middleware answers first
}

// toolError returns err as a tool error; errors that are not *service.Error are logged and
// answered without details.
func (e *edge) toolError(tool string, err error) *mcp.CallToolResult {
	var se *service.Error
	if !errors.As(err, &se) {
		e.log.Error("tool call failed", "tool", tool, "error", err.Error())
		se = &service.Error{Reason: ReasonInternal, Message: internalMessage}
	}
	return errorResult(se)
}

// MaxErrorMessage is the longest message of a tool error, in bytes: the service's messages
// are shorter by design (names are at most 100 characters, lists at most ten), and the SDK's
// account of arguments that do not match the schema, which quotes the argument, is cut to it.
const MaxErrorMessage = 1000

// errorResult returns se as the tool error {error, code}, its message cut to MaxErrorMessage.
func errorResult(se *service.Error) *mcp.CallToolResult {
	if len(se.Message) > MaxErrorMessage {
		cut := *se
		cut.Message = strings.ToValidUTF8(se.Message[:MaxErrorMessage-len(cutMark)], "") + cutMark
		se = &cut
	}
	text, _ := json.Marshal(se)
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

// warnings is a log handler that passes on WARN and above only: the SDK's server logs each
// stateless request's session at INFO, which would double the access log.
type warnings struct{ slog.Handler }

func (w warnings) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && w.Handler.Enabled(ctx, l)
}

func (w warnings) WithAttrs(attrs []slog.Attr) slog.Handler {
	return warnings{w.Handler.WithAttrs(attrs)}
}

func (w warnings) WithGroup(name string) slog.Handler { return warnings{w.Handler.WithGroup(name)} }
