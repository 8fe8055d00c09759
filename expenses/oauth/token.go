package oauth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/expenses/store"
)

// hashSecret returns the SHA-256 hash under which a code or token is stored.
func hashSecret(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// verifierPattern is a PKCE code verifier (RFC 7636 4.1): 43 to 128 unreserved characters.
var verifierPattern = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// pkceMatches reports whether verifier hashes to challenge by S256 (RFC 7636 4.6).
func pkceMatches(verifier, challenge string) bool {
	if !verifierPattern.MatchString(verifier) {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	got := base64.RawURLEncoding.EncodeToString(sum[:])
	return subtle.ConstantTimeCompare([]byte(got), []byte(challenge)) == 1
}

// tokenResponse is a successful access token response (RFC 6749 5.1).
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// serveToken is the token endpoint (RFC 6749 3.2): the authorization_code and refresh_token
// grants, for public clients, which name themselves by client_id.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	if !s.acceptPost(w, r, s.tokens, 16<<10) {
		return
	}
	if err := r.ParseForm(); err != nil || len(r.PostForm) == 0 {
		writeError(w, "invalid_request", "send the parameters as application/x-www-form-urlencoded")
		return
	}
	if _, _, ok := r.BasicAuth(); ok {
		writeError(w, "invalid_client", "this server's clients are public: send client_id, no client secret")
		return
	}
	q := r.PostForm
	if res := q["resource"]; len(res) > 1 || len(res) == 1 && res[0] != s.resource {
		writeError(w, "invalid_target", "this server issues tokens for "+s.resource+" only")
		return
	}
	var (
		resp *tokenResponse
		code string
		msg  string
		err  error
	)
	switch q.Get("grant_type") {
	case "authorization_code":
		resp, code, msg, err = s.exchangeCode(r.Context(), q.Get("code"), q.Get("client_id"), q.Get("redirect_uri"), q.Get("code_verifier"))
	case "refresh_token":
		resp, code, msg, err = s.refresh(r.Context(), q.Get("refresh_token"), q.Get("client_id"), q.Get("scope"))
	case "":
		code, msg = "invalid_request", "grant_type is missing"
	default:
		code, msg = "unsupported_grant_type", "grant_type must be authorization_code or refresh_token"
	}
	if err != nil {
		s.log.ErrorContext(r.Context(), "token request failed", "error", err.Error())
		writeError(w, "server_error", "try again later")
		return
	}
	if code != "" {
		writeError(w, code, msg)
		return
	}
	noStore(w)
	writeJSON(w, http.StatusOK, resp)
}

// exchangeCode redeems an authorization code (RFC 6749 4.1.3, RFC 7636 4.5-4.6): the code is
// consumed whatever follows, so that it is good for one try; a code used twice revokes the
// tokens issued from it (the store does).
func (s *Server) exchangeCode(ctx context.Context, code, clientID, redirectURI, verifier string) (*tokenResponse, string, string, error) {
	if code == "" || clientID == "" {
		return nil, "invalid_request", "code and client_id are required", nil
	}
	c, err := s.st.ConsumeAuthCode(ctx, hashSecret(code))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, "invalid_grant", "unknown authorization code", nil
	case errors.Is(err, store.ErrConflict):
		return nil, "invalid_grant", "the authorization code was used already; the tokens issued from it are revoked", nil
	case err != nil:
		return nil, "", "", err
	}
	switch {
	case !s.now().Before(c.ExpiresAt):
		return nil, "invalid_grant", "the authorization code expired", nil
	case c.ClientID != clientID:
		return nil, "invalid_grant", "the authorization code was issued to another client", nil
	case c.RedirectURI != redirectURI:
		return nil, "invalid_grant", "redirect_uri differs from the authorization request's", nil
	case !pkceMatches(verifier, c.Challenge):
		return nil, "invalid_grant", "code_verifier does not match the code_challenge", nil
	}
	resp, toks := s.newTokens(store.CodeFamily(hashSecret(code)), c.ClientID, c.UserID, c.Scope, c.Resource)
	err = s.st.SaveOAuthTokens(ctx, toks...)
	switch {
	case errors.Is(err, store.ErrConflict): // the code was replayed meanwhile, and its grant revoked
		return nil, "invalid_grant", "the authorization code was used already; the tokens issued from it are revoked", nil
	case err != nil:
		return nil, "", "", err
	}
	return resp, "", "", nil
}

