// Package oauth is the authorization server of the shared-expenses MCP server (issue 34): the
// MCP authorization specification (2025-11-25) asks an MCP server reached over HTTP to accept
// OAuth 2.1 access tokens, which clients obtain themselves. This server issues them to its own
// users for one protected resource, its MCP endpoint:
//
//   - authorization server metadata (RFC 8414) at /.well-known/oauth-authorization-server;
//   - the authorization code grant with PKCE (RFC 7636, S256 only) at /authorize, where the
//     person signs in with the password the operator set ("bananaqr expenses user password"),
//     or, when configured, at an OpenID Connect provider (oidc.go), and consents to the client,
//     the scopes and the resource;
//   - the token endpoint at /token: authorization_code and refresh_token grants, refresh tokens
//     rotated at each use, a reused one revoking its whole family (OAuth 2.1 section 4.3.1,
//     RFC 9700 section 4.14.2), short-lived access tokens bound to the resource (RFC 8707);
//   - revocation (RFC 7009) at /revoke;
//   - clients named by the URL of their metadata document (Client ID Metadata Documents,
//     fetched with SSRF guards: cimd.go), and dynamic client registration (RFC 7591) at
//     /register, off, open or limited to an allowlist of redirect URIs.
//
// Clients are public (token_endpoint_auth_method "none"): they prove themselves by PKCE and by
// the exact redirect URI they registered. Codes and tokens are random (256 bits) and stored
// only as their SHA-256 hashes (package store); passwords only as Argon2id hashes (package
// password). Nothing secret is logged.
package oauth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/internal/cors"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// Scopes of the tokens (MCP authorization, "Scope Selection"): ScopeRead lets a client call
// the tools that read, ScopeWrite the tools that write.
const (
	ScopeRead  = "expenses:read"
	ScopeWrite = "expenses:write"
)

// Scopes are the scopes this server grants, in the order the consent page lists them.
var Scopes = []string{ScopeRead, ScopeWrite}

// scopeText describes each scope on the consent page.
var scopeText = map[string]string{
	ScopeRead:  "See your expenses, balances, groups and friends",
	ScopeWrite: "Add and delete expenses and payments, create and join groups, add friends",
}

// Paths of the endpoints, under the issuer.
const (
	MetadataPath  = "/.well-known/oauth-authorization-server"
	AuthorizePath = "/authorize"
	TokenPath     = "/token"
	RevokePath    = "/revoke"
	RegisterPath  = "/register"
)

// Registration is the policy of dynamic client registration (RFC 7591).
type Registration int

const (
	// RegistrationOff: no registration endpoint; only clients the server knows otherwise.
	RegistrationOff Registration = iota
	// RegistrationOpen: any client may register redirect URIs that are https, http on a
	// loopback address (RFC 8252 section 7.3) or a private-use scheme (RFC 8252 section 7.1).
	RegistrationOpen
	// RegistrationAllowlist: as open, but every redirect URI must be one of
	// Options.AllowedRedirectURIs exactly.
	RegistrationAllowlist
)

// ParseRegistration reads a registration policy: "off", "open" or "allowlist".
func ParseRegistration(s string) (Registration, error) {
	switch s {
	case "off":
		return RegistrationOff, nil
	case "open":
		return RegistrationOpen, nil
	case "allowlist":
		return RegistrationAllowlist, nil
	}
	return 0, fmt.Errorf("registration policy %q: want off, open or allowlist", s)
}

// Lifetimes and limits, unless Options say otherwise.
const (
	DefaultAccessTTL  = time.Hour
	DefaultRefreshTTL = 30 * 24 * time.Hour
	codeTTL           = 5 * time.Minute // RFC 6749 4.1.2: "a maximum authorization code lifetime of 10 minutes is RECOMMENDED"
	// Sign-in lockout: after lockAfter wrong passwords in a row, the account refuses sign-in
	// for lockFor, whatever the password (OWASP authentication cheat sheet, "account lockout").
	lockAfter = 5
	lockFor   = 15 * time.Minute
)

