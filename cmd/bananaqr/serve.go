package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/accesslog"
	"github.com/bananaqr/bananaqr/internal/admission"
	"github.com/bananaqr/bananaqr/internal/graceful"
	"github.com/bananaqr/bananaqr/internal/httpapi"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/bananaqr/bananaqr/internal/telemetry"
)

// defaultRateLimit is the codes a minute each caller may make unless --rate-limit says
// otherwise (spec 1: 60).
const defaultRateLimit = 60

// serveConfig is what serve's flags set.
type serveConfig struct {
	addr, baseURL, trustedProxies, logFormat string
	redisURL, metricsAddr, otlpEndpoint      string
	rateLimit, maxActive, maxQueue           int
	rateLimitCallers                         int
	maxBufferedMiB                           int
	shutdownTimeout, shutdownDelay           time.Duration
	mcpAllowAnyHost, pprof                   bool
	connConfig                               // the connections' bounds and timeouts (conns.go)
}

// serveFlags returns the flag set of serve, writing into c.
func serveFlags(c *serveConfig, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", ":8080", "`address` to listen on, host:port")
	fs.StringVar(&c.baseURL, "base-url", "", "public `URL` of the service, such as https://qr.example.com, that image_url and svg_url start with (default: the scheme and host of each request)")
	fs.StringVar(&c.trustedProxies, "trusted-proxies", "", "comma-separated `addresses` or CIDR prefixes of reverse proxies whose X-Forwarded-For, -Proto and -Host are believed")
	fs.IntVar(&c.rateLimit, "rate-limit", defaultRateLimit, "codes a `minute` each caller may make; 0 turns the limit off")
	fs.IntVar(&c.rateLimitCallers, "rate-limit-callers", ratelimit.DefaultMaxCallers, "callers the in-memory rate limit remembers at most (some 20 to 40 bytes each); when full, those with the least debt are forgotten first")
	fs.StringVar(&c.redisURL, "redis-url", "", "keep the rate limit in the Redis at this `URL` (redis://host:6379/0), shared by every replica; without it the limit is kept in memory")
	fs.StringVar(&c.logFormat, "log-format", "text", "access log `format`: text or json")
	fs.StringVar(&c.metricsAddr, "metrics-addr", "", "serve /metrics (Prometheus) on this `address` of its own instead of the service's")
	fs.StringVar(&c.otlpEndpoint, "otlp-endpoint", "", "export traces (a span for each request, and for encoding and drawing each code) over OTLP/HTTP to the OpenTelemetry collector at this base `URL`, such as http://otel-collector:4318; without it the standard OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) turns export on; off by default")
	fs.BoolVar(&c.pprof, "pprof", false, "with --metrics-addr: serve Go's runtime profiles (net/http/pprof) at /debug/pprof/ on that private address too")
	fs.IntVar(&c.maxActive, "max-active", 0, "codes made at the same `time` (0: one per CPU)")
	fs.IntVar(&c.maxQueue, "max-queue", 256, "requests that may wait for their turn; more get 503")
	fs.IntVar(&c.maxBufferedMiB, "max-buffered", admission.DefaultMaxBuffered>>20, "`MiB` of answers held in memory at once, all requests together (a batch's archive streams and holds only the codes waiting for their turn); beyond it requests get 503 with the seconds until answers being sent should be through")
	fs.DurationVar(&c.shutdownTimeout, "shutdown-timeout", 30*time.Second, "how long requests in flight may take to finish on SIGINT or SIGTERM")
	fs.DurationVar(&c.shutdownDelay, "shutdown-delay", 0, "on SIGINT or SIGTERM, how long to go on serving with /readyz answering 503 before the listener closes, so that load balancers (a Kubernetes Service) stop sending requests first; the shutdown timeout follows it")
	defineConnFlags(fs, &c.connConfig, serveConnNotes)
	fs.BoolVar(&c.mcpAllowAnyHost, "mcp-allow-any-host", false, "let /mcp answer requests that reach a loopback address with another Host header: needed behind a reverse proxy on the same machine (it turns off the MCP SDK's DNS-rebinding protection)")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: bananaqr serve [flags]\n\nRuns the HTTP service. Each flag can also be set by its environment variable;\na flag on the command line wins.\n\n")
		printFlagsWithEnv(stderr, fs, envName)
	}
	return fs
}

// serveConnNotes returns what serve adds to the usage of a connection flag.
func serveConnNotes(name string) string {
	switch name {
	case "max-conns-per-client":
		return "trusted proxies are bounded by --max-conns only"
	case "ipv6-prefix":
		return "and for the rate limit"
	}
	return ""
}

