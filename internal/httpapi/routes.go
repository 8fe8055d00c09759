// Routing: the route table, dispatch by path and method with 404 and 405 as error objects,
// OPTIONS for CORS preflights, HEAD as GET, and the bound on the request's headers.

package httpapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/cors"
	"github.com/bananaqr/bananaqr/internal/mcpserver"
)

// routeTable returns the service's routes: for each path, the handler of each method it takes.
func (s *Server) routeTable() map[string]map[string]http.HandlerFunc {
	get := func(route api.Route) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { s.getCode(w, r, route) }
	}
	mcpHandler := mcpserver.Handler(mcpserver.Config{Admit: s.gate.Admit, Code: s.gate.Code, Refund: s.gate.Refund,
		DisableLocalhostProtection: s.cfg.MCPAllowAnyHost, RateLimit: s.cfg.RateLimit, Logger: s.cfg.Logger,
		Middleware: s.metrics.toolCalls.Middleware})
	card := discovery("application/mcp-server-card+json", mcpserver.Card(s.cfg.BaseURL))
	catalog := discovery("application/ai-catalog+json", mcpserver.Catalog(s.cfg.BaseURL))
	routes := map[string]map[string]http.HandlerFunc{
		"/mcp":                         {http.MethodPost: s.mcp(mcpHandler)},
		"/mcp/server-card":             {http.MethodGet: card},
		"/.well-known/mcp.json":        {http.MethodGet: card},
		"/.well-known/ai-catalog.json": {http.MethodGet: catalog},
		"/icon.svg":                    {http.MethodGet: iconSVG},
		"/icon.png":                    {http.MethodGet: iconPNG},
		"/api/qr-code":                 {http.MethodGet: get(api.RouteQRCode), http.MethodPost: s.postCode},
		"/api/qr-code/batch":           {http.MethodPost: s.postBatch},
		"/api/qr-code/url":             {http.MethodGet: get(api.RouteURL)},
		"/api/qr-code.png":             {http.MethodGet: get(api.RoutePNG)},
		"/api/qr-code.svg":             {http.MethodGet: get(api.RouteSVG)},
		"/api/contrast":                {http.MethodGet: s.contrast},
		"/healthz":                     {http.MethodGet: s.health},
		"/readyz":                      {http.MethodGet: s.ready},
		"/api/qr-code/healthz":         {http.MethodGet: s.health},
		"/openapi.json":                {http.MethodGet: discovery("application/json", s.cfg.OpenAPI)},
		"/":                            {http.MethodGet: page("index.html")},
		"/style.css":                   {http.MethodGet: page("style.css")},
		"/app.js":                      {http.MethodGet: page("app.js")},
		"/payments.html":               {http.MethodGet: page("payments.html")},
	}
	if !s.cfg.OwnMetricsPort {
		metricsHandler := s.MetricsHandler()
		routes["/metrics"] = map[string]http.HandlerFunc{http.MethodGet: metricsHandler.ServeHTTP}
	}
	return routes
}

// route dispatches r by path and method: unknown paths get 404 and unknown methods 405 with
// Allow, both as error objects; OPTIONS answers CORS preflights; HEAD is served as GET. Every
// response carries its path's CORS headers (corsPolicy).
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	policy := corsPolicy(r.URL.Path)
	policy.Respond(w.Header(), r)
	if headerBytes(r) > api.MaxHeaderBytes {
		s.writeError(w, r, api.NewError(api.ReasonHeadersTooLarge, "", "Send at most 16 KiB of request line and headers: leave out large cookies or custom headers.",
			"the request line and headers are larger than %d bytes", api.MaxHeaderBytes))
		return
	}
	methods, ok := s.routes[r.URL.Path]
	if !ok {
		s.writeError(w, r, api.NewError(api.ReasonNotFound, "", "See /openapi.json for the paths of the API.", "there is no %s", r.URL.Path))
		return
	}
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	if handler, ok := methods[method]; ok {
		handler(w, r)
		return
	}
	allow := allowed(methods)
	if r.Method == http.MethodOptions {
		policy.Preflight(w, allow)
		return
	}
	w.Header().Set("Allow", allow)
	s.writeError(w, r, api.NewError(api.ReasonMethodNotAllowed, "", "Use "+allow+".", "%s takes no %s", r.URL.Path, r.Method))
}

// exposedHeaders are the response headers a browser script may read from the API's routes: what
// a code's response says about the code, and the rate limit's and the request's headers
// (admissionHeaders).
const exposedHeaders = "X-QR-Payload-Type, X-QR-Payload, X-QR-Payload-Encoding, X-QR-Logo, X-QR-Size, X-QR-Format, X-QR-Version, X-QR-ECC, " +
	"X-QR-Warning, Content-Disposition, " + admissionHeaders

// admissionHeaders are the response headers of the rate limit (RateLimit-*, Retry-After) and the
// request's id. The generation routes set the rate limit's; /mcp's answers carry only the
// request's id: a tool call over the budget is a tool result, RATE_LIMITED, inside a 200 that
// may hold other messages (a JSON-RPC batch, an event stream), and its hint says the seconds to
// wait (admission.RateLimited). /mcp's CORS policy exposes the whole list all the same (one list
// for both policies), though nothing on /mcp sets the rate limit's.
const admissionHeaders = "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id"

// corsMaxAge is how long a browser may keep a preflight's answer.
const corsMaxAge = 24 * time.Hour

// apiCORS is the CORS policy of every route but /mcp: a script may send a JSON body and read
// exposedHeaders.
var apiCORS = cors.New([]string{"Content-Type"}, strings.Split(exposedHeaders, ", "), corsMaxAge)

// mcpCORS is the CORS policy of /mcp: a browser-hosted MCP client may send the headers of the
// Streamable HTTP transport, a bearer token among them, and read the transport's response
// headers and the admission's.
var mcpCORS = cors.New(cors.MCPRequestHeaders, append(append([]string(nil), cors.MCPResponseHeaders...),
	strings.Split(admissionHeaders, ", ")...), corsMaxAge)

// corsPolicy returns the CORS policy of the route at path.
func corsPolicy(path string) *cors.Policy {
	if path == "/mcp" {
		return mcpCORS
	}
	return apiCORS
}

// allowed lists the methods of a route, for Allow.
func allowed(methods map[string]http.HandlerFunc) string {
	var list []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost} {
		if _, ok := methods[m]; ok || m == http.MethodHead && methods[http.MethodGet] != nil {
			list = append(list, m)
		}
	}
	return strings.Join(append(list, http.MethodOptions), ", ")
}

// headerBytes returns about how many bytes r's request line and headers took on the wire.
// The Go server's own cap (http.Server.MaxHeaderBytes) is set above api.MaxHeaderBytes, so that
// requests between the two get the API's error object rather than the server's plain text.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4
	if r.Host != "" && r.Header.Get("Host") == "" {
		n += len("Host: ") + len(r.Host) + 2 // the Go server moves Host out of Header
	}
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
}
