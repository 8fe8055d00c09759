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
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/expenses/mcpserver"
	"github.com/bananaqr/bananaqr/expenses/oauth"
	"github.com/bananaqr/bananaqr/expenses/ops"
	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/internal/accesslog"
	"github.com/bananaqr/bananaqr/internal/clientaddr"
	"github.com/bananaqr/bananaqr/internal/graceful"
	"github.com/bananaqr/bananaqr/internal/telemetry"
)

const expensesUsage = `bananaqr expenses: the shared-expenses application's MCP server (tools at /mcp).

Usage:
  bananaqr expenses serve [--addr :8090] [--base-url URL] [storage]   serve MCP at /mcp
  bananaqr expenses user add <name> [--password-stdin] [storage]   add a user
  bananaqr expenses user password <name> [--password-stdin] [storage]   set or replace a password
  bananaqr expenses user list [storage]               list the users
  bananaqr expenses token <name> [--ttl 720h] [storage]   issue a bearer token (printed once)

Storage is SQLite by default: --db file (default bananaqr-expenses.db in the current
directory, env BANANAQR_EXPENSES_DB). --database-url postgres://… (env
BANANAQR_EXPENSES_DATABASE_URL) uses PostgreSQL instead. --addr's env is BANANAQR_EXPENSES_ADDR;
serve's --write-limit (writes a minute per user, default 120, 0 for none) is
BANANAQR_EXPENSES_WRITE_LIMIT. --base-url (env BANANAQR_EXPENSES_BASE_URL) is the server's
public origin, such as https://expenses.example.com, under which the protected resource
metadata and the 401's WWW-Authenticate name URLs (default: http://localhost:<port>, or the
listening address when --addr names a host); --docs-url (env BANANAQR_EXPENSES_DOCS_URL) is
the page on how to get a token that the metadata names (default: the one served at /).
Tool calls need "Authorization: Bearer <token>"; without a valid one they are answered 401.

A password is what a user signs in with on the server's authorization page (OAuth, being
built). user password asks for it twice on the terminal, without echo; with --password-stdin
it is the first line of standard input instead (for scripts), and user add sets one only with
--password-stdin. A password has at least 12 characters; only its Argon2id hash is stored.

serve logs to stderr in --log-format text or json (env BANANAQR_EXPENSES_LOG_FORMAT), one
access-log line a request with its X-Request-Id; serves /healthz, /readyz (the database
answers) and Prometheus /metrics, or /metrics on --metrics-addr (env
BANANAQR_EXPENSES_METRICS_ADDR) only. Every serve flag has its environment variable
BANANAQR_EXPENSES_<NAME> (--shutdown-timeout: BANANAQR_EXPENSES_SHUTDOWN_TIMEOUT); a flag on
the command line wins.

serve bounds its connections as bananaqr serve does, with the same flags and defaults:
--max-conns (connections open at once in all; default the open-file limit less 256, at most
16384), --max-conns-per-client (from one IPv4 address or IPv6 prefix; default 256, at most a
quarter of --max-conns; 0 for no bound, as behind a reverse proxy), --ipv6-prefix (default
64), --read-header-timeout (default 5s) and --idle-timeout (default 30s); their env twins are
BANANAQR_EXPENSES_MAX_CONNS, BANANAQR_EXPENSES_MAX_CONNS_PER_CLIENT,
BANANAQR_EXPENSES_IPV6_PREFIX, BANANAQR_EXPENSES_READ_HEADER_TIMEOUT and
BANANAQR_EXPENSES_IDLE_TIMEOUT. See bananaqr expenses serve --help.
`

const defaultExpensesDB = "bananaqr-expenses.db"

