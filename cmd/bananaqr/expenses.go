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
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/bananaqr/bananaqr/expenses/mcpserver"
	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/internal/graceful"
)

const expensesUsage = `bananaqr expenses: the shared-expenses application's MCP server (tools at /mcp).

Usage:
  bananaqr expenses serve [--addr :8090] [--base-url URL] [storage]   serve MCP at /mcp
  bananaqr expenses user add <name> [storage]         add a user
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
			return expensesUserAdd(args[2:], os.Getenv, stdout, stderr)
		case "list":
			return expensesUserList(args[2:], os.Getenv, stdout, stderr)
		}
		fmt.Fprintf(stderr, "bananaqr expenses: unknown command \"user %s\" (want user add or user list)\n\n%s", args[1], expensesUsage)
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
	return expensesFlags{fs,
		fs.String("db", db, "SQLite `file` (env BANANAQR_EXPENSES_DB)"),
		fs.String("database-url", getenv("BANANAQR_EXPENSES_DATABASE_URL"),
			"PostgreSQL `URL` postgres://…; when set, used instead of --db (env BANANAQR_EXPENSES_DATABASE_URL)")}
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

func expensesUserAdd(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	f := newExpensesFlags("user add", getenv, stderr)
	st, pos, code := f.open(args, 1, stderr)
	if st == nil {
		return code
	}
	defer st.Close()
	if err := service.CheckText("name", pos[0], service.MaxNameLength); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", f.Name(), err)
		return 2
	}
	u, err := st.CreateUser(context.Background(), pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", f.Name(), err)
		return 1
	}
	fmt.Fprintf(stdout, "added user %s (id %s)\n", u.Name, u.ID)
	return 0
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
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "bananaqr expenses serve: "+format+"\n", a...)
		return 1
	}
	handler := slog.NewTextHandler(stderr, nil)
	logger := slog.New(handler)
	st, err := f.storage(ctx)
	if err != nil {
		return fail("%v", err)
	}
	defer st.Close()
	svc := service.New(st, nil)
	svc.LimitWrites(f.writeLimit)
	tcp, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fail("%v", err)
	}
	ln := f.bound(tcp, nil)
	base := f.baseURL
	if base == "" {
		base = localBaseURL(ln.Addr())
	}
	srv, err := f.mcpHTTPServer(svc, base, handler, logger)
	if err != nil {
		ln.Close()
		return fail("%v", err)
	}
	logger.Info("listening", "addr", ln.Addr().String(), "path", mcpserver.EndpointPath, "endpoint", base+mcpserver.EndpointPath,
		"max_conns", f.maxConns, "max_conns_per_client", f.maxConnsPerClient)
	if ready != nil {
		ready(ln.Addr())
	}
	if err := graceful.Serve(ctx, logger, f.shutdownTimeout, graceful.Server{HTTP: srv, Listener: ln}); err != nil {
		return fail("%v", err)
	}
	return 0
}

// expensesServeFlags are the flags of expenses serve: the storage flags, serve's own, and the
// connection flags it shares with bananaqr serve (conns.go).
type expensesServeFlags struct {
	expensesFlags
	addr            string
	baseURL         string
	docsURL         string
	allowAnyHost    bool
	shutdownTimeout time.Duration
	writeLimit      int
	connConfig
}

// expensesEnvName returns the environment twin of an expenses flag: BANANAQR_EXPENSES_ and its
// name in upper case, with underscores for hyphens.
func expensesEnvName(flagName string) string {
	return "BANANAQR_EXPENSES_" + strings.TrimPrefix(envName(flagName), "BANANAQR_")
}

// newExpensesServeFlags defines serve's flags, with the defaults their environment variables
// give; a BANANAQR_EXPENSES_WRITE_LIMIT that is not a number of 0 or more, or a connection
// flag's variable that is not a value of its flag, is an error.
func newExpensesServeFlags(getenv func(string) string, stderr io.Writer) (*expensesServeFlags, error) {
	f := &expensesServeFlags{expensesFlags: newExpensesFlags("serve", getenv, stderr)}
	f.addr = getenv("BANANAQR_EXPENSES_ADDR")
	if f.addr == "" {
		f.addr = ":8090"
	}
	f.StringVar(&f.addr, "addr", f.addr, "`address` to listen on (env BANANAQR_EXPENSES_ADDR)")
	f.StringVar(&f.baseURL, "base-url", getenv("BANANAQR_EXPENSES_BASE_URL"),
		"the server's public origin `URL`, such as https://expenses.example.com, that the protected resource metadata and the 401's challenge name (env BANANAQR_EXPENSES_BASE_URL; default http://localhost:<port>, or the listening address when --addr names a host)")
	f.StringVar(&f.docsURL, "docs-url", getenv("BANANAQR_EXPENSES_DOCS_URL"),
		"`URL` of a page that tells users how to get a token, named by the metadata's resource_documentation (env BANANAQR_EXPENSES_DOCS_URL; default the page the server serves at /)")
	f.BoolVar(&f.allowAnyHost, "allow-any-host", false, "turn off the DNS-rebinding protection (needed behind a reverse proxy on the same machine)")
	f.DurationVar(&f.shutdownTimeout, "shutdown-timeout", 10*time.Second, "how long to let requests finish on SIGTERM")
	f.writeLimit = service.DefaultWritesPerMinute
	if env := getenv("BANANAQR_EXPENSES_WRITE_LIMIT"); env != "" {
		n, err := strconv.Atoi(env)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("BANANAQR_EXPENSES_WRITE_LIMIT=%q is not a number of writes a minute (0 for no limit)", env)
		}
		f.writeLimit = n
	}
	f.IntVar(&f.writeLimit, "write-limit", f.writeLimit, "writes a minute each user may make, in bursts of as many; 0 for no limit (env BANANAQR_EXPENSES_WRITE_LIMIT)")
	defineConnFlags(f.FlagSet, &f.connConfig, func(name string) string { return "env " + expensesEnvName(name) })
	for _, name := range connFlagNames {
		if env := getenv(expensesEnvName(name)); env != "" {
			if err := f.Set(name, env); err != nil { // the command line, parsed next, wins
				return nil, fmt.Errorf("%s=%q: %v", expensesEnvName(name), env, err)
			}
		}
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
	if len(pos) != 0 {
		fmt.Fprintf(stderr, "bananaqr expenses serve: unexpected argument %q\n", pos[0])
		return 2, true
	}
	if f.writeLimit < 0 {
		fmt.Fprintf(stderr, "bananaqr expenses serve: --write-limit %d: want 0 (no limit) or more\n", f.writeLimit)
		return 2, true
	}
	f.noteGiven(f.FlagSet)
	if err := f.settle(); err != nil {
		fmt.Fprintf(stderr, "bananaqr expenses serve: %v\n", err)
		return 2, true
	}
	base := f.baseURL
	if base == "" {
		base = "http://localhost" // the default's form; its port is known once listening
	}
	if err := mcpserver.CheckURLs(base, f.docsURL); err != nil {
		fmt.Fprintf(stderr, "bananaqr expenses serve: --base-url or --docs-url: %v\n", err)
		return 2, true
	}
	return 0, false
}

// mcpHTTPServer returns the HTTP server of the MCP edge over svc, whose public origin is base,
// with the connections' timeouts and a 16 KiB bound on a request's headers, logging its own
// errors through handler; it fails when base or --docs-url is not a usable URL.
func (f *expensesServeFlags) mcpHTTPServer(svc *service.Service, base string, handler slog.Handler, logger *slog.Logger) (*http.Server, error) {
	h, err := mcpserver.Handler(svc, mcpserver.Options{BaseURL: base, DocumentationURL: f.docsURL,
		DisableLocalhostProtection: f.allowAnyHost, Logger: logger})
	if err != nil {
		return nil, err
	}
	return f.httpServer(h, 16<<10, handler), nil
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
