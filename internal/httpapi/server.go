// Package httpapi is the service's HTTP edge: the routes of the spec, reading requests from
// query strings and JSON bodies, and responses as SVG, PNG or JSON with their headers, or the
// API's error object. The rate limit and the bound on simultaneous work are
// internal/admission's, shared with the MCP edge (internal/mcpserver), which /mcp hands to.
//
// One concern a file: server.go configures and wires a Server; routes.go routes by path and
// method (404, 405, OPTIONS, CORS); codes.go makes codes (GET, POST, the contrast check);
// static.go serves the page with ETags; discovery.go the discovery documents, the OpenAPI
// document and /mcp; health.go liveness and readiness; respond.go writes responses and errors;
// proxy.go tells who calls and where the service is, through trusted proxies; server.go
// also wraps each request in internal/telemetry's signals (ids, trace context, log line,
// metrics); metrics.go keeps the Prometheus metrics.
package httpapi

import (
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/bananaqr/bananaqr/internal/accesslog"
	"github.com/bananaqr/bananaqr/internal/admission"
	"github.com/bananaqr/bananaqr/internal/clientaddr"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/bananaqr/bananaqr/internal/telemetry"
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
	// MaxBuffered is the bytes of answers the service may hold in memory at once (default
	// admission.DefaultMaxBuffered); beyond it requests get 503.
	MaxBuffered int64
	// Logger gets the service's faults, and the access log unless AccessLog is set (default
	// slog.Default()).
	Logger *slog.Logger
	// AccessLog, when set, writes the access log instead of Logger: the same lines, faster.
	AccessLog *accesslog.Log
	// OpenAPI is the document served at /openapi.json.
	OpenAPI []byte
	// OwnMetricsPort leaves /metrics off the service's routes, for MetricsHandler on a port of
	// its own.
	OwnMetricsPort bool
	// Tracing, when set, exports a span for each request and, below it, one for encoding and
	// one for drawing each code (internal/telemetry); nil for tracing off.
	Tracing *telemetry.Tracing
	// MCPAllowAnyHost turns off the MCP SDK's DNS-rebinding protection (see
	// mcpserver.Config.DisableLocalhostProtection), for a reverse proxy on the same machine.
	MCPAllowAnyHost bool
}

// Server answers the API's requests; its Handler is safe for concurrent use.
type Server struct {
	cfg     Config
	metrics *metrics
	gate    *admission.Gate // the rate limit and the bound on codes made at once, shared with /mcp
	access  *accesslog.Log
	routes  map[string]map[string]http.HandlerFunc
	// limitValue is the RateLimit-Limit value of the configured budget, made once.
	limitValue []string
	// clients names the caller of a request, behind the trusted proxies (proxy.go).
	clients *clientaddr.Resolver
	// draining is set once the service drains before stopping: /readyz answers 503 (Drain).
	draining atomic.Bool
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
	s := &Server{cfg: cfg, metrics: newMetrics(), access: cfg.AccessLog,
		clients: clientaddr.New(cfg.TrustedProxies, cfg.IPv6Prefix, cfg.Logger)}
	s.metrics.watchBackend(cfg.Limiter)
	if s.access == nil {
		s.access = accesslog.FromLogger(cfg.Logger)
	}
	s.gate = admission.New(admission.Config{Limiter: cfg.Limiter, MaxActive: cfg.MaxActive, MaxQueue: cfg.MaxQueue,
		MaxBuffered: cfg.MaxBuffered, Observer: s.metrics, Tracing: cfg.Tracing})
	s.routes = s.routeTable()
	s.limitValue = []string{strconv.Itoa(cfg.RateLimit)}
	return s
}

// Handler returns the HTTP handler of all the routes, with the access log, request ids and CORS
// around them.
func (s *Server) Handler() http.Handler {
	return s.observed(http.HandlerFunc(s.route))
}

// observed wraps next in internal/telemetry's signals of each request (its id, trace context,
// log line and HTTP metrics), with the routes of the route table (any other path is
// "(unknown)") and the service's own count of answers by route, status and format.
func (s *Server) observed(next http.Handler) http.Handler {
	return telemetry.Handler(next, telemetry.Config{
		Log: s.access, Metrics: s.metrics.http, Tracing: s.cfg.Tracing,
		Route: func(r *http.Request) string {
			if _, ok := s.routes[r.URL.Path]; ok {
				return r.URL.Path
			}
			return "(unknown)"
		},
		Answered: func(_ *http.Request, route string, rec *accesslog.Recorder) {
			s.metrics.observeRequest(route, rec.Status, rec.Header().Get(headerFormat))
		},
	})
}