// expenses runs "bananaqr expenses …".
func expenses(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, expensesUsage)
		return 2
	}
	switch args[0] {
	case "serve":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return expensesServe(ctx, args[1:], os.Getenv, stderr, nil)
	case "user":
		if len(args) < 2 {
			fmt.Fprint(stderr, expensesUsage)
			return 2
		}
		switch args[1] {
		case "add":
			return expensesUserAdd(args[2:], os.Getenv, commandStdin(os.Stdin), stdout, stderr)
		case "password":
			return expensesUserPassword(args[2:], os.Getenv, commandStdin(os.Stdin), stdout, stderr)
		case "list":
			return expensesUserList(args[2:], os.Getenv, stdout, stderr)
		}
		fmt.Fprintf(stderr, "bananaqr expenses: unknown command \"user %s\" (want user add, user password or user list)\n\n%s", args[1], expensesUsage)
		return 2
	case "token":
		return expensesToken(args[1:], os.Getenv, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, expensesUsage)
		return 0
	}
	fmt.Fprintf(stderr, "bananaqr expenses: unknown command %q\n\n%s", args[0], expensesUsage)
	return 2
}

// expensesFlags is a flag set with the storage flags --db and --database-url;
// parse takes flags before and after the positional arguments, which it returns.
type expensesFlags struct {
	*flag.FlagSet
	db, databaseURL *string
}

func newExpensesFlags(name string, getenv func(string) string, stderr io.Writer) expensesFlags {
	fs := flag.NewFlagSet("bananaqr expenses "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := getenv("BANANAQR_EXPENSES_DB")
	if db == "" {
		db = defaultExpensesDB
	}
	envNote := func(flagName string) string { return " (env " + expensesEnvName(flagName) + ")" }
	if name == "serve" { // its -h names every flag's variable
		envNote = func(string) string { return "" }
	}
	return expensesFlags{fs,
		fs.String("db", db, "SQLite `file`"+envNote("db")),
		fs.String("database-url", getenv("BANANAQR_EXPENSES_DATABASE_URL"),
			"PostgreSQL `URL` postgres://…; when set, used instead of --db"+envNote("database-url"))}
}

// storage opens the database the flags name: PostgreSQL when --database-url is set,
// else the SQLite file --db. Each flag takes only its own kind, so a typo cannot
// silently create a SQLite file named like a URL.
func (f expensesFlags) storage(ctx context.Context) (*store.Store, error) {
	if url := *f.databaseURL; url != "" {
		if !strings.HasPrefix(url, "postgres://") && !strings.HasPrefix(url, "postgresql://") {
			return nil, fmt.Errorf("--database-url wants a postgres:// or postgresql:// URL, got %q", url)
		}
		return store.Open(ctx, url)
	}
	if strings.Contains(*f.db, "://") {
		return nil, fmt.Errorf("--db wants a SQLite file path, got %q (PostgreSQL goes in --database-url)", *f.db)
	}
	return store.Open(ctx, *f.db)
}

func (f expensesFlags) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := f.Parse(args); err != nil {
			return nil, err
		}
		args = f.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// open parses args, wants n positional arguments, and opens the database.
func (f expensesFlags) open(args []string, n int, stderr io.Writer) (*store.Store, []string, int) {
	pos, err := f.parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return nil, nil, 0
	}
	if err != nil {
		return nil, nil, 2
	}
	if len(pos) != n {
		fmt.Fprintf(stderr, "%s: want %d argument(s), got %d\n\n%s", f.Name(), n, len(pos), expensesUsage)
		return nil, nil, 2
	}
	st, err := f.storage(context.Background())
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", f.Name(), err)
		return nil, nil, 1
	}
	return st, pos, -1
}

func expensesUserList(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	f := newExpensesFlags("user list", getenv, stderr)
	st, _, code := f.open(args, 0, stderr)
	if st == nil {
		return code
	}
	defer st.Close()
	us, err := st.ListUsers(context.Background())
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", f.Name(), err)
		return 1
	}
	for _, u := range us {
		fmt.Fprintf(stdout, "%s\t%s\t%s\n", u.Name, u.ID, u.CreatedAt.UTC().Format(time.RFC3339))
	}
	return 0
}

