package oauth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/expenses/password"
	"github.com/bananaqr/bananaqr/expenses/store"
)

// authRequest is an authorization request (RFC 6749 4.1.1, RFC 7636 4.3, RFC 8707 2), checked.
type authRequest struct {
	client      client
	redirectURI string
	challenge   string
	state       string
	scopes      []string // asked for (all when none were named)
	resource    string
}

// challengePattern is an S256 code challenge: BASE64URL(SHA256(verifier)), 43 characters
// (RFC 7636 4.2).
var challengePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// errorPage is a problem with an authorization request that must not be sent to its redirect
// URI, because the client or the URI cannot be trusted (RFC 6749 4.1.2.1, OAuth 2.1 4.1.2.1):
// it is shown to the person instead.
type errorPage struct{ message string }

// redirectError is a problem with an authorization request that the client learns at its
// redirect URI (RFC 6749 4.1.2.1).
type redirectError struct{ code, description string }

// parseAuthRequest checks the authorization request of the parameters q.
func (s *Server) parseAuthRequest(r *http.Request, q url.Values) (authRequest, *errorPage, *redirectError, error) {
	var a authRequest
	c, err := s.lookupClient(r, q.Get("client_id"))
	if errors.Is(err, errUnknownClient) {
		return a, &errorPage{"The application that sent you here is not registered with this server (unknown client_id)."}, nil, nil
	}
	if errors.Is(err, errTooManyFetches) {
		return a, &errorPage{"Too many sign-ins from your network with applications this server has not seen; try again in a minute."}, nil, nil
	}
	if err != nil {
		return a, nil, nil, err
	}
	a.client = c
	a.redirectURI = q.Get("redirect_uri")
	if a.redirectURI == "" || !c.redirectMatches(a.redirectURI) {
		return a, &errorPage{"The application sent a redirect_uri it did not register; for your safety you are not sent back to it."}, nil, nil
	}
	a.state = q.Get("state")
	if q.Get("response_type") != "code" {
		return a, nil, &redirectError{"unsupported_response_type", "response_type must be code"}, nil
	}
	a.challenge = q.Get("code_challenge")
	if m := q.Get("code_challenge_method"); m != "S256" || !challengePattern.MatchString(a.challenge) {
		return a, nil, &redirectError{"invalid_request", "PKCE is required: code_challenge (43 characters of base64url) with code_challenge_method S256"}, nil
	}
	scopes, ok := parseScope(q.Get("scope"))
	if !ok {
		return a, nil, &redirectError{"invalid_scope", "known scopes are " + strings.Join(Scopes, " ")}, nil
	}
	a.scopes = scopes
	a.resource = s.resource
	if res := q["resource"]; len(res) > 1 || len(res) == 1 && res[0] != s.resource {
		return a, nil, &redirectError{"invalid_target", "this server issues tokens for " + s.resource + " only"}, nil
	}
	return a, nil, nil, nil
}

// redirect sends the browser to the request's redirect URI with params, the state and the
// issuer (RFC 9207) added, with 303 See Other so that a POST becomes a GET.
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, a *authRequest, params url.Values) {
	if a.state != "" {
		params.Set("state", a.state)
	}
	params.Set("iss", s.issuer)
	to := a.redirectURI
	if strings.Contains(to, "?") {
		to += "&" + params.Encode()
	} else {
		to += "?" + params.Encode()
	}
	noStore(w)
	w.Header().Set("Location", to)
	w.WriteHeader(http.StatusSeeOther)
}

// serveAuthorize shows the sign-in and consent page (GET) and handles its form (POST).
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		s.showAuthorize(w, r)
	case http.MethodPost:
		s.postAuthorize(w, r)
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// showAuthorize checks the request and shows the page.
func (s *Server) showAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a, page, rerr, err := s.parseAuthRequest(r, q)
	switch {
	case err != nil:
		s.internalError(w, r, err)
	case page != nil:
		s.render(w, http.StatusBadRequest, pageData{Error: page.message}, "")
	case rerr != nil:
		s.redirect(w, r, &a, url.Values{"error": {rerr.code}, "error_description": {rerr.description}})
	default:
		s.renderForm(w, r, &a, q, "", http.StatusOK)
	}
}

