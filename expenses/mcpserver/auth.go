// Bearer-token authentication at the HTTP level, where MCP clients look for it (MCP
// authorization, "Authorization Server Discovery" and "Access Token Usage"): a request that
// needs a token and has none, or that sends a wrong one, is answered 401 Unauthorized with a
// WWW-Authenticate challenge (RFC 6750 section 3) naming the protected resource metadata
// (RFC 9728 section 5.1), before the MCP server reads it.
//
// Which requests need a token. The whole of /mcp is the protected resource, but discovery is
// open: initialize, ping, tools/list and notifications need no token, because the tool list is
// the same for everyone and reveals no data, and clients list tools before they are given a
// token. A tools/call of one of the tools needs a valid token. A token that is sent is checked
// on every request ("invalid or expired tokens MUST receive a HTTP 401", MCP authorization,
// "Token Handling"), so a client with a wrong token learns it at initialize. One answer never
// depends on the token: a tools/call of a tool that does not exist is the MCP server's JSON-RPC
// error (invalid params, "unknown tool"), since no token could make it succeed.
//
// The gate reads the body first (package internal/mcphttp, up to MaxRequestBody) and refuses,
// before it authenticates anyone, a body over the bound (413) and a JSON-RPC batch (400, MCP
// 2025-06-18 removed them): both answered with a JSON-RPC error whose data is the spec 7.4
// object, code INVALID_INPUT. Then it decodes the one JSON-RPC message and gives the body back
// to the SDK unchanged. A message it cannot decode is passed on: the SDK answers it with its
// own error, and should it still reach a tool, the tool finds no caller and answers
// UNAUTHORIZED (spec 7.4), so no tool ever runs for a caller the gate did not authenticate.

package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/bananaqr/bananaqr/expenses/oauth"
	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/internal/mcphttp"
)

// JSONRPCUnauthorized is the JSON-RPC error code of a 401's body: a code of the range JSON-RPC
// 2.0 (section 5.1) leaves to the server. Its data is the tool error object of spec 7.4, with
// code UNAUTHORIZED.
const JSONRPCUnauthorized = -32001

// codeInternalError is JSON-RPC 2.0's "Internal error" (section 5.1).
const codeInternalError = -32603

// rpcCall is what the gate reads of one JSON-RPC message: its id, method and, for
// tools/call, the tool's name.
type rpcCall struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// toolName returns the name a tools/call's params give, or "" when they give none.
func (c *rpcCall) toolName() string {
	var p struct {
		Name string `json:"name"`
	}
	if c.Method != "tools/call" || json.Unmarshal(c.Params, &p) != nil {
		return ""
	}
	return p.Name
}

// rpcBody is what the gate knows of a POST body: its one JSON-RPC message, when it could be
// decoded.
type rpcBody struct {
	read bool
	call rpcCall
}

// decodeRPCBody decodes data, a body that mcphttp.Body.Read let through (not a batch).
func decodeRPCBody(data []byte) rpcBody {
	var b rpcBody
	b.read = len(data) > 0 && json.Unmarshal(data, &b.call) == nil
	return b
}

// single returns the body's one message, when it was decoded.
func (b *rpcBody) single() (rpcCall, bool) {
	return b.call, b.read
}

// bodyRefusalError returns the tool error object (spec 7.4) that a refused body's JSON-RPC error
// carries: the caller's to fix, so INVALID_INPUT.
func bodyRefusalError(_ mcphttp.Refusal, msg string) any {
	return &service.Error{Reason: service.ReasonInvalidInput, Message: msg}
}