func expensesToken(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	f := newExpensesFlags("token", getenv, stderr)
	ttl := f.Duration("ttl", 720*time.Hour, "how long the token is valid; 0 for no expiry")
	st, pos, code := f.open(args, 1, stderr)
	if st == nil {
		return code
	}
	defer st.Close()
	token, err := service.New(st, nil).IssueToken(context.Background(), pos[0], *ttl)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", f.Name(), err)
		return 1
	}
	fmt.Fprintln(stdout, token)
	fmt.Fprintln(stderr, "This token is shown once; only its hash is stored. Send it as \"Authorization: Bearer <token>\".")
	return 0
}

// expensesServe serves MCP until ctx is done; ready, when not nil, gets the address listened on.
func expensesServe(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer, ready func(net.Addr)) int {
	f, err := newExpensesServeFlags(getenv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "bananaqr expenses serve: %v\n", err)
		return 2
	}
	if code, stop := f.parseArgs(args, stderr); stop {
		return code
	}
	logOut := accesslog.NewBuffered(stderr, 100*time.Millisecond)
	defer logOut.Close()                          // after every line below, the last access lines included
	handler, _ := logHandler(f.logFormat, logOut) // the format was checked by parseArgs
	logger := slog.New(handler)
	fail := func(err error) int {
		logger.Error("bananaqr expenses serve: " + err.Error())
		return 1
	}
	st, err := f.storage(ctx)
	if err != nil {
		return fail(err)
	}
	defer st.Close()
	svc, metrics := f.service(st)
	tracing, err := openTracing(ctx, f.otlpEndpoint, "bananaqr-expenses", logger)
	if err != nil {
		return fail(err)
	}
	defer shutdownTracing(tracing, logger)
	servers, err := f.listen(metrics)
	if err != nil {
		return fail(err)
	}
	base := f.baseURL
	if base == "" {
		base = localBaseURL(servers[0].Listener.Addr())
	}
	readyz := ops.NewReadyz(st.Ready, logger)
	as, err := f.authorizationServer(ctx, st, base, logger)
	if err != nil {
		servers.close()
		return fail(err)
	}
	h, err := f.expensesHandler(svc, as, readyz, base, logger, metrics)
	if err != nil {
		servers.close()
		return fail(err)
	}
	if as != nil {
		go as.Housekeep(ctx, time.Hour)
	}
	servers[0].Drain, servers[0].Draining = f.shutdownDelay, readyz.Drain
	servers[0].HTTP = f.httpServer(telemetry.Handler(h, telemetry.Config{Log: accesslog.New(logOut, f.logFormat), Metrics: metrics.HTTP,
		Tracing: tracing, Route: expensesRoute(f.metricsAddr == "", as)}), 16<<10, handler)
	f.announce(logger, servers, base)
	if ready != nil {
		ready(servers[0].Listener.Addr())
	}
	if err := graceful.Serve(ctx, logger, f.shutdownTimeout, servers[0], servers[1:]...); err != nil {
		return fail(err)
	}
	return 0
}

// service returns the service over st with the write limit of the flags, and the metrics that
// count its decisions.
func (f *expensesServeFlags) service(st *store.Store) (*service.Service, *ops.Metrics) {
	metrics := ops.NewMetrics(mcpserver.ToolNames)
	svc := service.New(st, nil)
	svc.LimitWrites(f.writeLimit)
	svc.ObserveWrites(metrics.WriteDecided)
	return svc, metrics
}

// expensesServers are the servers of expenses serve: the MCP server's, and with --metrics-addr
// the metrics' on a port of its own.
type expensesServers []graceful.Server

// close closes the listeners of servers that were never served.
func (servers expensesServers) close() {
	for _, s := range servers {
		s.Listener.Close()
	}
}