// postAuthorize handles the form: the person's decision, their name and password.
func (s *Server) postAuthorize(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		s.render(w, http.StatusBadRequest, pageData{Error: "The form could not be read."}, "")
		return
	}
	q := r.PostForm
	a, page, rerr, err := s.parseAuthRequest(r, q)
	switch {
	case err != nil:
		s.internalError(w, r, err)
		return
	case page != nil:
		s.render(w, http.StatusBadRequest, pageData{Error: page.message}, "")
		return
	case rerr != nil:
		s.redirect(w, r, &a, url.Values{"error": {rerr.code}, "error_description": {rerr.description}})
		return
	}
	if !s.formTokenValid(r, &a, q.Get("form_token")) {
		s.renderForm(w, r, &a, q, "This form expired or was not sent from this page; check the details and try again.", http.StatusBadRequest)
		return
	}
	decision := q.Get("decision")
	if decision != "allow" && (decision != "oidc" || s.oidc == nil) {
		s.redirect(w, r, &a, url.Values{"error": {"access_denied"}, "error_description": {"the person declined"}})
		return
	}
	granted := slices.DeleteFunc(slices.Clone(a.scopes), func(sc string) bool { return !slices.Contains(q["grant"], sc) })
	if len(granted) == 0 {
		s.renderForm(w, r, &a, q, "Choose at least one of the permissions, or press Deny.", http.StatusBadRequest)
		return
	}
	if decision == "oidc" {
		s.startOIDC(w, r, &a, granted)
		return
	}
	if d, _ := s.signIns.Allow(r.Context(), s.client(r)); !d.Allowed {
		w.Header().Set("Retry-After", retryAfter(d.RetryAfter))
		s.renderForm(w, r, &a, q, "Too many sign-in attempts from your network; wait a minute and try again.", http.StatusTooManyRequests)
		return
	}
	user, msg, err := s.signIn(r, q.Get("username"), q.Get("password"))
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	if msg != "" {
		s.renderForm(w, r, &a, q, msg, http.StatusUnauthorized)
		return
	}
	s.issueCode(w, r, &a, user, granted)
}

// issueCode gives the client of a, for user, an authorization code of the scopes granted, at
// its redirect URI.
func (s *Server) issueCode(w http.ResponseWriter, r *http.Request, a *authRequest, user store.User, granted []string) {
	code := newSecret(prefixCode)
	err := s.st.SaveAuthCode(r.Context(), store.AuthCode{Hash: hashSecret(code), ClientID: a.client.id, UserID: user.ID,
		RedirectURI: a.redirectURI, Challenge: a.challenge, Scope: strings.Join(granted, " "), Resource: a.resource,
		ExpiresAt: s.now().Add(codeTTL)})
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	s.redirect(w, r, a, url.Values{"code": {code}})
}

// signIn checks a name and password. It returns the user, or the message to show when they
// do not sign in: the same for an unknown name, a user without a password and a wrong password
// (and, by VerifyDummy, in about the same time), so that the page does not tell which names
// exist; a locked account says so only after a right password.
func (s *Server) signIn(r *http.Request, name, pw string) (store.User, string, error) {
	const wrong = "The name or password is not right."
	ctx := r.Context()
	wait, cancel := context.WithTimeout(ctx, s.hashWait)
	defer cancel()
	select {
	case s.hashing <- struct{}{}:
		defer func() { <-s.hashing }()
	case <-wait.Done():
		return store.User{}, "This server is busy signing people in; try again in a moment.", nil
	}
	si, err := s.st.SignInByName(ctx, strings.TrimSpace(name))
	if errors.Is(err, store.ErrNotFound) || err == nil && si.Hash == "" {
		password.VerifyDummy(pw)
		return store.User{}, wrong, nil
	}
	if err != nil {
		return store.User{}, "", err
	}
	ok, err := password.Verify(si.Hash, pw)
	if err != nil {
		return store.User{}, "", err
	}
	now := s.now()
	if now.Before(si.LockedUntil) {
		return store.User{}, "Too many wrong passwords: this account is locked until " +
			si.LockedUntil.UTC().Format("15:04 UTC") + ".", nil
	}
	if !ok {
		if _, err := s.st.RecordSignInFailure(ctx, si.User.ID, lockAfter, now.Add(lockFor)); err != nil {
			return store.User{}, "", err
		}
		return store.User{}, wrong, nil
	}
	if si.Failures > 0 {
		if err := s.st.ClearSignInFailures(ctx, si.User.ID); err != nil {
			return store.User{}, "", err
		}
	}
	return si.User, "", nil
}

// The anti-forgery token of the form (OWASP CSRF prevention, "signed double-submit cookie"): a
// random value in a cookie, and in the form an HMAC of it with the request it belongs to. A
// page on another site can make a browser post the form, but cannot read the cookie to sign it.
const (
	formCookie       = "__Host-bananaqr-oauth"
	formCookieInsecu = "bananaqr-oauth" // over http (local testing), where __Host- cookies are refused
	formTTL          = 30 * time.Minute
)

// cookieName returns the form cookie's name for this issuer.
func (s *Server) cookieName() string {
	if strings.HasPrefix(s.issuer, "https://") {
		return formCookie
	}
	return formCookieInsecu
}