// authGate authenticates requests to the MCP endpoint before the SDK's handler serves them.
type authGate struct {
	svc   *service.Service
	tools map[string]string // the tools' names → the scope a call needs (toolScope)
	// as is the authorization server whose access tokens the gate takes, beside the static
	// tokens of "bananaqr expenses token"; nil for none.
	as *oauth.Server
	// challenge is the WWW-Authenticate value of a request without a token (RFC 6750 3):
	// the scheme and the resource_metadata parameter (RFC 9728 5.1).
	challenge string
	// metadataURL is the protected resource metadata's URL, which challenges name.
	metadataURL string
	// howToGetToken ends the message of a 401: where the documentation says how tokens are
	// obtained.
	howToGetToken string
	// sdk is the SDK's handler; withCaller is the same behind auth.RequireBearerToken, for
	// authenticated requests: the SDK hands tool handlers the TokenInfo that middleware puts
	// in the request's context (as req.Extra.TokenInfo), and only that middleware can put it
	// there. Its verifier only reads the caller the gate has already authenticated.
	sdk, withCaller http.Handler
	body            *mcphttp.Body // reads POST bodies, refusing batches and oversized ones
	log             *slog.Logger  // internal errors
}

// authenticatedKey is the context key of the caller the gate authenticated, for the verifier.
type authenticatedKey struct{}

// callerInfoKey is the key of the caller in TokenInfo.Extra.
const callerInfoKey = "bananaqr.caller"

// newAuthGate returns the gate in front of sdk, the SDK's handler, for the tools named
// tools, whose challenge names metadataURL and whose 401s point at docsURL; as, when not nil,
// is the authorization server whose access tokens it takes too.
func newAuthGate(svc *service.Service, tools []string, metadataURL, docsURL string, as *oauth.Server, sdk http.Handler, log *slog.Logger) *authGate {
	g := &authGate{svc: svc, tools: map[string]string{}, as: as, sdk: sdk, log: log, metadataURL: metadataURL,
		body:          &mcphttp.Body{Limit: MaxRequestBody, ErrorData: bodyRefusalError},
		challenge:     `Bearer resource_metadata="` + metadataURL + `"`,
		howToGetToken: "; how to get a token: " + docsURL}
	if as != nil {
		// MCP authorization, "Scope Selection": the scopes a client should ask for.
		g.challenge += `, scope="` + strings.Join(oauth.Scopes, " ") + `"`
	}
	for _, t := range tools {
		g.tools[t] = toolScope(t)
	}
	verify := func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		c, ok := ctx.Value(authenticatedKey{}).(service.Caller)
		if !ok {
			return nil, auth.ErrInvalidToken // not reached: the gate calls withCaller only after authenticating
		}
		return &auth.TokenInfo{UserID: c.UserID, Extra: map[string]any{callerInfoKey: c}}, nil
	}
	g.withCaller = auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(sdk)
	return g
}

// ServeHTTP refuses a batch or an oversized body, answers 401 when the request needs a token
// it lacks or sends a wrong one, and passes it to the SDK otherwise, with the caller when a
// valid token was sent.
func (g *authGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	note := noteOf(r.Context())
	data, refusal := g.body.Read(w, r)
	if refusal != mcphttp.Accepted {
		note.setRefusal(refusal)
		return
	}
	body := decodeRPCBody(data)
	note.setRPC(body, g.tools)
	if c, ok := body.single(); ok && c.Method == "tools/call" && g.tools[c.toolName()] == "" {
		g.sdk.ServeHTTP(w, r) // the SDK's "unknown tool", whatever the token
		return
	}
	token := service.BearerToken(r.Header.Get("Authorization"))
	if token == "" && !g.needsToken(body) {
		g.sdk.ServeHTTP(w, r)
		return
	}
	caller, scopes, err := g.authenticate(r.Context(), token)
	var se *service.Error
	switch {
	case errors.As(err, &se) && token == "":
		// RFC 6750 3.1: a request without authentication gets no error code.
		g.unauthorized(w, body, g.challenge, se.Message)
		return
	case errors.As(err, &se):
		// RFC 6750 3.1: invalid_token, "expired, revoked, malformed, or invalid for other
		// reasons"; error_description is for the developer.
		g.unauthorized(w, body, g.challenge+`, error="invalid_token", error_description="`+
			descriptionChars(se.Message)+`"`, se.Message)
		return
	case err != nil:
		// The database could not say whose the token is: not a reason for the client to drop it.
		g.log.ErrorContext(r.Context(), "authentication failed", "error", err.Error())
		writeRPCError(w, http.StatusServiceUnavailable, body, codeInternalError, internalMessage,
			&service.Error{Reason: ReasonInternal, Message: internalMessage})
		return
	}
	note.user = caller.UserID
	if c, ok := body.single(); ok {
		if need := g.tools[c.toolName()]; need != "" && !slices.Contains(scopes, need) {
			g.forbidden(w, body, need)
			return
		}
	}
	g.withCaller.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), authenticatedKey{}, caller)))
}

