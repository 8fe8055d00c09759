// Connections: the bounds and timeouts of the connections a server holds open, the same for
// bananaqr serve and bananaqr expenses serve. A client that opens connections and sends
// nothing, or keeps them alive idle, must not take the file descriptors every other client
// needs: past the open-file limit, accept fails ("too many open files") and the next client
// waits in the listen queue until it gives up. So the listener is bounded in all, below the
// open-file limit by a reserve, and per client (internal/connlimit), and each connection has
// a deadline for its headers, its body, its answer and its idleness (net/http.Server).

package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"

	"github.com/bananaqr/bananaqr/internal/connlimit"
)

// connConfig is what the connection flags set.
type connConfig struct {
	maxConns, maxConnsPerClient, ipv6Prefix int
	readHeaderTimeout, idleTimeout          time.Duration
	// perClientGiven is whether --max-conns-per-client was set (on the command line or in the
	// environment) rather than left at its default, which settle may lower.
	perClientGiven bool
}

// The defaults of the connection flags.
const (
	defaultMaxConnsPerClient = 256
	defaultIPv6Prefix        = 64
	defaultReadHeaderTimeout = 5 * time.Second
	defaultIdleTimeout       = 30 * time.Second
	// readTimeout bounds the reading of a whole request, body included, and writeTimeout the
	// time from the end of a request's headers to the end of its answer.
	readTimeout  = 15 * time.Second
	writeTimeout = 30 * time.Second
)

// connFlagNames are the flags defineConnFlags defines.
var connFlagNames = []string{"read-header-timeout", "idle-timeout", "max-conns", "max-conns-per-client", "ipv6-prefix"}

// defineConnFlags defines the connection flags on fs, writing into c; note, when not nil,
// returns what ends a flag's usage for this command, in parentheses ("" for nothing).
func defineConnFlags(fs *flag.FlagSet, c *connConfig, note func(name string) string) {
	fs.DurationVar(&c.readHeaderTimeout, "read-header-timeout", defaultReadHeaderTimeout, "how long a client may take to send a request's headers (slow clients are cut off)")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", defaultIdleTimeout, "how long a kept-alive connection may wait for its next request")
	fs.IntVar(&c.maxConns, "max-conns", 0, fmt.Sprintf("connections open at once, in `all`; more are closed as soon as they are accepted (0: the process's open-file limit less a reserve of %d, at most %d)", connReserve, maxDefaultConns))
	fs.IntVar(&c.maxConnsPerClient, "max-conns-per-client", defaultMaxConnsPerClient, "connections open at once from one client (an IPv4 address or an IPv6 prefix, see --ipv6-prefix); 0 for no bound; by default at most a quarter of --max-conns, so that one client never holds them all")
	fs.IntVar(&c.ipv6Prefix, "ipv6-prefix", defaultIPv6Prefix, "the IPv6 prefix `length` that counts as one client, which an IPv6 host usually owns whole, for --max-conns-per-client")
	if note == nil {
		return
	}
	for _, name := range connFlagNames {
		if n := note(name); n != "" {
			f := fs.Lookup(name)
			f.Usage += " (" + n + ")"
		}
	}
}

// noteGiven records which connection flags fs has seen set, after parsing (flag.FlagSet.Visit
// visits those set on the command line and those set from the environment with Set).
func (c *connConfig) noteGiven(fs *flag.FlagSet) {
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "max-conns-per-client" {
			c.perClientGiven = true
		}
	})
}

// settle checks the connection flags and puts in the defaults that depend on the machine:
// --max-conns' (defaultMaxConns) when it is 0, and --max-conns-per-client's, at most a quarter
// of --max-conns when it was not given. A connConfig made in code, without the flags, has no
// bound per client.
func (c *connConfig) settle() error {
	if c.maxConns < 0 || c.maxConnsPerClient < 0 {
		return errors.New("--max-conns and --max-conns-per-client: want 0 or more")
	}
	if c.ipv6Prefix == 0 { // made in code, without the flags' defaults
		c.ipv6Prefix = defaultIPv6Prefix
	}
	if c.ipv6Prefix < 1 || c.ipv6Prefix > 128 {
		return fmt.Errorf("--ipv6-prefix %d: want 1..128", c.ipv6Prefix)
	}
	if c.maxConns == 0 {
		c.maxConns = defaultMaxConns()
	}
	if !c.perClientGiven && c.maxConnsPerClient > 0 {
		c.maxConnsPerClient = min(c.maxConnsPerClient, max(1, c.maxConns/4))
	}
	return nil
}

// httpServer returns an HTTP server of h with the connections' timeouts, reading at most
// maxHeaderBytes of a request's line and headers, logging its own errors through handler.
func (c *connConfig) httpServer(h http.Handler, maxHeaderBytes int, handler slog.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: c.readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       c.idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(handler, slog.LevelWarn),
	}
}

// bound returns ln within the connection bounds, the peers of exempt (trusted reverse
// proxies) bounded by --max-conns only.
func (c *connConfig) bound(ln net.Listener, exempt []netip.Prefix) *connlimit.Listener {
	return connlimit.Wrap(ln, connlimit.Config{Total: c.maxConns, PerClient: c.maxConnsPerClient,
		IPv6Prefix: c.ipv6Prefix, Exempt: exempt})
}

// connReserve is how many file descriptors --max-conns leaves free by default for everything
// else the process opens: the listeners, Redis or the database, log files, and the accept
// that must succeed in order to close a connection over the bound.
const connReserve = 256

// maxDefaultConns is the most connections --max-conns' default allows.
const maxDefaultConns = 16384

// defaultMaxConns returns --max-conns' default: the open-file limit less connReserve, at most
// maxDefaultConns and at least 64.
func defaultMaxConns() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur > 1<<20 {
		return maxDefaultConns
	}
	return min(maxDefaultConns, max(64, int(lim.Cur)-connReserve))
}