// refresh uses a refresh token (RFC 6749 6): the old one is rotated out (OAuth 2.1 4.3.1), and a
// reused one revokes its family (the store does). scope, when given, may narrow the grant.
func (s *Server) refresh(ctx context.Context, token, clientID, scope string) (*tokenResponse, string, string, error) {
	if token == "" || clientID == "" {
		return nil, "invalid_request", "refresh_token and client_id are required", nil
	}
	h := hashSecret(token)
	old, _, err := s.st.OAuthTokenByHash(ctx, h)
	if errors.Is(err, store.ErrNotFound) {
		// Unknown, revoked, or used already: rotating it again tells reuse apart, and revokes.
		_, err = s.st.RotateRefreshToken(ctx, h)
		return s.refused(err)
	}
	switch {
	case err != nil:
		return nil, "", "", err
	case old.Kind != store.TokenRefresh || old.ClientID != clientID:
		return nil, "invalid_grant", "unknown refresh token", nil
	case !s.now().Before(old.ExpiresAt):
		return nil, "invalid_grant", "the refresh token expired; sign in again", nil
	}
	granted := old.Scope
	if scope != "" {
		asked, ok := parseScope(scope)
		had := strings.Fields(old.Scope)
		if !ok || slices.ContainsFunc(asked, func(sc string) bool { return !slices.Contains(had, sc) }) {
			return nil, "invalid_scope", "a refresh may only keep or narrow the scopes granted", nil
		}
		granted = strings.Join(asked, " ")
	}
	resp, toks := s.newTokens(old.Family, clientID, old.UserID, granted, old.Resource)
	if _, err := s.st.RotateRefreshToken(ctx, h, toks...); err != nil {
		return s.refused(err)
	}
	return resp, "", "", nil
}

// refused maps the store's refusal of a refresh token to the token endpoint's error.
func (s *Server) refused(err error) (*tokenResponse, string, string, error) {
	switch {
	case errors.Is(err, store.ErrConflict):
		return nil, "invalid_grant", "the refresh token was used already; every token of this sign-in is revoked", nil
	case err == nil, errors.Is(err, store.ErrNotFound):
		return nil, "invalid_grant", "unknown refresh token", nil
	}
	return nil, "", "", err
}

// newTokens makes an access token and a refresh token of one family.
func (s *Server) newTokens(family, clientID, userID, scope, resource string) (*tokenResponse, []store.OAuthToken) {
	now := s.now()
	access, refresh := newSecret(prefixAccess), newSecret(prefixRefresh)
	toks := []store.OAuthToken{
		{Hash: hashSecret(access), Kind: store.TokenAccess, Family: family, ClientID: clientID, UserID: userID,
			Scope: scope, Resource: resource, ExpiresAt: now.Add(s.accessTTL)},
		{Hash: hashSecret(refresh), Kind: store.TokenRefresh, Family: family, ClientID: clientID, UserID: userID,
			Scope: scope, Resource: resource, ExpiresAt: now.Add(s.refreshTTL)},
	}
	return &tokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int64(s.accessTTL / time.Second),
		RefreshToken: refresh, Scope: scope}, toks
}

// serveRevoke is the revocation endpoint (RFC 7009 2): it revokes the token's whole grant when
// the token was issued to the client that asks, and answers 200 whatever the token was (2.2).
func (s *Server) serveRevoke(w http.ResponseWriter, r *http.Request) {
	if !s.acceptPost(w, r, s.tokens, 16<<10) {
		return
	}
	if err := r.ParseForm(); err != nil || r.PostForm.Get("token") == "" {
		writeError(w, "invalid_request", "send token (and client_id) as application/x-www-form-urlencoded")
		return
	}
	hash := hashSecret(r.PostForm.Get("token"))
	t, _, err := s.st.OAuthTokenByHash(r.Context(), hash)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		s.log.ErrorContext(r.Context(), "revocation failed", "error", err.Error())
		writeError(w, "server_error", "try again later")
		return
	case t.ClientID != r.PostForm.Get("client_id"):
		// RFC 7009 2.1: the token was not issued to this client; nothing is revoked.
	default:
		if _, err := s.st.RevokeOAuthToken(r.Context(), hash); err != nil && !errors.Is(err, store.ErrNotFound) {
			s.log.ErrorContext(r.Context(), "revocation failed", "error", err.Error())
			writeError(w, "server_error", "try again later")
			return
		}
	}
	noStore(w)
	w.WriteHeader(http.StatusOK)
}

// Grant is what a valid access token allows: its user and scopes.
type Grant struct {
	User   store.User
	Scopes []string
}

// Allows reports whether the grant includes scope.
func (g Grant) Allows(scope string) bool { return slices.Contains(g.Scopes, scope) }

// ErrInvalidToken: the access token is unknown, revoked, expired or for another resource.
var ErrInvalidToken = errors.New("invalid access token")

// Verify returns the grant of an access token issued by this server for its resource (RFC 8707:
// a token of another resource is refused), or ErrInvalidToken; other errors are the store's.
func (s *Server) Verify(ctx context.Context, token string) (Grant, error) {
	if !IsAccessToken(token) {
		return Grant{}, ErrInvalidToken
	}
	t, u, err := s.st.OAuthTokenByHash(ctx, hashSecret(token))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return Grant{}, ErrInvalidToken
	case err != nil:
		return Grant{}, err
	case t.Kind != store.TokenAccess || t.Resource != s.resource || !s.now().Before(t.ExpiresAt):
		return Grant{}, ErrInvalidToken
	}
	return Grant{User: u, Scopes: strings.Fields(t.Scope)}, nil
}