// listen opens the server's listener, bounded as the connection flags say, and with
// --metrics-addr the metrics server on a listener of its own. Both are open before either is
// served, so that a busy port fails the start before anything is announced.
func (f *expensesServeFlags) listen(metrics *ops.Metrics) (expensesServers, error) {
	tcp, err := net.Listen("tcp", f.addr)
	if err != nil {
		return nil, err
	}
	servers := expensesServers{{Listener: f.bound(tcp, f.proxies)}}
	if f.metricsAddr == "" {
		return servers, nil
	}
	mln, err := net.Listen("tcp", f.metricsAddr)
	if err != nil {
		servers.close()
		return nil, fmt.Errorf("--metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics.Handler())
	return append(servers, graceful.Server{HTTP: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}, Listener: mln}), nil
}

// announce logs where servers listen.
func (f *expensesServeFlags) announce(logger *slog.Logger, servers expensesServers, base string) {
	logger.Info("listening", "addr", servers[0].Listener.Addr().String(), "path", mcpserver.EndpointPath, "endpoint", base+mcpserver.EndpointPath,
		"max_conns", f.maxConns, "max_conns_per_client", f.maxConnsPerClient, "write_limit", f.writeLimit)
	if len(servers) > 1 {
		logger.Info("metrics listening", "addr", servers[1].Listener.Addr().String())
	}
}

// expensesServeFlags are the flags of expenses serve: the storage flags, serve's own, and the
// connection flags it shares with bananaqr serve (conns.go). Each has its environment twin,
// BANANAQR_EXPENSES_<NAME> (expensesEnvName).
type expensesServeFlags struct {
	expensesFlags
	addr, baseURL, docsURL string
	logFormat, metricsAddr string
	otlpEndpoint           string
	allowAnyHost           bool
	shutdownTimeout        time.Duration
	shutdownDelay          time.Duration
	writeLimit             int
	connConfig
	// The authorization server (package oauth).
	oauth                 bool
	registration          string
	redirectAllowlist     string
	accessTTL, refreshTTL time.Duration
	oidc                  oauth.OIDC
	trustedProxies        string
	proxies               []netip.Prefix // trustedProxies, parsed by parseArgs
}

// expensesEnvName returns the environment twin of an expenses flag: BANANAQR_EXPENSES_ and its
// name in upper case, with underscores for hyphens.
func expensesEnvName(flagName string) string {
	return "BANANAQR_EXPENSES_" + strings.TrimPrefix(envName(flagName), "BANANAQR_")
}

// newExpensesServeFlags defines serve's flags and sets those whose environment variables
// (through getenv) are set, which the command line, parsed next, overrides; a variable that is
// not a value of its flag is an error naming it.
func newExpensesServeFlags(getenv func(string) string, stderr io.Writer) (*expensesServeFlags, error) {
	f := &expensesServeFlags{expensesFlags: newExpensesFlags("serve", func(string) string { return "" }, stderr)}
	f.StringVar(&f.addr, "addr", ":8090", "`address` to listen on, host:port")
	f.StringVar(&f.baseURL, "base-url", "",
		"the server's public origin `URL`, such as https://expenses.example.com, that the protected resource metadata and the 401's challenge name (default http://localhost:<port>, or the listening address when --addr names a host)")
	f.StringVar(&f.docsURL, "docs-url", "",
		"`URL` of a page that tells users how to get a token, named by the metadata's resource_documentation (default the page the server serves at /)")
	f.StringVar(&f.logFormat, "log-format", "text", "log `format`: text or json; with json every line on stderr is a JSON object")
	f.StringVar(&f.metricsAddr, "metrics-addr", "", "serve /metrics (Prometheus) on this `address` of its own instead of the server's")
	f.StringVar(&f.otlpEndpoint, "otlp-endpoint", "", "export traces (a span for each request) over OTLP/HTTP to the OpenTelemetry collector at this base `URL`, such as http://otel-collector:4318; without it the standard OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) turns export on; off by default")
	f.BoolVar(&f.allowAnyHost, "allow-any-host", false, "turn off the DNS-rebinding protection (needed behind a reverse proxy on the same machine)")
	f.DurationVar(&f.shutdownTimeout, "shutdown-timeout", 10*time.Second, "how long requests in flight may take to finish on SIGINT or SIGTERM")
	f.DurationVar(&f.shutdownDelay, "shutdown-delay", 0, "on SIGINT or SIGTERM, how long to go on serving with /readyz answering 503 before the listener closes, so that load balancers (a Kubernetes Service) stop sending requests first; the shutdown timeout follows it")
	f.IntVar(&f.writeLimit, "write-limit", service.DefaultWritesPerMinute, "writes a minute each user may make, in bursts of as many; 0 for no limit")
	defineConnFlags(f.FlagSet, &f.connConfig, nil)
	f.BoolVar(&f.oauth, "oauth", true, "serve an OAuth 2.1 authorization server for this server's users, so that MCP clients sign people in themselves (passwords from 'bananaqr expenses user password'); the static tokens of 'bananaqr expenses token' work either way")
	f.StringVar(&f.registration, "registration", "open", "dynamic client registration (RFC 7591) `policy`: off, open (any https, loopback or private-use redirect URI), or allowlist (only those of --redirect-allowlist); clients that name themselves by a metadata document's URL need none")
	f.StringVar(&f.redirectAllowlist, "redirect-allowlist", "", "comma-separated redirect `URIs` that clients may register under --registration allowlist")
	f.DurationVar(&f.accessTTL, "access-token-ttl", oauth.DefaultAccessTTL, "how long an OAuth access token is valid")
	f.DurationVar(&f.refreshTTL, "refresh-token-ttl", oauth.DefaultRefreshTTL, "how long an OAuth refresh token is valid (each use replaces it)")
	f.StringVar(&f.trustedProxies, "trusted-proxies", "", "comma-separated `addresses` or CIDR prefixes of reverse proxies whose X-Forwarded-For names the client for the authorization server's limits (and whose connections --max-conns-per-client does not count)")
	f.StringVar(&f.oidc.Issuer, "oidc-issuer", "", "offer sign-in at this OpenID Connect provider (its issuer `URL`) beside passwords; its redirect URI for this server is <base URL>/oidc/callback")
	f.StringVar(&f.oidc.ClientID, "oidc-client-id", "", "this server's client `ID` at the OpenID Connect provider")
	f.StringVar(&f.oidc.ClientSecret, "oidc-client-secret", "", "this server's client `secret` at the OpenID Connect provider (set it by its variable rather than on the command line, which other users of the machine may see)")
	f.StringVar(&f.oidc.UsernameClaim, "oidc-username-claim", "preferred_username", "the ID token's `claim` whose value is the user's name here; pick one the provider controls")
	f.StringVar(&f.oidc.Name, "oidc-name", "", "the provider's `name` on the sign-in page (default its host)")
	f.Usage = func() {
		fmt.Fprint(stderr, "Usage: bananaqr expenses serve [flags]\n\nServes the shared-expenses MCP server (tools at /mcp, /healthz, /readyz, /metrics).\nEach flag can also be set by its environment variable; a flag on the command line wins.\n\n")
		printFlagsWithEnv(stderr, f.FlagSet, expensesEnvName)
	}
	if err := setFromEnv(f.FlagSet, getenv, expensesEnvName); err != nil {
		return nil, err
	}
	return f, nil
}

// parseArgs parses serve's arguments, which take no positional argument. When serve must
// stop there (help, or a usage error it reports), it returns the exit status and true.
func (f *expensesServeFlags) parseArgs(args []string, stderr io.Writer) (int, bool) {
	pos, err := f.parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return 0, true
	}
	if err != nil {
		return 2, true
	}
	usageError := func(format string, a ...any) (int, bool) {
		fmt.Fprintf(stderr, "bananaqr expenses serve: "+format+"\n", a...)
		return 2, true
	}
	if len(pos) != 0 {
		return usageError("unexpected argument %q", pos[0])
	}
	if f.writeLimit < 0 {
		return usageError("--write-limit %d: want 0 (no limit) or more", f.writeLimit)
	}
	if _, err := logHandler(f.logFormat, io.Discard); err != nil {
		return usageError("%v", err)
	}
	if _, err := oauth.ParseRegistration(f.registration); err != nil {
		return usageError("--registration: %v", err)
	}
	if f.accessTTL <= 0 || f.refreshTTL <= 0 {
		return usageError("--access-token-ttl and --refresh-token-ttl must be positive")
	}
	proxies, err := parsePrefixes(f.trustedProxies)
	if err != nil {
		return usageError("--trusted-proxies: %v", err)
	}
	f.proxies = proxies
	if f.oidc.Issuer != "" && (f.oidc.ClientID == "" || f.oidc.ClientSecret == "") {
		return usageError("--oidc-issuer needs --oidc-client-id and --oidc-client-secret (or BANANAQR_EXPENSES_OIDC_CLIENT_SECRET)")
	}
	f.noteGiven(f.FlagSet)
	if err := f.settle(); err != nil {
		return usageError("%v", err)
	}
	base := f.baseURL
	if base == "" {
		base = "http://localhost" // the default's form; its port is known once listening
	}
	if err := mcpserver.CheckURLs(base, f.docsURL); err != nil {
		return usageError("--base-url or --docs-url: %v", err)
	}
	return 0, false
}

