package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/bananaqr/bananaqr/api"
)

// Exit statuses of healthcheck. A container runtime reads them (Docker's HEALTHCHECK: 0
// healthy, 1 unhealthy, 2 reserved), so a usage error is 1 too, never the CLI's usual 2.
const (
	healthy   = 0
	unhealthy = 1
)

// healthcheck is "bananaqr healthcheck": the container image's health check. It GETs the
// liveness check (spec 4.6) of the service serve runs, found from the same --addr serve would
// listen on (BANANAQR_ADDR, else serve's default), or at -url, and exits 0 when it answers
// 200 with {"ok": true} within -timeout; otherwise it exits 1 with the reason on one line of
// stderr. The image has no shell and no curl, so the binary checks itself.
func healthcheck(args []string, getenv func(string) string, stderr io.Writer) int {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := serveAddr(getenv)
	defaultURL, addrErr := healthURL(addr)
	target := fs.String("url", defaultURL, "`URL` of the liveness check to GET; its default follows "+envName("addr")+" as serve's --addr does")
	timeout := fs.Duration("timeout", 3*time.Second, "how long the whole check may take")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: bananaqr healthcheck [flags]\n\n"+
			"GETs the service's /healthz and exits 0 when it answers 200 {\"ok\": true}, else 1 with\n"+
			"the reason on stderr: the container image's HEALTHCHECK.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return healthy
		}
		return unhealthy
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bananaqr healthcheck: unexpected argument %q\n", fs.Arg(0))
		return unhealthy
	}
	urlGiven := false
	fs.Visit(func(f *flag.Flag) { urlGiven = urlGiven || f.Name == "url" })
	if !urlGiven && addrErr != nil {
		fmt.Fprintf(stderr, "bananaqr healthcheck: %s %q: %v\n", envName("addr"), addr, addrErr)
		return unhealthy
	}
	if err := checkHealth(*target, *timeout); err != nil {
		fmt.Fprintf(stderr, "bananaqr healthcheck: %v\n", err)
		return unhealthy
	}
	return healthy
}

// serveAddr returns the address serve listens on when started without --addr: its
// environment twin, else the flag's default (read from serve's own flag set, so that the two
// cannot drift).
func serveAddr(getenv func(string) string) string {
	if a := getenv(envName("addr")); a != "" {
		return a
	}
	var c serveConfig
	return serveFlags(&c, io.Discard).Lookup("addr").DefValue
}

// healthURL returns the URL of the liveness check of a service listening on addr (host:port).
// A listener on every address (":8080", "0.0.0.0:8080", "[::]:8080") is checked on
// 127.0.0.1, which Go's wildcard listeners, dual-stack for "[::]" too, always accept.
func healthURL(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}

// checkHealth GETs url and returns nil when it answers 200 with {"ok": true} (api.Health)
// within timeout, else why not. It follows no redirect and takes no proxy from the
// environment: what it checks is this service, directly.
func checkHealth(url string, timeout time.Duration) error {
	client := &http.Client{
		Timeout:       timeout,
		Transport:     &http.Transport{Proxy: nil, DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 4<<10))
	if err != nil {
		return fmt.Errorf("GET %s: reading the answer: %w", url, err)
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, res.Status)
	}
	var h api.Health
	if err := json.Unmarshal(body, &h); err != nil || !h.OK {
		return fmt.Errorf("GET %s: 200 but the answer is not {\"ok\": true}: %.80q", url, body)
	}
	return nil
}
