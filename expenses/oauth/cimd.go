package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; MCP
// authorization 2025-11-25, "Client ID Metadata Documents"): a client whose client_id is an
// https URL is described by the JSON document at that URL, which this server fetches. The fetch
// is the one place where a request makes this server reach out, so it is held tight (SSRF,
// RFC 9700 4.x and OWASP's SSRF prevention cheat sheet): https only, on port 443 or another
// explicit port, to public unicast addresses only (checked on the address actually dialled, so
// DNS rebinding gains nothing), no redirects, at most maxDocumentBytes in at most
// fetchTimeout, and each document kept for a while (cacheTTL bounds) so that a client_id
// cannot make the server fetch again and again.

// Limits of a metadata document's fetch.
const (
	maxDocumentBytes = 5 << 10
	fetchTimeout     = 5 * time.Second
	maxClientIDLen   = 512
	minCacheTTL      = 30 * time.Second
	maxCacheTTL      = 24 * time.Hour
	defaultCacheTTL  = 5 * time.Minute
	maxCachedClients = 1000
)

// isMetadataClientID reports whether id names a client by its metadata document's URL.
func isMetadataClientID(id string) bool { return strings.HasPrefix(id, "https://") }

// checkMetadataURL reports whether id is a usable client_id URL: https, a host, a path beyond
// "/", no user information, query, fragment or dot segments (the draft's section 3).
func checkMetadataURL(id string) error {
	u, err := url.Parse(id)
	switch {
	case err != nil || len(id) > maxClientIDLen:
		return errors.New("client_id is not a usable URL")
	case u.Scheme != "https" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || strings.Contains(id, "#"):
		return errors.New("a client_id URL must be https, with a host and a path, and no user information, query or fragment")
	case u.Path == "" || u.Path == "/":
		return errors.New("a client_id URL must have a path")
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == "." || seg == ".." {
			return errors.New("a client_id URL must not have dot segments")
		}
	}
	return nil
}

// metadataDocumentClient is a client's metadata document: the fields this server reads.
type metadataDocumentClient struct {
	ClientID                string   `json:"client_id"`
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
}

// cimdCache fetches metadata documents and keeps them.
type cimdCache struct {
	client *http.Client
	now    func() time.Time
	mu     sync.Mutex
	docs   map[string]cachedClient
}

// cachedClient is a fetched document's client, or the error of its fetch (kept too, for
// minCacheTTL, so that a failing URL is not fetched at every request), until expires.
type cachedClient struct {
	client  client
	err     error
	expires time.Time
}

// newCIMDCache returns the cache, fetching with hc (the SSRF-guarded client when nil).
func newCIMDCache(hc *http.Client, now func() time.Time) *cimdCache {
	if hc == nil {
		hc = guardedClient()
	}
	return &cimdCache{client: hc, now: now, docs: map[string]cachedClient{}}
}

// errTooManyFetches: the requester made this server fetch too many documents lately.
var errTooManyFetches = errors.New("too many client metadata documents fetched for this address; try again in a minute")

// lookup returns the client whose client_id is the URL id; a document not kept is fetched only
// when mayFetch says so.
func (c *cimdCache) lookup(ctx context.Context, id string, mayFetch func() bool) (client, error) {
	if err := checkMetadataURL(id); err != nil {
		return client{}, fmt.Errorf("%w: %v", errUnknownClient, err)
	}
	now := c.now()
	c.mu.Lock()
	e, ok := c.docs[id]
	c.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.client, e.err
	}
	if !mayFetch() {
		return client{}, errTooManyFetches
	}
	cl, ttl, err := c.fetch(ctx, id)
	if err != nil {
		err = fmt.Errorf("%w: %v", errUnknownClient, err)
		ttl = minCacheTTL
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.docs) >= maxCachedClients { // forget the expired, or everything when none has
		for k, v := range c.docs {
			if !now.Before(v.expires) {
				delete(c.docs, k)
			}
		}
		if len(c.docs) >= maxCachedClients {
			clear(c.docs)
		}
	}
	c.docs[id] = cachedClient{client: cl, err: err, expires: now.Add(ttl)}
	return cl, err
}