// authenticate returns the caller of a token and the scopes it grants: an access token of the
// authorization server grants what the person consented to; a static token grants everything.
func (g *authGate) authenticate(ctx context.Context, token string) (service.Caller, []string, error) {
	if g.as == nil || !oauth.IsAccessToken(token) {
		c, err := g.svc.Authenticate(ctx, token)
		return c, oauth.Scopes, err
	}
	grant, err := g.as.Verify(ctx, token)
	if errors.Is(err, oauth.ErrInvalidToken) {
		return service.Caller{}, nil, &service.Error{Reason: service.ReasonUnauthorized,
			Message: "the access token is unknown, expired, revoked or for another resource: get a new one"}
	}
	if err != nil {
		return service.Caller{}, nil, err
	}
	u := grant.User
	return service.Caller{UserID: u.ID, Name: u.Name, PersonID: u.PersonID}, grant.Scopes, nil
}

// needsToken reports whether body calls one of the tools.
func (g *authGate) needsToken(body rpcBody) bool {
	c, ok := body.single()
	return ok && g.tools[c.toolName()] != ""
}

// writeTools are the tools that change data: a call needs scope oauth.ScopeWrite; the others
// read, and need oauth.ScopeRead. (TestToolScopes holds this list to the tools' annotations.)
var writeTools = []string{"add_expense", "delete_expense", "restore_expense", "add_payment", "create_group",
	"join_group", "add_friend"}

// toolScope returns the scope a call of the tool needs.
func toolScope(tool string) string {
	if slices.Contains(writeTools, tool) {
		return oauth.ScopeWrite
	}
	return oauth.ScopeRead
}

// forbidden answers 403 to a token without the scope a call needs, with the challenge that
// says which (RFC 6750 3.1 insufficient_scope; MCP authorization, "Scope Challenge Handling").
func (g *authGate) forbidden(w http.ResponseWriter, body rpcBody, scope string) {
	msg := "this token does not grant " + scope + ": authorize the client again with that scope"
	w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+scope+
		`", resource_metadata="`+g.metadataURL+`", error_description="`+descriptionChars(msg)+`"`)
	writeRPCError(w, http.StatusForbidden, body, JSONRPCUnauthorized, msg,
		&service.Error{Reason: service.ReasonForbidden, Message: msg})
}

// unauthorized answers 401 with the challenge, and a JSON-RPC error whose message says what
// is wrong and where to read how to get a token, so that a client that shows the body (or
// the SDK's client, which returns it as the call's error) tells its user.
func (g *authGate) unauthorized(w http.ResponseWriter, body rpcBody, challenge, msg string) {
	w.Header().Set("WWW-Authenticate", challenge)
	msg += g.howToGetToken
	writeRPCError(w, http.StatusUnauthorized, body, JSONRPCUnauthorized, msg,
		&service.Error{Reason: service.ReasonUnauthorized, Message: msg})
}

// writeRPCError writes status with a JSON-RPC error response (JSON-RPC 2.0 section 5) to the
// request's one message (id null for an unread body), whose data is the tool error object of
// spec 7.4.
func writeRPCError(w http.ResponseWriter, status int, body rpcBody, code int, msg string, data *service.Error) {
	c, _ := body.single()
	mcphttp.WriteError(w, status, c.ID, code, msg, data)
}

// descriptionChars returns s with the characters RFC 6750 3 does not allow in
// error_description (outside %x20-21 / %x23-5B / %x5D-7E) replaced by "?".
func descriptionChars(s string) string {
	return strings.Map(func(c rune) rune {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return '?'
		}
		return c
	}, s)
}
