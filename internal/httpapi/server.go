// Package httpapi is the service's HTTP edge: the routes of the spec, reading requests from
// query strings and JSON bodies, the rate limit, a bound on simultaneous work, and responses
// as SVG, PNG or JSON with their headers, or the API's error object.
package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"mime"
	"net/http"
	"net/netip"
	"path"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/admission"
	"github.com/bananaqr/bananaqr/internal/mcpserver"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/bananaqr/bananaqr/web"
)

// Config configures a Server.
type Config struct {
	// BaseURL, such as https://qr.example.com, starts the image URLs of JSON responses; when
	// empty they start with the scheme and host the request came to.
	BaseURL string
	// TrustedProxies are the peers whose X-Forwarded-For (and X-Forwarded-Proto and
	// X-Forwarded-Host) are believed; from anyone else those headers are ignored.
	TrustedProxies []netip.Prefix
	// Limiter counts the codes each caller makes; nil for no limit.
	Limiter ratelimit.Limiter
	// IPv6Prefix is the length of the IPv6 prefix that counts as one caller (default 64).
	IPv6Prefix int
	// RateLimit is the codes a minute Limiter lets each caller make (0 when Limiter is nil), for
	// the MCP tool's description.
	RateLimit int
	// MaxActive codes are made at once (default GOMAXPROCS); up to MaxQueue more requests wait
	// (default 256), and beyond that they get 503.
	MaxActive, MaxQueue int
	// Logger gets the access log and the service's faults (default slog.Default()).
	Logger *slog.Logger
	// OpenAPI is the document served at /openapi.json.
	OpenAPI []byte
	// OwnMetricsPort leaves /metrics off the service's routes, for MetricsHandler on a port of
	// its own.
	OwnMetricsPort bool
	// MCPAllowAnyHost turns off the MCP SDK's DNS-rebinding protection (see
	// mcpserver.Config.DisableLocalhostProtection), for a reverse proxy on the same machine.
	MCPAllowAnyHost bool
}

// Server answers the API's requests; its Handler is safe for concurrent use.
type Server struct {
	cfg     Config
	metrics *metrics
	gate    *admission.Gate // the rate limit and the bound on codes made at once, shared with /mcp
	routes  map[string]map[string]http.HandlerFunc
}

// New returns a Server of cfg.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.IPv6Prefix <= 0 || cfg.IPv6Prefix > 128 {
		cfg.IPv6Prefix = 64
	}
	cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/")
	s := &Server{cfg: cfg, metrics: newMetrics()}
	s.gate = admission.New(admission.Config{Limiter: cfg.Limiter, MaxActive: cfg.MaxActive, MaxQueue: cfg.MaxQueue, Observer: s.metrics})
	get := func(route api.Route) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { s.generate(w, r, route) }
	}
	mcpHandler := mcpserver.Handler(mcpserver.Config{Admit: s.gate.Admit, Generate: s.gate.Code,
		DisableLocalhostProtection: cfg.MCPAllowAnyHost, RateLimit: cfg.RateLimit, Logger: cfg.Logger})
	card := discovery("application/mcp-server-card+json", mcpserver.Card(cfg.BaseURL))
	catalog := discovery("application/ai-catalog+json", mcpserver.Catalog(cfg.BaseURL))
	s.routes = map[string]map[string]http.HandlerFunc{
		"/mcp":                         {http.MethodPost: s.mcp(mcpHandler)},
		"/mcp/server-card":             {http.MethodGet: card},
		"/.well-known/mcp.json":        {http.MethodGet: card},
		"/.well-known/ai-catalog.json": {http.MethodGet: catalog},
		"/api/qr-code":                 {http.MethodGet: get(api.RouteQRCode), http.MethodPost: s.post},
		"/api/qr-code/url":             {http.MethodGet: get(api.RouteURL)},
		"/api/qr-code.png":             {http.MethodGet: get(api.RoutePNG)},
		"/api/qr-code.svg":             {http.MethodGet: get(api.RouteSVG)},
		"/api/contrast":                {http.MethodGet: s.contrast},
		"/healthz":                     {http.MethodGet: s.health},
		"/readyz":                      {http.MethodGet: s.ready},
		"/api/qr-code/healthz":         {http.MethodGet: s.health},
		"/openapi.json":                {http.MethodGet: s.openAPI},
		"/":                            {http.MethodGet: page("index.html")},
		"/style.css":                   {http.MethodGet: page("style.css")},
		"/app.js":                      {http.MethodGet: page("app.js")},
	}
	if !cfg.OwnMetricsPort {
		metricsHandler := s.MetricsHandler()
		s.routes["/metrics"] = map[string]http.HandlerFunc{http.MethodGet: metricsHandler.ServeHTTP}
	}
	return s
}

// Handler returns the HTTP handler of all the routes, with the access log, request ids and CORS
// around them.
func (s *Server) Handler() http.Handler {
	return s.logged(http.HandlerFunc(s.route))
}