// envName returns the environment twin of a flag: BANANAQR_ and its name in upper case, with
// underscores for hyphens.
func envName(flagName string) string {
	return "BANANAQR_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parseServe parses serve's arguments and, for the flags not given, their environment twins.
func parseServe(args []string, getenv func(string) string, stderr io.Writer) (serveConfig, error) {
	var c serveConfig
	fs := serveFlags(&c, stderr)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	err := setFromEnv(fs, getenv, envName)
	c.noteGiven(fs)
	return c, err
}

// parsePrefixes reads a comma-separated list of addresses and CIDR prefixes.
func parsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q is neither an address nor a CIDR prefix", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// serve runs the HTTP service until SIGINT or SIGTERM, then lets the requests in flight finish.
func serve(args []string, stderr io.Writer) int {
	c, err := parseServe(args, os.Getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "bananaqr serve: %v\n", err)
		return 2
	}
	tuneGC(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runServer(ctx, c, stderr, nil)
}

// Garbage collection while serving. Each code allocates some 10 KB that is garbage once it is
// sent, while the live heap is a few megabytes, so at Go's default (GOGC=100) the collector
// runs dozens of times a second under load, and clears the pools of image memory each time.
// serve lets the heap grow to five times the live heap (GOGC=400), under a soft limit of
// 100 MiB that makes the collector work harder as it nears it: about a sixth less CPU a code
// (bench/README.md), with the peak RSS of bench/http.sh's 2048 px run well under 150 MB. The
// environment's GOGC and GOMEMLIMIT, when set, win.
const (
	serveGCPercent   = 400
	serveMemoryLimit = 100 << 20
)

// tuneGC sets the collector for serving, unless the environment (getenv) sets it.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
}

// runServer serves with c until ctx is done; ready, when not nil, gets the address listened on.
func runServer(ctx context.Context, c serveConfig, stderr io.Writer, ready func(net.Addr)) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "bananaqr serve: "+format+"\n", a...)
		return 2
	}
	logOut := accesslog.NewBuffered(stderr, 100*time.Millisecond)
	defer logOut.Close()
	handler, err := logHandler(c.logFormat, logOut)
	if err != nil {
		return fail("%v", err)
	}
	logger := slog.New(handler)
	if err := c.settle(); err != nil {
		return fail("%v", err)
	}
	cfg, err := c.serviceConfig(logger)
	if err != nil {
		return fail("%v", err)
	}
	if cfg.Limiter, err = c.limiter(logger); err != nil {
		return fail("%v", err)
	}
	if rl, ok := cfg.Limiter.(*ratelimit.Redis); ok {
		defer rl.Close()
	}
	cfg.AccessLog = accesslog.New(logOut, c.logFormat) // the lines handler would write, faster
	if cfg.Tracing, err = c.tracing(ctx, logger); err != nil {
		return fail("%v", err)
	}
	defer shutdownTracing(cfg.Tracing, logger)
	service := httpapi.New(cfg)
	// Over api.MaxHeaderBytes the handler answers 431 with the error object; the server's own
	// cap is above it.
	srv := c.httpServer(service.Handler(), 4*api.MaxHeaderBytes, handler)
	ln, metricsSrv, mln, err := c.listen(service, cfg.TrustedProxies)
	if err != nil {
		return fail("%v", err)
	}
	logger.Info("listening", "addr", ln.Addr().String(), "url", pageURL(c.baseURL, ln.Addr()), "rate_limit", c.rateLimit, "redis", c.redisURL != "",
		"max_conns", c.maxConns, "max_conns_per_client", c.maxConnsPerClient)
	if ready != nil {
		ready(ln.Addr())
	}
	var aux []graceful.Server
	if metricsSrv != nil {
		logger.Info("metrics listening", "addr", mln.Addr().String())
		aux = append(aux, graceful.Server{HTTP: metricsSrv, Listener: mln})
	}
	if err := graceful.Serve(ctx, logger, c.shutdownTimeout, graceful.Server{HTTP: srv, Listener: ln,
		Drain: c.shutdownDelay, Draining: service.Drain}, aux...); err != nil {
		return fail("%v", err)
	}
	return 0
}

// tracing starts the export of traces that --otlp-endpoint or the OTEL_* environment asks for.
func (c *serveConfig) tracing(ctx context.Context, logger *slog.Logger) (*telemetry.Tracing, error) {
	return openTracing(ctx, c.otlpEndpoint, "bananaqr", logger)
}

// openTracing starts exporting the traces of service to the OTLP/HTTP endpoint, or to where
// the OTEL_* environment says when endpoint is empty, with the OpenTelemetry SDK's own messages
// (an export that failed) in the log; nil when neither asks.
func openTracing(ctx context.Context, endpoint, service string, logger *slog.Logger) (*telemetry.Tracing, error) {
	if endpoint == "" && !telemetry.OTLPFromEnv(os.Getenv) {
		return nil, nil
	}
	telemetry.LogOpenTelemetryTo(logger)
	t, err := telemetry.NewTracing(ctx, endpoint, service)
	if err != nil {
		return nil, fmt.Errorf("--otlp-endpoint: %w", err)
	}
	logger.Info("exporting traces", "otlp_endpoint", endpoint)
	return t, nil
}