// Options configures the authorization server.
type Options struct {
	// Issuer is the server's public origin (RFC 8414 section 2: https, no query or fragment;
	// http is accepted for local testing): the endpoints are under it.
	Issuer string
	// Resource is the protected resource the tokens are for (RFC 8707): the MCP endpoint's
	// public URL.
	Resource string
	// Registration is the policy of dynamic client registration; AllowedRedirectURIs the
	// allowlist of RegistrationAllowlist.
	Registration        Registration
	AllowedRedirectURIs []string
	// AccessTTL and RefreshTTL are the tokens' lifetimes (defaults DefaultAccessTTL and
	// DefaultRefreshTTL).
	AccessTTL, RefreshTTL time.Duration
	// ClientAddress names the client a request counts against for the limits below: behind
	// trusted reverse proxies, the client they name (clientaddr.Resolver.Key); the connection's
	// address when nil.
	ClientAddress func(*http.Request) string
	// SignInsPerMinute, TokensPerMinute, RegistrationsPerHour and MetadataFetchesPerMinute
	// (client metadata documents not kept, fetched for an authorization request) limit each
	// client address (defaults 10, 60, 10 and 30).
	SignInsPerMinute, TokensPerMinute, RegistrationsPerHour, MetadataFetchesPerMinute int
	// OIDC, when not nil, offers sign-in at an OpenID Connect provider beside the password
	// (oidc.go).
	OIDC *OIDC
	// MetadataClient fetches clients' metadata documents (cimd.go): tests set one that
	// reaches their own servers; nil is the client that reaches public addresses only.
	MetadataClient *http.Client
	// Now is the clock (time.Now when nil); Logger receives internal errors (slog.Default()
	// when nil).
	Now    func() time.Time
	Logger *slog.Logger
}

// Server is the authorization server. Its handler is safe for concurrent use.
type Server struct {
	st          *store.Store
	issuer      string
	resource    string
	policy      Registration
	allowed     []string
	accessTTL   time.Duration
	refreshTTL  time.Duration
	now         func() time.Time
	log         *slog.Logger
	formKey     []byte // keys the sign-in form's anti-forgery tokens (authorize.go), from the store
	signIns     *ratelimit.Memory
	tokens      *ratelimit.Memory
	registering *ratelimit.Memory
	fetches     *ratelimit.Memory // client metadata documents fetched for an address (cimd.go)
	cimd        *cimdCache
	client      func(*http.Request) string // the client of a request, for the limits
	oidc        *oidcProvider              // nil without OpenID Connect sign-in
	metadata    []byte
	// hashing holds a place for each password being checked: an Argon2id check takes about
	// 19 MiB (package password), so at most maxHashing run at once, whatever the traffic.
	hashing  chan struct{}
	hashWait time.Duration
}

// maxHashing is how many passwords are checked at once; a sign-in waits up to hashWait for a
// place, and is told to try again after that.
const (
	maxHashing = 4
	hashWait   = 3 * time.Second
)

