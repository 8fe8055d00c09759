package oauth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bananaqr/bananaqr/expenses/store"
)

// Sign-in delegated to an external OpenID Connect provider (OpenID Connect Core 1.0, the
// authorization code flow, section 3.1), when configured: the page offers "Sign in with …"
// beside the password; the person signs in there, and the provider's ID token names the local
// user by a claim the operator chose. The user must exist here (the provider proves who the
// person is; the operator decides who may use this server).
//
// This server is the provider's confidential client (client_secret_basic, and PKCE too). The
// ID token comes straight from the provider's token endpoint over TLS, so its issuer is
// established by TLS, as Core 3.1.3.7 (item 6) allows, and its signature is not checked; its
// iss, aud, azp, exp and nonce are. Between leaving and coming back, the authorization request
// and the person's consent travel in a cookie signed with the server's key, bound to the
// provider's state parameter.

// OIDC configures sign-in through an OpenID Connect provider.
type OIDC struct {
	// Issuer is the provider's issuer identifier: https (http only on a loopback address, for
	// testing); its discovery document is at Issuer + "/.well-known/openid-configuration".
	Issuer string
	// ClientID and ClientSecret are this server's registration at the provider, whose redirect
	// URI is this server's origin + CallbackPath.
	ClientID, ClientSecret string
	// UsernameClaim is the ID token's claim whose value is the local user's name
	// ("preferred_username" when empty). Choose one the provider controls, not one its users
	// may set to anything.
	UsernameClaim string
	// Name is the provider's name on the page's button (the issuer's host when empty).
	Name string
	// HTTPClient reaches the provider (a client with a 10 s timeout when nil).
	HTTPClient *http.Client
}

// CallbackPath is where the provider sends the person back.
const CallbackPath = "/oidc/callback"

// oidcTTL is how long a person may take at the provider.
const oidcTTL = 10 * time.Minute

// oidcProvider is the provider as this server uses it: its configuration and, once fetched,
// its discovery document (OpenID Connect Discovery 1.0 section 3).
type oidcProvider struct {
	OIDC
	mu            sync.Mutex
	authorization string // authorization_endpoint
	token         string // token_endpoint
}