// formToken returns the form's token for cookie value v and request a.
func (s *Server) formToken(v string, a *authRequest) string {
	m := hmac.New(sha256.New, s.formKey)
	for _, part := range []string{v, a.client.id, a.redirectURI, a.challenge, a.state} {
		m.Write([]byte(part))
		m.Write([]byte{0})
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// formTokenValid reports whether token signs the request's cookie and a.
func (s *Server) formTokenValid(r *http.Request, a *authRequest, token string) bool {
	c, err := r.Cookie(s.cookieName())
	if err != nil || c.Value == "" {
		return false
	}
	return hmac.Equal([]byte(token), []byte(s.formToken(c.Value, a)))
}

// formCookieValue returns the request's cookie value, or sets a new one.
func (s *Server) formCookieValue(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(s.cookieName()); err == nil && len(c.Value) >= 20 {
		return c.Value
	}
	v := rand.Text()
	http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: v, Path: "/", MaxAge: int(formTTL.Seconds()),
		HttpOnly: true, Secure: strings.HasPrefix(s.issuer, "https://"), SameSite: http.SameSiteLaxMode})
	return v
}

// pageData fills the page's template.
type pageData struct {
	Error       string
	ClientName  string
	ClientID    string
	ClientSite  string // the host of a client named by its metadata document's URL
	RedirectTo  string // the host (or scheme) the person is sent back to
	Scopes      []scopeChoice
	Username    string
	Hidden      map[string]string // the request's parameters, carried through the form
	FormToken   string
	OIDCName    string // the OpenID Connect provider's name, when sign-in there is offered
	Issuer      string
	ResourceURL string
}

// scopeChoice is one permission on the page.
type scopeChoice struct {
	Name, Text string
	Checked    bool
}

// renderForm shows the sign-in and consent form for a, with msg as its error when not "".
func (s *Server) renderForm(w http.ResponseWriter, r *http.Request, a *authRequest, q url.Values, msg string, status int) {
	d := pageData{Error: msg, ClientName: a.client.name, ClientID: a.client.id, Issuer: s.issuer,
		ResourceURL: a.resource, Username: q.Get("username"), Hidden: map[string]string{}}
	if d.ClientName == "" {
		d.ClientName = "An unnamed application"
	}
	if u, err := url.Parse(a.client.id); err == nil && a.client.metadataURL {
		d.ClientSite = u.Host
	}
	if u, err := url.Parse(a.redirectURI); err == nil {
		d.RedirectTo = u.Host
		if d.RedirectTo == "" {
			d.RedirectTo = u.Scheme + ":"
		}
	}
	for _, k := range []string{"response_type", "client_id", "redirect_uri", "code_challenge", "code_challenge_method", "state", "scope", "resource"} {
		if v := q.Get(k); v != "" {
			d.Hidden[k] = v
		}
	}
	posted := r.Method == http.MethodPost
	for _, sc := range a.scopes {
		d.Scopes = append(d.Scopes, scopeChoice{Name: sc, Text: scopeText[sc], Checked: !posted || slices.Contains(q["grant"], sc)})
	}
	d.FormToken = s.formToken(s.formCookieValue(w, r), a)
	if s.oidc != nil {
		d.OIDCName = s.oidc.Name
	}
	s.render(w, status, d, a.redirectURI)
}

//go:embed authorize.html
var pageSource string

// pageTemplate is the sign-in and consent page.
var pageTemplate = template.Must(template.New("authorize").Parse(pageSource))

// pageStyle is the page's one inline style element's content, allowed by its hash in the
// Content-Security-Policy (CSP level 3, "hash-source").
var pageStyle = func() string {
	i := strings.Index(pageSource, "<style>")
	j := strings.Index(pageSource, "</style>")
	sum := sha256.Sum256([]byte(pageSource[i+len("<style>") : j]))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()

// render writes the page with status: strict CSP (no script at all, the style by its hash, the
// form posting only here, and, since browsers hold the redirect that follows a form's POST to
// form-action too, to the redirect URI's origin), not framed, not cached, no referrer.
func (s *Server) render(w http.ResponseWriter, status int, d pageData, redirectURI string) {
	formAction := "'self'"
	if s.oidc != nil { // the form's "sign in with" leads there
		if u, err := url.Parse(s.oidc.Issuer); err == nil {
			formAction += " " + u.Scheme + "://" + u.Host
		}
	}
	if u, err := url.Parse(redirectURI); err == nil && redirectURI != "" {
		if u.Host != "" {
			formAction += " " + u.Scheme + "://" + u.Host
		} else {
			formAction += " " + u.Scheme + ":"
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src "+pageStyle+"; form-action "+formAction+
		"; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	noStore(w)
	w.WriteHeader(status)
	pageTemplate.Execute(w, d)
}

// internalError logs err and shows a page saying to try again.
func (s *Server) internalError(w http.ResponseWriter, r *http.Request, err error) {
	s.log.ErrorContext(r.Context(), "authorization failed", "error", err.Error())
	s.render(w, http.StatusServiceUnavailable, pageData{Error: "Something went wrong on this server; try again in a moment."}, "")
}