// route dispatches r by path and method: unknown paths get 404 and unknown methods 405 with
// Allow, both as error objects; OPTIONS answers CORS preflights; HEAD is served as GET.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	if r.Header.Get("Origin") != "" { // a browser's cross-origin request: let its script read our headers
		h.Set("Access-Control-Expose-Headers", exposedHeaders)
	}
	if headerBytes(r) > api.MaxHeaderBytes {
		s.writeError(w, r, api.NewError(api.CodeHeadersTooLarge, "", "Send at most 16 KiB of request line and headers: leave out large cookies or custom headers.",
			"the request line and headers are larger than %d bytes", api.MaxHeaderBytes))
		return
	}
	methods, ok := s.routes[r.URL.Path]
	if !ok {
		s.writeError(w, r, api.NewError(api.CodeNotFound, "", "See /openapi.json for the paths of the API.", "there is no %s", r.URL.Path))
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
		h.Set("Allow", allow)
		h.Set("Access-Control-Allow-Methods", allow)
		h.Set("Access-Control-Allow-Headers", "Content-Type")
		h.Set("Access-Control-Max-Age", "86400")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	h.Set("Allow", allow)
	s.writeError(w, r, api.NewError(api.CodeMethodNotAllowed, "", "Use "+allow+".", "%s takes no %s", r.URL.Path, r.Method))
}

// exposedHeaders are the response headers a browser script may read.
const exposedHeaders = "X-QR-Payload-Type, X-QR-Payload, X-QR-Payload-Encoding, X-QR-Logo, X-QR-Size, X-QR-Format, " +
	"X-QR-Warning, Content-Disposition, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id"

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

// health answers the liveness checks (spec 4.6).
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

// contrast answers GET /api/contrast: whether readers can tell color from background, by the
// rule every code is held to. It makes no code, so it is not rate-limited; its answer depends
// on the query alone and may be cached.
func (s *Server) contrast(w http.ResponseWriter, r *http.Request) {
	req, err := api.ColorsFromQuery(r.URL.RawQuery)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=86400")
	writeJSON(w, http.StatusOK, req.ContrastOf())
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, api.Health{OK: true})
}

// Readiness is the answer of /readyz: the service is up (ok), and how its rate limiter's
// backend fares. It is 200 even when the backend is down, since requests are then served
// without a limit (fail open).
type Readiness struct {
	OK        bool   `json:"ok"`
	RateLimit string `json:"rate_limit"` // off, memory or redis
	Backend   string `json:"backend"`    // up or down
}

// pinger is a limiter whose backend can be checked.
type pinger interface{ Ping(context.Context) error }

// ready answers /readyz.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	out := Readiness{OK: true, RateLimit: "off", Backend: "up"}
	if s.cfg.Limiter != nil {
		out.RateLimit = "memory"
	}
	if p, ok := s.cfg.Limiter.(pinger); ok {
		out.RateLimit = "redis"
		ctx, cancel := context.WithTimeout(r.Context(), time.Second)
		defer cancel()
		if p.Ping(ctx) != nil {
			out.Backend = "down"
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
}

// openAPI serves the OpenAPI document.
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Write(s.cfg.OpenAPI)
}

// mcp serves /mcp with h, the MCP SDK's handler, telling the tool in the request's context who
// calls and where the service is (the base URL empty when there is none: no link).
func (s *Server) mcp(h http.Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := mcpserver.WithCaller(r.Context(), mcpserver.Caller{Key: s.caller(r), BaseURL: s.baseURL(r)})
		h.ServeHTTP(w, r.WithContext(ctx))
	}
}

// static is a response whose body never changes, with an ETag computed once when it is made.
type static struct {
	contentType string
	body        []byte
	etag        string
}

// newStatic returns the static response of body, its ETag a hash of the bytes.
func newStatic(contentType string, body []byte) static {
	sum := sha256.Sum256(body)
	return static{contentType: contentType, body: body, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
}

// write sets the ETag and answers 304 Not Modified when r's If-None-Match names it, else
// writes the body with its Content-Type. The caller sets the other headers first.
func (st static) write(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("ETag", st.etag)
	if noneMatch(r.Header.Values("If-None-Match"), st.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", st.contentType)
	w.Write(st.body)
}

// noneMatch reports whether If-None-Match headers (values) match etag, a strong entity tag: *
// matches anything; else any entity tag of the comma-separated lists that is etag, weak (W/)
// or not, since If-None-Match compares weakly (RFC 9110, 13.1.2). Parsing stops at anything
// malformed, which then matches nothing more.
func noneMatch(values []string, etag string) bool {
	for _, v := range values {
		for {
			v = strings.TrimLeft(v, " \t,")
			if v == "" {
				break
			}
			if v[0] == '*' {
				return true
			}
			v = strings.TrimPrefix(v, "W/")
			if len(v) < 2 || v[0] != '"' {
				break
			}
			end := strings.IndexByte(v[1:], '"')
			if end < 0 {
				break
			}
			if v[:end+2] == etag {
				return true
			}
			v = v[end+2:]
		}
	}
	return false
}

// discovery serves a discovery document: the same bytes for everyone, cacheable for an hour,
// with an ETag.
func discovery(contentType string, body []byte) http.HandlerFunc {
	doc := newStatic(contentType, body)
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		doc.write(w, r)
	}
}

// page serves one of the web page's files (package web), with a content security policy that
// lets the page reach nothing but this service, and an ETag.
func page(name string) http.HandlerFunc {
	body, err := web.Files.ReadFile(name)
	if err != nil {
		panic(err)
	}
	contentType := mime.TypeByExtension(path.Ext(name))
	if name == "index.html" {
		contentType = "text/html; charset=utf-8"
	}
	file := newStatic(contentType, body)
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "+
			"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		file.write(w, r)
	}
}
