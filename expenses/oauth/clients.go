package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bananaqr/bananaqr/expenses/store"
)

// A client is what the server knows of an OAuth client: its name (for the consent page) and its
// redirect URIs.
type client struct {
	id           string
	name         string
	redirectURIs []string
	metadataURL  bool // whether id is the URL of the client's metadata document (cimd.go)
}

// errUnknownClient: the client_id names no client this server knows.
var errUnknownClient = errors.New("unknown client_id")

// lookupClient returns the client of id, for request r: one described by its metadata
// document at the URL id (cimd.go; r's address may make the server fetch only so many), or one
// registered (RFC 7591).
func (s *Server) lookupClient(r *http.Request, id string) (client, error) {
	ctx := r.Context()
	if id == "" {
		return client{}, errUnknownClient
	}
	if isMetadataClientID(id) {
		return s.cimd.lookup(ctx, id, func() bool {
			d, _ := s.fetches.Allow(ctx, s.client(r))
			return d.Allowed
		})
	}
	c, err := s.st.OAuthClientByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return client{}, errUnknownClient
	}
	if err != nil {
		return client{}, err
	}
	return client{id: c.ID, name: c.Name, redirectURIs: c.RedirectURIs}, nil
}

// redirectMatches reports whether uri, as a request sends it, is one of the client's redirect
// URIs: compared as exact strings (OAuth 2.1 section 2.3.1, RFC 9700 section 4.1.3), except that
// for a loopback redirect URI of a native client the port may differ (RFC 8252 section 7.3:
// the client opens a port when it needs one).
func (c *client) redirectMatches(uri string) bool {
	if slices.Contains(c.redirectURIs, uri) {
		return true
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "http" || !isLoopback(u.Hostname()) {
		return false
	}
	for _, r := range c.redirectURIs {
		v, err := url.Parse(r)
		if err == nil && v.Scheme == "http" && v.Hostname() == u.Hostname() && v.Path == u.Path &&
			v.RawQuery == u.RawQuery {
			return true
		}
	}
	return false
}

// isLoopback reports whether host is a loopback IP literal or "localhost".
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkRedirectURI reports whether uri may be registered as a redirect URI: absolute, without a
// fragment (RFC 6749 3.1.2), and https, http on a loopback address (RFC 8252 section 7.3), or a
// private-use scheme with a dot in it, as reverse domain names have (RFC 8252 section 7.1). No
// user info, since a URI with one misleads the person reading the consent page.
func checkRedirectURI(uri string) error {
	u, err := url.Parse(uri)
	switch {
	case err != nil:
		return fmt.Errorf("redirect URI %q: %v", uri, err)
	case !u.IsAbs() || u.Fragment != "" || strings.Contains(uri, "#"):
		return fmt.Errorf("redirect URI %q: want an absolute URI without a fragment", uri)
	case u.User != nil:
		return fmt.Errorf("redirect URI %q: user information is not allowed", uri)
	case u.Scheme == "https":
		if u.Host == "" {
			return fmt.Errorf("redirect URI %q: no host", uri)
		}
	case u.Scheme == "http":
		if !isLoopback(u.Hostname()) {
			return fmt.Errorf("redirect URI %q: http only on a loopback address (127.0.0.1, [::1] or localhost); use https", uri)
		}
	case strings.Contains(u.Scheme, "."):
		// A private-use scheme of a native app (RFC 8252 7.1).
	default:
		return fmt.Errorf("redirect URI %q: want https, http on a loopback address, or a reverse-domain private-use scheme", uri)
	}
	return nil
}

// registration is a client's registration request and the server's answer (RFC 7591 sections 2
// and 3.2.1).
type registration struct {
	RedirectURIs            []string `json:"redirect_uris"`
	ClientName              string   `json:"client_name,omitempty"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	Scope                   string   `json:"scope,omitempty"`
	ClientID                string   `json:"client_id,omitempty"`
	ClientIDIssuedAt        int64    `json:"client_id_issued_at,omitempty"`
}

// Limits of a registration.
const (
	maxRegistrationBody = 16 << 10
	maxRedirectURIs     = 10
	maxRedirectURILen   = 2000
	maxClientName       = 100
)

// serveRegister registers a public client (RFC 7591 section 3): its redirect URIs checked, and
// under RegistrationAllowlist each one allowed.
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	if !s.acceptPost(w, r, s.registering, maxRegistrationBody) {
		return
	}
	var req registration
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(&req); err != nil {
		writeError(w, "invalid_client_metadata", "the body is not a JSON client metadata object")
		return
	}
	if code, msg := s.checkRegistration(&req); code != "" {
		writeError(w, code, msg)
		return
	}
	req.ClientID = newSecret("bqk_")
	req.ClientIDIssuedAt = s.now().Unix()
	req.TokenEndpointAuthMethod = "none"
	req.GrantTypes = []string{"authorization_code", "refresh_token"}
	req.ResponseTypes = []string{"code"}
	if req.Scope == "" {
		req.Scope = strings.Join(Scopes, " ")
	}
	err := s.st.CreateOAuthClient(r.Context(), store.OAuthClient{ID: req.ClientID, Name: req.ClientName,
		RedirectURIs: req.RedirectURIs, CreatedAt: s.now()})
	if err != nil {
		s.log.ErrorContext(r.Context(), "client registration failed", "error", err.Error())
		writeError(w, "server_error", "the client could not be registered; try again later")
		return
	}
	noStore(w)
	writeJSON(w, http.StatusCreated, &req)
}

// checkRegistration returns the RFC 7591 3.2.2 error of a registration request that cannot be
// accepted, or "".
func (s *Server) checkRegistration(req *registration) (code, msg string) {
	if len(req.RedirectURIs) == 0 || len(req.RedirectURIs) > maxRedirectURIs {
		return "invalid_redirect_uri", fmt.Sprintf("give 1 to %d redirect_uris", maxRedirectURIs)
	}
	for _, u := range req.RedirectURIs {
		if len(u) > maxRedirectURILen {
			return "invalid_redirect_uri", "a redirect URI is too long"
		}
		if err := checkRedirectURI(u); err != nil {
			return "invalid_redirect_uri", err.Error()
		}
		if s.policy == RegistrationAllowlist && !slices.Contains(s.allowed, u) {
			return "invalid_redirect_uri", fmt.Sprintf("redirect URI %q is not allowed on this server", u)
		}
	}
	if !utf8.ValidString(req.ClientName) || utf8.RuneCountInString(req.ClientName) > maxClientName {
		return "invalid_client_metadata", fmt.Sprintf("client_name: at most %d characters of UTF-8", maxClientName)
	}
	if m := req.TokenEndpointAuthMethod; m != "" && m != "none" {
		return "invalid_client_metadata", "token_endpoint_auth_method: this server registers public clients only (\"none\"), which prove themselves with PKCE"
	}
	for _, g := range req.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return "invalid_client_metadata", fmt.Sprintf("grant type %q is not supported", g)
		}
	}
	for _, t := range req.ResponseTypes {
		if t != "code" {
			return "invalid_client_metadata", fmt.Sprintf("response type %q is not supported", t)
		}
	}
	if _, ok := parseScope(req.Scope); !ok {
		return "invalid_client_metadata", "scope: known scopes are " + strings.Join(Scopes, " ")
	}
	return "", ""
}

// parseScope returns the scopes of a scope parameter (RFC 6749 3.3), in the order of Scopes,
// each once; all of them for an empty one. It reports false for an unknown scope.
func parseScope(s string) ([]string, bool) {
	asked := strings.Fields(s)
	if len(asked) == 0 {
		return Scopes, true
	}
	var out []string
	for _, sc := range Scopes {
		if slices.Contains(asked, sc) {
			out = append(out, sc)
		}
	}
	for _, a := range asked {
		if !slices.Contains(Scopes, a) {
			return nil, false
		}
	}
	return out, true
}