// authorizationServer returns the OAuth authorization server of the flags for the users of st,
// its issuer base, or nil with --oauth=false.
func (f *expensesServeFlags) authorizationServer(ctx context.Context, st *store.Store, base string, logger *slog.Logger) (*oauth.Server, error) {
	if !f.oauth {
		return nil, nil
	}
	policy, _ := oauth.ParseRegistration(f.registration) // checked by parseArgs
	var allowed []string
	for _, u := range strings.Split(f.redirectAllowlist, ",") {
		if u = strings.TrimSpace(u); u != "" {
			allowed = append(allowed, u)
		}
	}
	o := oauth.Options{Issuer: base, Resource: base + mcpserver.EndpointPath, Registration: policy,
		AllowedRedirectURIs: allowed, AccessTTL: f.accessTTL, RefreshTTL: f.refreshTTL, Logger: logger,
		ClientAddress: clientaddr.New(f.proxies, f.ipv6Prefix, logger).Key}
	if f.oidc.Issuer != "" {
		o.OIDC = &f.oidc
	}
	return oauth.New(ctx, st, o)
}

// expensesHandler returns the routes of the server: the MCP edge over svc, whose public origin
// is base (mcpserver.Handler, its tool calls counted by metrics), with the authorization server
// as when not nil, the probes /healthz and /readyz, and /metrics unless --metrics-addr serves
// them elsewhere; it fails when base or --docs-url is not a usable URL.
func (f *expensesServeFlags) expensesHandler(svc *service.Service, as *oauth.Server, readyz *ops.Readyz, base string, logger *slog.Logger, metrics *ops.Metrics) (http.Handler, error) {
	edge, err := mcpserver.Handler(svc, mcpserver.Options{BaseURL: base, DocumentationURL: f.docsURL, OAuth: as,
		DisableLocalhostProtection: f.allowAnyHost, Logger: logger, Middleware: []mcp.Middleware{metrics.ToolCalls.Middleware}})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /healthz", ops.Healthz())
	mux.Handle("GET /readyz", readyz)
	if f.metricsAddr == "" {
		mux.Handle("GET /metrics", metrics.Handler())
	}
	mux.Handle("/", edge)
	return mux, nil
}

// expensesRoute returns the route a request is logged and counted under: its path when it is
// one of the server's routes (/metrics among them when withMetrics, the authorization server's
// when as is not nil), else "(unknown)".
func expensesRoute(withMetrics bool, as *oauth.Server) func(*http.Request) string {
	routes := map[string]bool{"/healthz": true, "/readyz": true, "/metrics": withMetrics}
	for _, r := range mcpserver.Routes() {
		routes[r] = true
	}
	if as != nil {
		for _, r := range as.Routes() {
			routes[r] = true
		}
	}
	return func(r *http.Request) string {
		if routes[r.URL.Path] {
			return r.URL.Path
		}
		return "(unknown)"
	}
}

// localBaseURL is the base URL of a server listening at addr when no --base-url is given:
// http, and localhost for an address that is every interface's.
func localBaseURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