// New returns the authorization server of st's users for o.Resource. Its key (of the sign-in
// form's anti-forgery tokens) is kept in st, the same for every replica and restart.
func New(ctx context.Context, st *store.Store, o Options) (*Server, error) {
	iss, err := url.Parse(o.Issuer)
	if err != nil || (iss.Scheme != "https" && iss.Scheme != "http") || iss.Host == "" ||
		strings.Trim(iss.Path, "/") != "" || iss.RawQuery != "" || iss.Fragment != "" || iss.User != nil {
		return nil, fmt.Errorf("issuer %q: want the server's public origin, such as https://expenses.example.com", o.Issuer)
	}
	if _, err := url.Parse(o.Resource); err != nil || o.Resource == "" {
		return nil, fmt.Errorf("resource %q: want the MCP endpoint's URL", o.Resource)
	}
	if o.Registration == RegistrationAllowlist && len(o.AllowedRedirectURIs) == 0 {
		return nil, errors.New("registration allowlist: no redirect URIs allowed")
	}
	for _, u := range o.AllowedRedirectURIs {
		if err := checkRedirectURI(u); err != nil {
			return nil, fmt.Errorf("allowed redirect URI: %w", err)
		}
	}
	s := &Server{st: st, issuer: iss.Scheme + "://" + iss.Host, resource: o.Resource, policy: o.Registration,
		allowed: slices.Clone(o.AllowedRedirectURIs), accessTTL: o.AccessTTL, refreshTTL: o.RefreshTTL,
		now: o.Now, log: o.Logger, hashing: make(chan struct{}, maxHashing),
		hashWait: hashWait}
	if s.formKey, err = st.ServerKey(ctx, "oauth-form", 32); err != nil {
		return nil, err
	}
	if s.client = o.ClientAddress; s.client == nil {
		s.client = connectionAddress
	}
	if s.accessTTL <= 0 {
		s.accessTTL = DefaultAccessTTL
	}
	if s.refreshTTL <= 0 {
		s.refreshTTL = DefaultRefreshTTL
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	perMinute := func(n, def int) int {
		if n <= 0 {
			return def
		}
		return n
	}
	s.signIns = ratelimit.NewMemory(perMinute(o.SignInsPerMinute, 10), time.Minute, s.now)
	s.tokens = ratelimit.NewMemory(perMinute(o.TokensPerMinute, 60), time.Minute, s.now)
	s.registering = ratelimit.NewMemory(perMinute(o.RegistrationsPerHour, 10), time.Hour, s.now)
	s.fetches = ratelimit.NewMemory(perMinute(o.MetadataFetchesPerMinute, 30), time.Minute, s.now)
	s.cimd = newCIMDCache(o.MetadataClient, s.now)
	if o.OIDC != nil {
		if s.oidc, err = checkOIDC(o.OIDC); err != nil {
			return nil, err
		}
	}
	s.metadata, err = json.MarshalIndent(s.metadataDocument(), "", "  ")
	if err != nil {
		return nil, err
	}
	s.metadata = append(s.metadata, '\n')
	return s, nil
}

// Issuer returns the issuer identifier, for the protected resource metadata's
// authorization_servers (RFC 9728 section 2).
func (s *Server) Issuer() string { return s.issuer }

// Routes are the paths Register serves.
func (s *Server) Routes() []string {
	r := []string{MetadataPath, AuthorizePath, TokenPath, RevokePath}
	if s.policy != RegistrationOff {
		r = append(r, RegisterPath)
	}
	if s.oidc != nil {
		r = append(r, CallbackPath)
	}
	return r
}

// apiCORS is the CORS policy of the endpoints a client's script calls (all but /authorize, which
// the browser navigates to): any origin, since browser-hosted MCP clients (the Inspector, web
// apps) run on origins of their own, and the headers the MCP SDKs send with them. None of them
// reads cookies, so letting any origin in gives a script nothing it could not do from a server.
var apiCORS = cors.New([]string{"Content-Type", "Authorization", "Mcp-Protocol-Version"}, nil, 24*time.Hour)

// Register adds the server's endpoints to mux.
func (s *Server) Register(mux *http.ServeMux) {
	mux.Handle(MetadataPath, apiCORS.Handler("GET, HEAD", http.HandlerFunc(s.serveMetadata)))
	mux.HandleFunc(AuthorizePath, s.serveAuthorize)
	mux.Handle(TokenPath, apiCORS.Handler(http.MethodPost, http.HandlerFunc(s.serveToken)))
	mux.Handle(RevokePath, apiCORS.Handler(http.MethodPost, http.HandlerFunc(s.serveRevoke)))
	if s.policy != RegistrationOff {
		mux.Handle(RegisterPath, apiCORS.Handler(http.MethodPost, http.HandlerFunc(s.serveRegister)))
	}
	if s.oidc != nil {
		mux.HandleFunc(CallbackPath, s.serveCallback)
	}
}

// metadata is the authorization server metadata (RFC 8414 section 2), with the fields the MCP
// authorization specification reads.
type metadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint,omitempty"`
	RevocationEndpoint                string   `json:"revocation_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	ResponseModesSupported            []string `json:"response_modes_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	RevocationEndpointAuthMethods     []string `json:"revocation_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	AuthorizationResponseIssParameter bool     `json:"authorization_response_iss_parameter_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	ServiceDocumentation              string   `json:"service_documentation,omitempty"`
	ProtectedResources                []string `json:"protected_resources,omitempty"`
}

func (s *Server) metadataDocument() *metadata {
	m := &metadata{
		Issuer:                            s.issuer,
		AuthorizationEndpoint:             s.issuer + AuthorizePath,
		TokenEndpoint:                     s.issuer + TokenPath,
		RevocationEndpoint:                s.issuer + RevokePath,
		ScopesSupported:                   Scopes,
		ResponseTypesSupported:            []string{"code"},
		ResponseModesSupported:            []string{"query"},
		GrantTypesSupported:               []string{"authorization_code", "refresh_token"},
		TokenEndpointAuthMethodsSupported: []string{"none"},
		RevocationEndpointAuthMethods:     []string{"none"},
		CodeChallengeMethodsSupported:     []string{"S256"},
		AuthorizationResponseIssParameter: true, // RFC 9207
		ClientIDMetadataDocumentSupported: true,
		ProtectedResources:                []string{s.resource},
	}
	if s.policy != RegistrationOff {
		m.RegistrationEndpoint = s.issuer + RegisterPath
	}
	return m
}

// serveMetadata answers GET and HEAD with the metadata (RFC 8414 section 3).
func (s *Server) serveMetadata(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	if r.Method == http.MethodGet {
		w.Write(s.metadata)
	}
}

// newSecret returns a new code or token: prefix, then 32 random bytes in base64url. The
// prefixes tell tokens apart at a glance (and to secret scanners): the server never needs them
// to look a token up.
func newSecret(prefix string) string {
	var b [32]byte
	rand.Read(b[:])
	return prefix + base64.RawURLEncoding.EncodeToString(b[:])
}

// Prefixes of the secrets this server issues.
const (
	prefixCode    = "bqc_"
	prefixAccess  = "bqa_"
	prefixRefresh = "bqr_"
)

// IsAccessToken reports whether token has the form of an access token of this server (as
// opposed to a static token of "bananaqr expenses token").
func IsAccessToken(token string) bool { return strings.HasPrefix(token, prefixAccess) }

// connectionAddress is the address rate limits count a request against unless
// Options.ClientAddress says otherwise: the connection's host.
func connectionAddress(r *http.Request) string {
	host := r.RemoteAddr
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	return strings.Trim(host, "[]")
}

// noStore sets the headers of every answer that carries a secret (RFC 6749 5.1).
func noStore(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
}

// writeJSON writes v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// oauthError is an error response of the token, revocation and registration endpoints (RFC
// 6749 5.2, RFC 7591 3.2.2).
type oauthError struct {
	Code        string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

// writeError writes an OAuth error response: 400, or 401 for invalid_client (RFC 6749 5.2),
// 429 when rate limited, 503 for temporarily_unavailable.
func writeError(w http.ResponseWriter, code, description string) {
	status := http.StatusBadRequest
	switch code {
	case "invalid_client":
		status = http.StatusUnauthorized
	case "slow_down":
		status = http.StatusTooManyRequests
	case "temporarily_unavailable", "server_error":
		status = http.StatusServiceUnavailable
	}
	noStore(w)
	writeJSON(w, status, oauthError{code, description})
}

// acceptPost lets a request to an endpoint that takes POST only go on (true): of that method,
// within limit for its address, its body cut at maxBody bytes; otherwise it answers it (405 or
// 429) and returns false.
func (s *Server) acceptPost(w http.ResponseWriter, r *http.Request, limit *ratelimit.Memory, maxBody int64) bool {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return false
	}
	if d, _ := limit.Allow(r.Context(), s.client(r)); limited(w, d) {
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	return true
}

// limited answers 429 with Retry-After when d refuses the request.
func limited(w http.ResponseWriter, d ratelimit.Decision) bool {
	if d.Allowed {
		return false
	}
	w.Header().Set("Retry-After", retryAfter(d.RetryAfter))
	writeError(w, "slow_down", "too many requests from this address; retry later")
	return true
}

// Housekeep deletes the codes and tokens that expired, every interval, until ctx is done: they
// are refused anyway (the store keeps them until then so that reuse of a spent one is still
// recognised while it could be used).
func (s *Server) Housekeep(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := s.st.DeleteExpiredOAuth(ctx, s.now()); err != nil && ctx.Err() == nil {
				s.log.WarnContext(ctx, "deleting expired OAuth codes and tokens failed", "error", err.Error())
			}
		}
	}
}

// retryAfter formats a Retry-After value: whole seconds, at least 1.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(max(1, int((d+time.Second-1)/time.Second)))
}