// shutdownTracing sends the spans not yet exported, waiting at most 5 seconds.
func shutdownTracing(t *telemetry.Tracing, logger *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := t.Shutdown(ctx); err != nil {
		logger.Warn("exporting the last traces failed", "error", err.Error())
	}
}

// logHandler returns the service's log handler for --log-format: text or json.
func logHandler(format string, w io.Writer) (slog.Handler, error) {
	switch format {
	case "text":
		return slog.NewTextHandler(w, nil), nil
	case "json":
		return slog.NewJSONHandler(w, nil), nil
	}
	return nil, fmt.Errorf("--log-format %q: want text or json", format)
}

// pageURL returns the address of the web page to open, for the log line at start: the public
// base URL when one is set, else the listener's address, with localhost for a listener on
// every interface (":8080"), which a browser cannot open.
func pageURL(baseURL string, addr net.Addr) string {
	if baseURL != "" {
		return strings.TrimSuffix(baseURL, "/") + "/"
	}
	ap, err := netip.ParseAddrPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/"
	}
	host := ap.Addr().Unmap().String()
	if ap.Addr().IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(int(ap.Port()))) + "/"
}

// serviceConfig checks the flags of the service's own rules (trusted proxies, rate limit) and
// returns its configuration, without a limiter yet; the IPv6 prefix is settled (connConfig.settle).
func (c *serveConfig) serviceConfig(logger *slog.Logger) (httpapi.Config, error) {
	proxies, err := parsePrefixes(c.trustedProxies)
	if err != nil {
		return httpapi.Config{}, fmt.Errorf("--trusted-proxies: %w", err)
	}
	if c.rateLimit < 0 {
		return httpapi.Config{}, fmt.Errorf("--rate-limit %d: want 0 or more", c.rateLimit)
	}
	if c.maxBufferedMiB < 0 {
		return httpapi.Config{}, fmt.Errorf("--max-buffered %d: want 1 or more (0: the default)", c.maxBufferedMiB)
	}
	return httpapi.Config{BaseURL: c.baseURL, TrustedProxies: proxies, IPv6Prefix: c.ipv6Prefix, RateLimit: c.rateLimit, MaxActive: c.maxActive,
		MaxQueue: c.maxQueue, MaxBuffered: int64(c.maxBufferedMiB) << 20, Logger: logger, OpenAPI: api.OpenAPI, MCPAllowAnyHost: c.mcpAllowAnyHost,
		OwnMetricsPort: c.metricsAddr != ""}, nil
}

// limiter returns the rate limiter the flags ask for: in Redis with --redis-url, else in
// memory, and nil when --rate-limit is 0. A Redis limiter is the caller's to close.
func (c *serveConfig) limiter(logger *slog.Logger) (ratelimit.Limiter, error) {
	switch {
	case c.rateLimit > 0 && c.redisURL != "":
		ratelimit.LogRedisTo(logger) // go-redis's own messages too, in the log's format
		rl, err := ratelimit.NewRedis(c.redisURL, c.rateLimit, logger)
		if err != nil {
			return nil, fmt.Errorf("--redis-url: %w", err)
		}
		return rl, nil
	case c.rateLimit > 0:
		if c.rateLimitCallers < 0 {
			return nil, fmt.Errorf("--rate-limit-callers %d: want 1 or more", c.rateLimitCallers)
		}
		if c.rateLimitCallers == 0 {
			c.rateLimitCallers = ratelimit.DefaultMaxCallers
		}
		return ratelimit.NewMemory(c.rateLimit, time.Minute, nil).WithMaxCallers(c.rateLimitCallers), nil
	}
	return nil, nil
}

// listen opens the service's listener, bounded by connlimit (proxies exempt from the
// per-client bound), and with --metrics-addr the metrics server and its listener.
func (c *serveConfig) listen(service *httpapi.Server, proxies []netip.Prefix) (net.Listener, *http.Server, net.Listener, error) {
	// Both listeners are open before either is served, so that a busy port fails the start
	// before anything is announced or answered.
	tcp, err := net.Listen("tcp", c.addr)
	if err != nil {
		return nil, nil, nil, err
	}
	ln := c.bound(tcp, proxies)
	if c.metricsAddr == "" {
		if c.pprof {
			ln.Close()
			return nil, nil, nil, errors.New("--pprof needs --metrics-addr: profiles are never served on the public address")
		}
		return ln, nil, nil, nil
	}
	mln, err := net.Listen("tcp", c.metricsAddr)
	if err != nil {
		ln.Close()
		return nil, nil, nil, fmt.Errorf("--metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", service.MetricsHandler())
	if c.pprof {
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	return ln, &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}, mln, nil
}