// fetch gets and checks the document at id, and says how long to keep it: its Cache-Control
// max-age within [minCacheTTL, maxCacheTTL], or defaultCacheTTL.
func (c *cimdCache) fetch(ctx context.Context, id string) (client, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return client{}, 0, err
	}
	req.Header.Set("Accept", "application/json")
	res, err := c.client.Do(req)
	if err != nil {
		return client{}, 0, fmt.Errorf("the client's metadata document could not be fetched: %v", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return client{}, 0, fmt.Errorf("the client's metadata document answered %d", res.StatusCode)
	}
	if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); mt != "application/json" && !strings.HasSuffix(mt, "+json") {
		return client{}, 0, fmt.Errorf("the client's metadata document is %q, not JSON", mt)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, maxDocumentBytes+1))
	if err != nil {
		return client{}, 0, fmt.Errorf("the client's metadata document could not be read: %v", err)
	}
	if len(body) > maxDocumentBytes {
		return client{}, 0, fmt.Errorf("the client's metadata document is over %d bytes", maxDocumentBytes)
	}
	var doc metadataDocumentClient
	if err := json.Unmarshal(body, &doc); err != nil {
		return client{}, 0, errors.New("the client's metadata document is not a JSON object")
	}
	if err := checkMetadataDocument(&doc, id); err != nil {
		return client{}, 0, err
	}
	return client{id: id, name: doc.ClientName, redirectURIs: doc.RedirectURIs, metadataURL: true}, cacheTTL(res.Header), nil
}

// checkMetadataDocument checks what the draft (section 4) and this server require of a
// document fetched from id.
func checkMetadataDocument(doc *metadataDocumentClient, id string) error {
	switch {
	case doc.ClientID != id:
		return errors.New("the client's metadata document names another client_id")
	case len(doc.RedirectURIs) == 0 || len(doc.RedirectURIs) > maxRedirectURIs:
		return fmt.Errorf("the client's metadata document must list 1 to %d redirect_uris", maxRedirectURIs)
	case doc.TokenEndpointAuthMethod != "" && doc.TokenEndpointAuthMethod != "none":
		return errors.New("the client's metadata document asks for client authentication; this server takes public clients only")
	case len(doc.ClientName) > 4*maxClientName:
		return errors.New("the client's metadata document has a client_name that is too long")
	}
	for _, u := range doc.RedirectURIs {
		if len(u) > maxRedirectURILen {
			return errors.New("the client's metadata document has a redirect URI that is too long")
		}
		if err := checkRedirectURI(u); err != nil {
			return err
		}
	}
	return nil
}

// cacheTTL returns how long to keep a document by its Cache-Control max-age, within bounds.
func cacheTTL(h http.Header) time.Duration {
	for _, d := range strings.Split(h.Get("Cache-Control"), ",") {
		d = strings.TrimSpace(strings.ToLower(d))
		if d == "no-store" || d == "no-cache" {
			return minCacheTTL
		}
		if v, ok := strings.CutPrefix(d, "max-age="); ok {
			if n, err := strconv.Atoi(v); err == nil {
				return min(max(time.Duration(n)*time.Second, minCacheTTL), maxCacheTTL)
			}
		}
	}
	return defaultCacheTTL
}

// guardedClient returns the HTTP client of metadata fetches: it dials public unicast
// addresses only (publicAddress, checked on the address being dialled), follows no redirect,
// uses no proxy from the environment, and gives up after fetchTimeout.
func guardedClient() *http.Client {
	dialer := &net.Dialer{Timeout: fetchTimeout, Control: func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !publicAddress(ap.Addr()) {
			return fmt.Errorf("address %s is not a public address", address)
		}
		return nil
	}}
	return &http.Client{
		Timeout:       fetchTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return errors.New("redirects are not followed") },
		Transport: &http.Transport{DialContext: dialer.DialContext, ForceAttemptHTTP2: true,
			TLSHandshakeTimeout: fetchTimeout, ResponseHeaderTimeout: fetchTimeout, MaxResponseHeaderBytes: 16 << 10},
	}
}

// nonPublic are the prefixes of addresses that are not on the public internet, beyond what
// netip.Addr's predicates say: shared address space, benchmarking, documentation, IPv4/IPv6
// translation, 6to4 relays and the like (IANA special-purpose address registries).
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"), netip.MustParsePrefix("100.64.0.0/10"), netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"), netip.MustParsePrefix("198.18.0.0/15"), netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"), netip.MustParsePrefix("240.0.0.0/4"), netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"), netip.MustParsePrefix("100::/64"), netip.MustParsePrefix("2001::/23"),
	netip.MustParsePrefix("2001:db8::/32"), netip.MustParsePrefix("2002::/16"), netip.MustParsePrefix("fc00::/7"),
}

// publicAddress reports whether a is a global unicast address on the public internet.
func publicAddress(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || !a.IsGlobalUnicast() || a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}
