// Package cors is CORS for the service's endpoints: the Fetch standard's CORS protocol
// (https://fetch.spec.whatwg.org/#http-cors-protocol), which lets a script on another origin call
// them.
//
// Every endpoint answers any origin (Access-Control-Allow-Origin: *) and takes no credentials:
// no cookies, and no Access-Control-Allow-Credentials, which a wildcard origin excludes (Fetch
// 3.3.5). A bearer token still gets through, because Authorization is a request header like any
// other here: a Policy lists it by name in Access-Control-Allow-Headers, where the wildcard "*"
// would not cover it (Fetch 3.3.6, "CORS non-wildcard request-header name").
//
// A Policy holds, for one kind of endpoint, the request headers a cross-origin script may send
// and the response headers it may read. MCPRequestHeaders and MCPResponseHeaders are those of the
// MCP Streamable HTTP transport, the one place both MCP servers (bananaqr serve's /mcp and
// bananaqr expenses) take them from.
package cors

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// MCPRequestHeaders are the request headers an MCP client sends over the Streamable HTTP
// transport that are not CORS-safelisted, so that a browser asks in a preflight before sending
// them (Fetch 3.3.2 and 2.2.2, "CORS-safelisted request-header"; Accept is safelisted for the
// values MCP clients send):
//   - Content-Type: application/json is not one of the three safelisted media types;
//   - Authorization: the bearer token of an OAuth-protected server (MCP authorization; RFC 6750 2.1);
//   - Mcp-Protocol-Version: sent on every request after initialize (MCP 2025-06-18 and later,
//     "Protocol Version Header");
//   - Mcp-Session-Id: sent back on every request by a client a stateful server gave a session;
//   - Last-Event-ID: a client resuming an SSE stream (WHATWG HTML, server-sent events);
//   - Mcp-Method and Mcp-Name: the method and the tool, prompt or resource named, sent by
//     clients on protocol 2026-07-28 so intermediaries can route without reading the body.
//
// Protocol 2026-07-28 also defines Mcp-Param-<name> headers for tool arguments whose schema
// carries x-mcp-header; CORS cannot allow a prefix, and no tool of these servers declares one.
var MCPRequestHeaders = []string{"Content-Type", "Authorization", "Mcp-Protocol-Version", "Mcp-Session-Id",
	"Last-Event-ID", "Mcp-Method", "Mcp-Name"}

// MCPResponseHeaders are the response headers of the MCP Streamable HTTP transport a client's
// script must read, which are not CORS-safelisted response headers (Fetch 2.2.2) and so are
// hidden from it unless exposed: the session id a stateful server assigns at initialize, the
// protocol version, and WWW-Authenticate, whose resource_metadata parameter starts the client's
// OAuth discovery after a 401 (RFC 6750 3; RFC 9728 5.1).
var MCPResponseHeaders = []string{"Mcp-Session-Id", "Mcp-Protocol-Version", "WWW-Authenticate"}

// The CORS headers, as http.CanonicalHeaderKey spells them.
const (
	headerAllowOrigin   = "Access-Control-Allow-Origin"
	headerExposeHeaders = "Access-Control-Expose-Headers"
	headerAllowMethods  = "Access-Control-Allow-Methods"
	headerAllowHeaders  = "Access-Control-Allow-Headers"
	headerMaxAge        = "Access-Control-Max-Age"
)

// anyOrigin is the Access-Control-Allow-Origin value every response carries, shared by all of
// them (net/http only reads header values).
var anyOrigin = []string{"*"}

// A Policy is what a cross-origin script may do with one kind of endpoint. Its header values are
// joined once, in New, and shared by every response (net/http only reads them), so that applying
// it costs no allocation.
type Policy struct {
	allowHeaders  []string // Access-Control-Allow-Headers, one joined value
	exposeHeaders []string // Access-Control-Expose-Headers, one joined value; nil if none
	maxAge        []string // Access-Control-Max-Age in seconds
}

// New returns the Policy that lets a script on any origin send the request headers
// allowHeaders, read the response headers exposeHeaders, and have browsers keep a preflight's
// answer for maxAge (Chromium keeps it at most two hours, Firefox one day).
func New(allowHeaders, exposeHeaders []string, maxAge time.Duration) *Policy {
	p := &Policy{
		allowHeaders: []string{strings.Join(allowHeaders, ", ")},
		maxAge:       []string{strconv.Itoa(int(maxAge / time.Second))},
	}
	if len(exposeHeaders) > 0 {
		p.exposeHeaders = []string{strings.Join(exposeHeaders, ", ")}
	}
	return p
}

// Respond sets the CORS headers of an actual (not preflight) response to r on h: any origin
// may read it (Access-Control-Allow-Origin: *), and on a cross-origin request, one with an
// Origin header, its script may read the exposed headers too (Fetch 3.3.4).
func (p *Policy) Respond(h http.Header, r *http.Request) {
	h[headerAllowOrigin] = anyOrigin
	if p.exposeHeaders != nil && r.Header.Get("Origin") != "" {
		h[headerExposeHeaders] = p.exposeHeaders
	}
}

// Preflight answers an OPTIONS request, a CORS-preflight request when it carries Origin and
// Access-Control-Request-Method (Fetch 3.3.2), with 204 and the policy: any origin, the methods
// allowMethods (a comma-separated list, also sent as Allow, RFC 9110 10.2.1), the allowed
// request headers and the time to keep the answer (Fetch 3.3.3). It answers the same whatever
// headers the browser asks about, which then checks them against Access-Control-Allow-Headers.
func (p *Policy) Preflight(w http.ResponseWriter, allowMethods string) {
	h := w.Header()
	h[headerAllowOrigin] = anyOrigin
	h.Set("Allow", allowMethods)
	h[headerAllowMethods] = h["Allow"]
	h[headerAllowHeaders] = p.allowHeaders
	h[headerMaxAge] = p.maxAge
	w.WriteHeader(http.StatusNoContent)
}

// Handler wraps next, an endpoint that takes the methods allowMethods (a comma-separated list,
// without OPTIONS), with the policy: it answers OPTIONS itself (Preflight, with OPTIONS added to
// the methods) and sets the CORS headers of every other response before next writes it.
func (p *Policy) Handler(allowMethods string, next http.Handler) http.Handler {
	withOptions := allowMethods + ", " + http.MethodOptions
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodOptions {
			p.Preflight(w, withOptions)
			return
		}
		p.Respond(w.Header(), r)
		next.ServeHTTP(w, r)
	})
}