// checkOIDC checks o and returns the provider.
func checkOIDC(o *OIDC) (*oidcProvider, error) {
	u, err := url.Parse(o.Issuer)
	if err != nil || u.Host == "" || (u.Scheme != "https" && !(u.Scheme == "http" && isLoopback(u.Hostname()))) {
		return nil, fmt.Errorf("OpenID Connect issuer %q: want an https URL", o.Issuer)
	}
	if o.ClientID == "" || o.ClientSecret == "" {
		return nil, errors.New("OpenID Connect: a client ID and a client secret are needed")
	}
	p := &oidcProvider{OIDC: *o}
	if p.UsernameClaim == "" {
		p.UsernameClaim = "preferred_username"
	}
	if p.Name == "" {
		p.Name = u.Host
	}
	if p.HTTPClient == nil {
		p.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	return p, nil
}

// endpoints returns the provider's authorization and token endpoints, fetching its discovery
// document the first time (again after a failure).
func (p *oidcProvider) endpoints(ctx context.Context) (authorization, token string, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.authorization != "" {
		return p.authorization, p.token, nil
	}
	var doc struct {
		Issuer                string `json:"issuer"`
		AuthorizationEndpoint string `json:"authorization_endpoint"`
		TokenEndpoint         string `json:"token_endpoint"`
	}
	if err := p.getJSON(ctx, strings.TrimSuffix(p.Issuer, "/")+"/.well-known/openid-configuration", &doc); err != nil {
		return "", "", err
	}
	if doc.Issuer != p.Issuer || doc.AuthorizationEndpoint == "" || doc.TokenEndpoint == "" {
		return "", "", fmt.Errorf("the OpenID Connect discovery document of %s names issuer %q or lacks endpoints", p.Issuer, doc.Issuer)
	}
	p.authorization, p.token = doc.AuthorizationEndpoint, doc.TokenEndpoint
	return p.authorization, p.token, nil
}

// getJSON reads the JSON document at u into v.
func (p *oidcProvider) getJSON(ctx context.Context, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	res, err := p.HTTPClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %d", u, res.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(res.Body, 64<<10)).Decode(v)
}

// pendingSignIn is what travels in the cookie while the person is at the provider.
type pendingSignIn struct {
	ClientID    string   `json:"c"`
	RedirectURI string   `json:"r"`
	Challenge   string   `json:"x"`
	State       string   `json:"s"`
	Scopes      []string `json:"g"`
	Resource    string   `json:"a"`
	Verifier    string   `json:"v"` // PKCE verifier of the request to the provider
	Nonce       string   `json:"n"`
	Expires     int64    `json:"e"`
}

// oidcCookieName is the cookie's name for this issuer (see cookieName).
func (s *Server) oidcCookieName() string { return strings.Replace(s.cookieName(), "oauth", "oidc", 1) }

// sign returns the HMAC of data with the server's key, for purpose.
func (s *Server) sign(purpose string, data []byte) []byte {
	m := hmac.New(sha256.New, s.formKey)
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write(data)
	return m.Sum(nil)
}

// startOIDC sends the person to the provider, the request a and the scopes granted kept in a
// signed cookie.
func (s *Server) startOIDC(w http.ResponseWriter, r *http.Request, a *authRequest, granted []string) {
	authorization, _, err := s.oidc.endpoints(r.Context())
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	p := pendingSignIn{ClientID: a.client.id, RedirectURI: a.redirectURI, Challenge: a.challenge, State: a.state,
		Scopes: granted, Resource: a.resource, Verifier: rand.Text() + rand.Text(), Nonce: rand.Text(),
		Expires: s.now().Add(oidcTTL).Unix()}
	payload, _ := json.Marshal(&p)
	value := base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(s.sign("oidc-cookie", payload))
	http.SetCookie(w, &http.Cookie{Name: s.oidcCookieName(), Value: value, Path: CallbackPath, MaxAge: int(oidcTTL.Seconds()),
		HttpOnly: true, Secure: strings.HasPrefix(s.issuer, "https://"), SameSite: http.SameSiteLaxMode})
	sum := sha256.Sum256([]byte(p.Verifier))
	q := url.Values{"response_type": {"code"}, "client_id": {s.oidc.ClientID}, "redirect_uri": {s.issuer + CallbackPath},
		"scope": {"openid profile email"}, "state": {s.oidcState(payload)}, "nonce": {p.Nonce},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"}}
	to := authorization + "?" + q.Encode()
	if strings.Contains(authorization, "?") {
		to = authorization + "&" + q.Encode()
	}
	noStore(w)
	w.Header().Set("Location", to)
	w.WriteHeader(http.StatusSeeOther)
}

// oidcState is the state parameter sent to the provider: bound to the cookie's payload.
func (s *Server) oidcState(payload []byte) string {
	return base64.RawURLEncoding.EncodeToString(s.sign("oidc-state", payload)[:16])
}

// pending reads and checks the cookie of a callback whose state parameter is state.
func (s *Server) pending(r *http.Request, state string) (pendingSignIn, bool) {
	var p pendingSignIn
	c, err := r.Cookie(s.oidcCookieName())
	if err != nil {
		return p, false
	}
	enc, mac, ok := strings.Cut(c.Value, ".")
	payload, err1 := base64.RawURLEncoding.DecodeString(enc)
	sig, err2 := base64.RawURLEncoding.DecodeString(mac)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(sig, s.sign("oidc-cookie", payload)) ||
		!hmac.Equal([]byte(state), []byte(s.oidcState(payload))) || json.Unmarshal(payload, &p) != nil {
		return p, false
	}
	return p, s.now().Unix() < p.Expires
}

// serveCallback is where the provider sends the person back (Core 3.1.2.5): the code is
// exchanged, the ID token checked, its user found here, and the client given its code.
func (s *Server) serveCallback(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	q := r.URL.Query()
	p, ok := s.pending(r, q.Get("state"))
	if !ok {
		s.render(w, http.StatusBadRequest, pageData{Error: "This sign-in expired or did not start here."}, "")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.oidcCookieName(), Path: CallbackPath, MaxAge: -1, HttpOnly: true,
		Secure: strings.HasPrefix(s.issuer, "https://"), SameSite: http.SameSiteLaxMode})
	a := &authRequest{client: client{id: p.ClientID}, redirectURI: p.RedirectURI, challenge: p.Challenge,
		state: p.State, scopes: p.Scopes, resource: p.Resource}
	if e := q.Get("error"); e != "" || q.Get("code") == "" {
		s.redirect(w, r, a, url.Values{"error": {"access_denied"}, "error_description": {"the sign-in at " + s.oidc.Name + " did not complete"}})
		return
	}
	name, err := s.oidcUsername(r.Context(), q.Get("code"), &p)
	if err != nil {
		s.log.WarnContext(r.Context(), "OpenID Connect sign-in failed", "error", err.Error())
		s.render(w, http.StatusBadGateway, pageData{Error: "The sign-in at " + s.oidc.Name + " could not be checked; try again."}, "")
		return
	}
	si, err := s.st.SignInByName(r.Context(), name)
	if errors.Is(err, store.ErrNotFound) {
		s.render(w, http.StatusForbidden, pageData{Error: "You signed in at " + s.oidc.Name + " as " + name +
			", but this server has no user of that name; ask its operator."}, "")
		return
	}
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	s.issueCode(w, r, a, si.User, p.Scopes)
}

// oidcUsername exchanges the provider's code (Core 3.1.3) and returns the user name that its
// ID token's claim gives, after checking the token (Core 3.1.3.7).
func (s *Server) oidcUsername(ctx context.Context, code string, p *pendingSignIn) (string, error) {
	_, tokenURL, err := s.oidc.endpoints(ctx)
	if err != nil {
		return "", err
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {s.issuer + CallbackPath},
		"code_verifier": {p.Verifier}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, tokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(s.oidc.ClientID), url.QueryEscape(s.oidc.ClientSecret)) // RFC 6749 2.3.1
	res, err := s.oidc.HTTPClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var tok struct {
		IDToken string `json:"id_token"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 64<<10)).Decode(&tok); err != nil || res.StatusCode != http.StatusOK || tok.IDToken == "" {
		return "", fmt.Errorf("the provider's token endpoint answered %d without an ID token", res.StatusCode)
	}
	claims, err := idTokenClaims(tok.IDToken)
	if err != nil {
		return "", err
	}
	if err := s.checkIDToken(claims, p.Nonce); err != nil {
		return "", err
	}
	name, _ := claims[s.oidc.UsernameClaim].(string)
	if strings.TrimSpace(name) == "" {
		return "", fmt.Errorf("the ID token has no %s claim", s.oidc.UsernameClaim)
	}
	return name, nil
}

// idTokenClaims returns the claims of a JWT's payload (RFC 7519 7.2, steps 1 to 7 but the
// signature, which TLS stands in for here).
func idTokenClaims(jwt string) (map[string]any, error) {
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		return nil, errors.New("the ID token is not a JWS in compact form")
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return nil, errors.New("the ID token's payload is not base64url")
	}
	var claims map[string]any
	if err := json.Unmarshal(payload, &claims); err != nil {
		return nil, errors.New("the ID token's payload is not a JSON object")
	}
	return claims, nil
}

// checkIDToken checks an ID token's claims (Core 3.1.3.7, items 2, 3, 4, 5, 9 and 11).
func (s *Server) checkIDToken(claims map[string]any, nonce string) error {
	if iss, _ := claims["iss"].(string); iss != s.oidc.Issuer {
		return fmt.Errorf("the ID token's issuer is %q", iss)
	}
	var aud []string
	switch v := claims["aud"].(type) {
	case string:
		aud = []string{v}
	case []any:
		for _, x := range v {
			if a, ok := x.(string); ok {
				aud = append(aud, a)
			}
		}
	}
	if !slices.Contains(aud, s.oidc.ClientID) {
		return errors.New("the ID token is not for this server")
	}
	if azp, ok := claims["azp"].(string); (len(aud) > 1 || ok) && azp != s.oidc.ClientID {
		return errors.New("the ID token was issued to another party (azp)")
	}
	exp, _ := claims["exp"].(float64)
	if !s.now().Before(time.Unix(int64(exp), 0)) {
		return errors.New("the ID token expired")
	}
	if n, _ := claims["nonce"].(string); !hmac.Equal([]byte(n), []byte(nonce)) {
		return errors.New("the ID token's nonce is not this sign-in's")
	}
	return nil
}
