package mcpserver

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/oauth"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/must"
)

// testProvider is an OpenID Connect provider for the tests: its sign-in page signs in whoever
// the test says (user) at once, and its token endpoint checks the client's secret, the code and
// its PKCE verifier, and answers an ID token. The tamper fields make its ID tokens wrong in one
// way each.
type testProvider struct {
	*httptest.Server
	mu    sync.Mutex
	user  string
	codes map[string]providerGrant
	// Tampering.
	aud, nonce, iss string
	expired         bool
}

type providerGrant struct{ nonce, challenge, redirect, user string }

const providerClientID, providerSecret = "bananaqr-expenses", "s3cret"

func newTestProvider(t *testing.T) *testProvider {
	p := &testProvider{codes: map[string]providerGrant{}}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

func (p *testProvider) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch r.URL.Path {
	case "/.well-known/openid-configuration":
		json.NewEncoder(w).Encode(map[string]string{"issuer": p.URL, "authorization_endpoint": p.URL + "/authorize",
			"token_endpoint": p.URL + "/token"})
	case "/authorize":
		q := r.URL.Query()
		if q.Get("client_id") != providerClientID || q.Get("code_challenge_method") != "S256" || q.Get("response_type") != "code" ||
			!strings.Contains(q.Get("scope"), "openid") {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		to, err := url.Parse(q.Get("redirect_uri"))
		if err != nil {
			http.Error(w, "bad redirect_uri", http.StatusBadRequest)
			return
		}
		back := url.Values{"state": {q.Get("state")}}
		if p.user == "" {
			back.Set("error", "access_denied")
		} else {
			code := "pc-" + q.Get("nonce")
			p.codes[code] = providerGrant{nonce: q.Get("nonce"), challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri"), user: p.user}
			back.Set("code", code)
		}
		to.RawQuery = back.Encode()
		http.Redirect(w, r, to.String(), http.StatusFound)
	case "/token":
		id, secret, _ := r.BasicAuth()
		r.ParseForm()
		g, ok := p.codes[r.PostForm.Get("code")]
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if id != providerClientID || secret != providerSecret || !ok || g.redirect != r.PostForm.Get("redirect_uri") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		delete(p.codes, r.PostForm.Get("code"))
		claims := map[string]any{"iss": p.URL, "aud": providerClientID, "sub": "s-" + g.user, "preferred_username": g.user,
			"nonce": g.nonce, "iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix()}
		if p.aud != "" {
			claims["aud"] = p.aud
		}
		if p.nonce != "" {
			claims["nonce"] = p.nonce
		}
		if p.iss != "" {
			claims["iss"] = p.iss
		}
		if p.expired {
			claims["exp"] = time.Now().Add(-time.Minute).Unix()
		}
		payload, _ := json.Marshal(claims)
		jwt := "eyJhbGciOiJSUzI1NiJ9." + base64.RawURLEncoding.EncodeToString(payload) + ".c2ln"
		json.NewEncoder(w).Encode(map[string]string{"id_token": jwt, "access_token": "at", "token_type": "Bearer"})
	default:
		http.NotFound(w, r)
	}
}

// set changes the provider's behaviour for the next sign-in.
func (p *testProvider) set(f func(*testProvider)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.user, p.aud, p.nonce, p.iss, p.expired = "anna", "", "", "", false
	f(p)
}

// oidcSignIn goes the way of a person who picks "Sign in with …" on the page: the form, the
// provider, the callback. It returns the callback's answer.
func (f *oauthFixture) oidcSignIn(t *testing.T, q url.Values, grant ...string) (*http.Response, string) {
	t.Helper()
	b := browser()
	page := must.Get(b.Get(f.base + "/authorize?" + q.Encode()))(t)
	body := string(must.Get(io.ReadAll(page.Body))(t))
	page.Body.Close()
	if !strings.Contains(body, `value="oidc"`) {
		t.Fatalf("the page offers no sign-in at the provider: %s", body)
	}
	form := url.Values{}
	for k, v := range q {
		form[k] = v
	}
	form.Set("form_token", html.UnescapeString(formTokenPattern.FindStringSubmatch(body)[1]))
	form.Set("decision", "oidc")
	form["grant"] = grant
	step := must.Get(b.PostForm(f.base+"/authorize", form))(t)
	step.Body.Close()
	if step.StatusCode != http.StatusSeeOther {
		t.Fatalf("to the provider: %d", step.StatusCode)
	}
	step = must.Get(b.Get(step.Header.Get("Location")))(t) // the provider's page, which sends the person back at once
	step.Body.Close()
	if step.StatusCode != http.StatusFound {
		t.Fatalf("the provider: %d", step.StatusCode)
	}
	res := must.Get(b.Get(step.Header.Get("Location")))(t)
	body = string(must.Get(io.ReadAll(res.Body))(t))
	res.Body.Close()
	if m := alertPattern.FindStringSubmatch(body); m != nil {
		return res, html.UnescapeString(m[1])
	}
	return res, ""
}

// TestOAuthOIDC: sign-in delegated to an OpenID Connect provider names the local user by the ID
// token's claim; what the ID token must be, and what the person sees when it is not.
func TestOAuthOIDC(t *testing.T) {
	provider := newTestProvider(t)
	f := newOAuthFixture(t, storetest.Open(t, storetest.SQLitePath(t)), oauth.Options{Registration: oauth.RegistrationOpen,
		OIDC: &oauth.OIDC{Issuer: provider.URL, ClientID: providerClientID, ClientSecret: providerSecret, Name: "Example ID"}})
	redirect := "https://client.example/cb"
	clientID := f.register(t, redirect)
	verifier, challenge := pkce()
	q := authorizeQuery(clientID, redirect, challenge, "st")

	provider.set(func(*testProvider) {})
	res, msg := f.oidcSignIn(t, q, oauth.ScopeRead)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in at the provider: %d %q", res.StatusCode, msg)
	}
	loc := must.Get(url.Parse(res.Header.Get("Location")))(t)
	if loc.Host != "client.example" || loc.Query().Get("state") != "st" || loc.Query().Get("code") == "" {
		t.Fatalf("back to the client: %s", loc)
	}
	status, out := f.tokenCall(t, url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")},
		"client_id": {clientID}, "redirect_uri": {redirect}, "code_verifier": {verifier}})
	if status != http.StatusOK || out["scope"] != oauth.ScopeRead {
		t.Fatalf("exchange: %d %v", status, out)
	}
	if status, _ := f.call(t, out["access_token"].(string), "get_me", "{}"); status != http.StatusOK {
		t.Errorf("get_me: %d", status)
	}

	for name, tc := range map[string]struct {
		tamper func(*testProvider)
		status int
		msg    string
	}{
		"unknown user":     {func(p *testProvider) { p.user = "mallory" }, http.StatusForbidden, "no user of that name"},
		"another audience": {func(p *testProvider) { p.aud = "someone-else" }, http.StatusBadGateway, "could not be checked"},
		"another nonce":    {func(p *testProvider) { p.nonce = "replayed" }, http.StatusBadGateway, "could not be checked"},
		"another issuer":   {func(p *testProvider) { p.iss = "https://evil.example" }, http.StatusBadGateway, "could not be checked"},
		"expired":          {func(p *testProvider) { p.expired = true }, http.StatusBadGateway, "could not be checked"},
	} {
		provider.set(tc.tamper)
		res, msg := f.oidcSignIn(t, q, oauth.ScopeRead)
		if res.StatusCode != tc.status || !strings.Contains(msg, tc.msg) || res.Header.Get("Location") != "" {
			t.Errorf("%s: %d %q", name, res.StatusCode, msg)
		}
	}
	provider.set(func(p *testProvider) { p.user = "" }) // the person cancels at the provider
	res, _ = f.oidcSignIn(t, q, oauth.ScopeRead)
	if loc := must.Get(url.Parse(res.Header.Get("Location")))(t); res.StatusCode != http.StatusSeeOther || loc.Query().Get("error") != "access_denied" {
		t.Errorf("cancelled at the provider: %d %s", res.StatusCode, loc)
	}

	// A callback without this browser's cookie, or with another state, leads nowhere.
	res = must.Get(browser().Get(f.base + "/oidc/callback?code=pc-x&state=abc"))(t)
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest || res.Header.Get("Location") != "" {
		t.Errorf("a callback that did not start here: %d", res.StatusCode)
	}
	b := browser()
	page := must.Get(b.Get(f.base + "/authorize?" + q.Encode()))(t)
	body := string(must.Get(io.ReadAll(page.Body))(t))
	page.Body.Close()
	form := url.Values{}
	for k, v := range q {
		form[k] = v
	}
	form.Set("form_token", html.UnescapeString(formTokenPattern.FindStringSubmatch(body)[1]))
	form.Set("decision", "oidc")
	form.Set("grant", oauth.ScopeRead)
	toProvider := must.Get(b.PostForm(f.base+"/authorize", form))(t)
	toProvider.Body.Close()
	state := must.Get(url.Parse(toProvider.Header.Get("Location")))(t).Query().Get("state")
	for _, bad := range []string{"", state + "x", strings.ToUpper(state)} {
		res = must.Get(b.Get(f.base + "/oidc/callback?code=pc-x&state=" + url.QueryEscape(bad)))(t)
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest || res.Header.Get("Location") != "" {
			t.Errorf("a callback with state %q (this browser's is %q): %d", bad, state, res.StatusCode)
		}
	}
}
