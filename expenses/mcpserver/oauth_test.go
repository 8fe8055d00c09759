package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bananaqr/bananaqr/expenses/oauth"
	"github.com/bananaqr/bananaqr/expenses/password"
	"github.com/bananaqr/bananaqr/expenses/service"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/logtest"
	"github.com/bananaqr/bananaqr/internal/must"
)

// oauthFixture is the expenses server with its authorization server, on a test HTTP server, a
// user Anna with a password, and a clock the test moves.
type oauthFixture struct {
	log      *logtest.Buffer // every line the server logged
	st       *store.Store
	as       *oauth.Server
	base     string // the issuer and the server's origin
	endpoint string // the MCP endpoint, the tokens' resource
	mu       sync.Mutex
	now      time.Time
}

const annaPassword = "correct horse battery staple"

func newOAuthFixture(t *testing.T, st *store.Store, o oauth.Options) *oauthFixture {
	t.Helper()
	f := &oauthFixture{st: st, now: time.Now(), log: &logtest.Buffer{}}
	ts := httptest.NewUnstartedServer(nil)
	ts.Start()
	t.Cleanup(ts.Close)
	f.base, f.endpoint = ts.URL, ts.URL+EndpointPath
	u := must.Get(st.CreateUser(context.Background(), "Anna"))(t)
	hash := must.Get(password.Hash(annaPassword))(t)
	if err := st.SetPassword(context.Background(), u.ID, hash); err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewJSONHandler(f.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	o.Issuer, o.Resource, o.Now, o.SignInsPerMinute, o.Logger = f.base, f.endpoint, f.clock, 1000, logger
	as, err := oauth.New(context.Background(), st, o)
	if err != nil {
		t.Fatal(err)
	}
	f.as = as
	svc := service.New(st, nil)
	h, err := Handler(svc, Options{BaseURL: f.base, OAuth: as, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = h
	return f
}

func (f *oauthFixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *oauthFixture) advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

// browser is a person's browser: cookies kept, redirects not followed (the test reads them).
func browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// pkce returns a code verifier and its S256 challenge (RFC 7636 4.1, 4.2).
func pkce() (verifier, challenge string) {
	verifier = strings.Repeat("v", 20) + base64.RawURLEncoding.EncodeToString([]byte(time.Now().String()))
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// register registers a client with redirect URI redirect (RFC 7591) and returns its id.
func (f *oauthFixture) register(t *testing.T, redirect string) string {
	t.Helper()
	res := must.Get(http.Post(f.base+"/register", "application/json",
		strings.NewReader(`{"redirect_uris":["`+redirect+`"],"client_name":"Test client"}`)))(t)
	defer res.Body.Close()
	var reg struct {
		ClientID string `json:"client_id"`
	}
	if err := json.NewDecoder(res.Body).Decode(&reg); err != nil || res.StatusCode != http.StatusCreated || reg.ClientID == "" {
		t.Fatalf("register: %d %v %+v", res.StatusCode, err, reg)
	}
	return reg.ClientID
}

var (
	formTokenPattern = regexp.MustCompile(`name="form_token" value="([^"]+)"`)
	alertPattern     = regexp.MustCompile(`role="alert"[^>]*>([^<]*)<`)
)

// signIn goes through the authorization page as a person: GET the page, then post the form
// with the name, password and decision. It returns the final response (a redirect on success)
// and the page's error, if it showed one.
func (f *oauthFixture) signIn(t *testing.T, b *http.Client, q url.Values, name, pw, decision string, grant ...string) (*http.Response, string) {
	t.Helper()
	page := must.Get(b.Get(f.base + "/authorize?" + q.Encode()))(t)
	body := string(must.Get(io.ReadAll(page.Body))(t))
	page.Body.Close()
	if page.StatusCode != http.StatusOK {
		if m := alertPattern.FindStringSubmatch(body); m != nil {
			return page, html.UnescapeString(m[1])
		}
		return page, ""
	}
	m := formTokenPattern.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no form token on the page: %s", body)
	}
	form := url.Values{}
	for k, v := range q {
		form[k] = v
	}
	form.Set("form_token", html.UnescapeString(m[1]))
	form.Set("username", name)
	form.Set("password", pw)
	form.Set("decision", decision)
	if grant == nil {
		grant = oauth.Scopes
	}
	form["grant"] = grant
	res := must.Get(b.PostForm(f.base+"/authorize", form))(t)
	body = string(must.Get(io.ReadAll(res.Body))(t))
	res.Body.Close()
	if m := alertPattern.FindStringSubmatch(body); m != nil {
		return res, html.UnescapeString(m[1])
	}
	return res, ""
}

// authorizeQuery returns the parameters of an authorization request.
func authorizeQuery(clientID, redirect, challenge, state string) url.Values {
	return url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {redirect},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {state}}
}

// tokenCall posts form to the token endpoint and returns the status and decoded body.
func (f *oauthFixture) tokenCall(t *testing.T, form url.Values) (int, map[string]any) {
	t.Helper()
	res := must.Get(http.PostForm(f.base+"/token", form))(t)
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatalf("token answer: %v", err)
	}
	if res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("token answer without Cache-Control: no-store")
	}
	return res.StatusCode, out
}

// codeFor runs the whole authorization and returns the code, the verifier and the state.
func (f *oauthFixture) codeFor(t *testing.T, clientID, redirect string, grant ...string) (code, verifier string) {
	t.Helper()
	verifier, challenge := pkce()
	res, msg := f.signIn(t, browser(), authorizeQuery(clientID, redirect, challenge, "s-1"), "anna", annaPassword, "allow", grant...)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: %d %q", res.StatusCode, msg)
	}
	loc := must.Get(url.Parse(res.Header.Get("Location")))(t)
	if got := loc.Scheme + "://" + loc.Host + loc.Path; got != redirect {
		t.Fatalf("redirected to %s, want %s", got, redirect)
	}
	if loc.Query().Get("state") != "s-1" || loc.Query().Get("iss") != f.base || loc.Query().Get("code") == "" {
		t.Fatalf("redirect %s: want code, state s-1, iss %s", loc, f.base)
	}
	return loc.Query().Get("code"), verifier
}

// exchange redeems a code and returns the access and refresh tokens.
func (f *oauthFixture) exchange(t *testing.T, clientID, redirect, code, verifier string) (access, refresh string) {
	t.Helper()
	status, out := f.tokenCall(t, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {clientID},
		"redirect_uri": {redirect}, "code_verifier": {verifier}, "resource": {f.endpoint}})
	if status != http.StatusOK || out["token_type"] != "Bearer" {
		t.Fatalf("exchange: %d %v", status, out)
	}
	return out["access_token"].(string), out["refresh_token"].(string)
}

// call calls tool with args over MCP with token and returns the HTTP status of the call's
// answer (200 when the SDK's call succeeded) and the WWW-Authenticate header of a refusal.
func (f *oauthFixture) call(t *testing.T, token, tool, args string) (int, string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	req := must.Get(http.NewRequest(http.MethodPost, f.endpoint, strings.NewReader(body)))(t)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", "Bearer "+token)
	res := must.Get(http.DefaultClient.Do(req))(t)
	defer res.Body.Close()
	io.Copy(io.Discard, res.Body)
	return res.StatusCode, res.Header.Get("WWW-Authenticate")
}

// TestOAuthFlow goes the way an MCP client does, on both engines: discovery from the 401's
// challenge, registration, the sign-in and consent page, the code exchange with PKCE, tool
// calls with the access token through the official Go SDK's client, a refresh with rotation,
// and revocation.
func TestOAuthFlow(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		f := newOAuthFixture(t, st, oauth.Options{Registration: oauth.RegistrationOpen})

		// Discovery: 401 → protected resource metadata → authorization server metadata.
		status, challenge := f.call(t, "", "get_me", "{}")
		if status != http.StatusUnauthorized || !strings.Contains(challenge, `resource_metadata="`+f.base+`/.well-known/oauth-protected-resource/mcp"`) ||
			!strings.Contains(challenge, `scope="expenses:read expenses:write"`) {
			t.Fatalf("no token: %d %q", status, challenge)
		}
		var prm struct {
			Resource             string   `json:"resource"`
			AuthorizationServers []string `json:"authorization_servers"`
			ScopesSupported      []string `json:"scopes_supported"`
		}
		getJSON(t, f.base+"/.well-known/oauth-protected-resource/mcp", &prm)
		if prm.Resource != f.endpoint || len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != f.base {
			t.Fatalf("protected resource metadata: %+v", prm)
		}
		var asm map[string]any
		getJSON(t, f.base+"/.well-known/oauth-authorization-server", &asm)
		for k, want := range map[string]any{"issuer": f.base, "authorization_endpoint": f.base + "/authorize",
			"token_endpoint": f.base + "/token", "registration_endpoint": f.base + "/register",
			"revocation_endpoint": f.base + "/revoke"} {
			if asm[k] != want {
				t.Errorf("metadata %s = %v, want %v", k, asm[k], want)
			}
		}
		if m, _ := json.Marshal(asm["code_challenge_methods_supported"]); string(m) != `["S256"]` {
			t.Errorf("code_challenge_methods_supported %s", m)
		}

		redirect := "http://127.0.0.1:33418/callback"
		clientID := f.register(t, redirect)
		code, verifier := f.codeFor(t, clientID, redirect)
		access, refresh := f.exchange(t, clientID, redirect, code, verifier)

		// The official Go SDK's client calls the tools with the access token.
		client := mcp.NewClient(&mcp.Implementation{Name: "oauth-test", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: f.endpoint,
			HTTPClient: &http.Client{Transport: bearer{access}}, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		me, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_me", Arguments: map[string]any{}})
		if err != nil || me.IsError {
			t.Fatalf("get_me: %v %+v", err, me)
		}
		if b, _ := json.Marshal(me.StructuredContent); !strings.Contains(string(b), `"Anna"`) {
			t.Errorf("get_me: %s", b)
		}
		add, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "add_friend", Arguments: map[string]any{"name": "Ben"}})
		if err != nil || add.IsError {
			t.Fatalf("add_friend: %v %+v", err, add)
		}

		// Refresh: new tokens; the old refresh token is spent, and using it again revokes all.
		status, out := f.tokenCall(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {clientID}})
		if status != http.StatusOK {
			t.Fatalf("refresh: %d %v", status, out)
		}
		access2, refresh2 := out["access_token"].(string), out["refresh_token"].(string)
		if access2 == access || refresh2 == refresh {
			t.Fatal("refresh returned the same tokens")
		}
		if status, _ := f.call(t, access2, "get_me", "{}"); status != http.StatusOK {
			t.Fatalf("get_me with the refreshed token: %d", status)
		}
		status, out = f.tokenCall(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {clientID}})
		if status != http.StatusBadRequest || out["error"] != "invalid_grant" {
			t.Fatalf("reused refresh token: %d %v", status, out)
		}
		for _, tok := range []string{access, access2} {
			if status, ch := f.call(t, tok, "get_me", "{}"); status != http.StatusUnauthorized || !strings.Contains(ch, `error="invalid_token"`) {
				t.Errorf("after refresh-token reuse, an access token of the family: %d %q", status, ch)
			}
		}
		if status, out := f.tokenCall(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh2}, "client_id": {clientID}}); status != http.StatusBadRequest {
			t.Errorf("after reuse, the newest refresh token: %d %v", status, out)
		}

		// Revocation (RFC 7009): the refresh token of a new sign-in takes its access token with it.
		code, verifier = f.codeFor(t, clientID, redirect)
		access, refresh = f.exchange(t, clientID, redirect, code, verifier)
		res := must.Get(http.PostForm(f.base+"/revoke", url.Values{"token": {refresh}, "client_id": {clientID}}))(t)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("revoke: %d", res.StatusCode)
		}
		if status, _ := f.call(t, access, "get_me", "{}"); status != http.StatusUnauthorized {
			t.Errorf("access token after its refresh token was revoked: %d", status)
		}

		// The server logged its requests (the MCP lines name the user), never a secret.
		logged := f.log.String()
		if !strings.Contains(logged, `"msg":"mcp"`) {
			t.Fatalf("nothing logged: %q", logged)
		}
		for _, secret := range []string{code, verifier, access, refresh, access2, refresh2, annaPassword} {
			if strings.Contains(logged, secret) {
				t.Errorf("the log holds a secret (%.8s…)", secret)
			}
		}
	})
}

// getJSON reads the JSON document at u into v.
func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	res := must.Get(http.Get(u))(t)
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %v", u, res.StatusCode, err)
	}
}

// TestOAuthRefusals: what the authorization server and the MCP endpoint refuse.
func TestOAuthRefusals(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, st *store.Store) {
		f := newOAuthFixture(t, st, oauth.Options{Registration: oauth.RegistrationOpen})
		redirect := "https://client.example/cb"
		clientID := f.register(t, redirect)
		exchange := func(code, verifier string) (int, map[string]any) {
			return f.tokenCall(t, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {clientID},
				"redirect_uri": {redirect}, "code_verifier": {verifier}})
		}

		t.Run("wrong PKCE verifier", func(t *testing.T) {
			code, _ := f.codeFor(t, clientID, redirect)
			other, _ := pkce()
			if status, out := exchange(code, other+"x"); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Errorf("%d %v", status, out)
			}
		})
		t.Run("code used twice", func(t *testing.T) {
			code, verifier := f.codeFor(t, clientID, redirect)
			access, _ := f.exchange(t, clientID, redirect, code, verifier)
			if status, out := exchange(code, verifier); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Errorf("second exchange: %d %v", status, out)
			}
			if status, _ := f.call(t, access, "get_me", "{}"); status != http.StatusUnauthorized {
				t.Errorf("the token of a code used twice still works: %d", status)
			}
		})
		t.Run("expired code", func(t *testing.T) {
			code, verifier := f.codeFor(t, clientID, redirect)
			f.advance(6 * time.Minute)
			if status, out := exchange(code, verifier); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Errorf("%d %v", status, out)
			}
		})
		t.Run("expired access token", func(t *testing.T) {
			code, verifier := f.codeFor(t, clientID, redirect)
			access, _ := f.exchange(t, clientID, redirect, code, verifier)
			if status, _ := f.call(t, access, "get_me", "{}"); status != http.StatusOK {
				t.Fatalf("fresh token: %d", status)
			}
			f.advance(oauth.DefaultAccessTTL)
			if status, ch := f.call(t, access, "get_me", "{}"); status != http.StatusUnauthorized || !strings.Contains(ch, `error="invalid_token"`) {
				t.Errorf("expired token: %d %q", status, ch)
			}
		})
		t.Run("token of another resource", func(t *testing.T) {
			// The same users and store, another resource (RFC 8707): its tokens are not ours.
			ts := httptest.NewUnstartedServer(nil)
			ts.Start()
			defer ts.Close()
			other := must.Get(oauth.New(context.Background(), st, oauth.Options{Issuer: ts.URL, Resource: "https://other.example/mcp",
				Registration: oauth.RegistrationOpen, Now: f.clock}))(t)
			mux := http.NewServeMux()
			other.Register(mux)
			ts.Config.Handler = mux
			g := &oauthFixture{st: st, as: other, base: ts.URL, endpoint: "https://other.example/mcp", now: f.clock()}
			id := g.register(t, redirect)
			code, verifier := g.codeFor(t, id, redirect)
			access, _ := g.exchange(t, id, redirect, code, verifier)
			if status, _ := f.call(t, access, "get_me", "{}"); status != http.StatusUnauthorized {
				t.Errorf("another resource's token: %d", status)
			}
			if status, out := f.tokenCall(t, url.Values{"grant_type": {"authorization_code"}, "code": {"x"}, "client_id": {clientID},
				"resource": {"https://other.example/mcp"}}); status != http.StatusBadRequest || out["error"] != "invalid_target" {
				t.Errorf("token request for another resource: %d %v", status, out)
			}
		})
		t.Run("read-only grant", func(t *testing.T) {
			code, verifier := f.codeFor(t, clientID, redirect, oauth.ScopeRead)
			access, _ := f.exchange(t, clientID, redirect, code, verifier)
			if status, _ := f.call(t, access, "get_me", "{}"); status != http.StatusOK {
				t.Errorf("read tool: %d", status)
			}
			status, ch := f.call(t, access, "add_friend", `{"name":"Ben"}`)
			if status != http.StatusForbidden || !strings.Contains(ch, `error="insufficient_scope"`) || !strings.Contains(ch, `scope="expenses:write"`) ||
				!strings.Contains(ch, `resource_metadata="`) {
				t.Errorf("write tool: %d %q", status, ch)
			}
		})
		t.Run("open redirect", func(t *testing.T) {
			_, challenge := pkce()
			for _, to := range []string{"https://evil.example/cb", "https://client.example/cb/../evil", "https://client.example/cb?x=1", ""} {
				res, msg := f.signIn(t, browser(), authorizeQuery(clientID, to, challenge, "s"), "anna", annaPassword, "allow")
				if res.StatusCode != http.StatusBadRequest || res.Header.Get("Location") != "" || msg == "" {
					t.Errorf("redirect_uri %q: %d %q %q", to, res.StatusCode, res.Header.Get("Location"), msg)
				}
			}
			res, _ := f.signIn(t, browser(), authorizeQuery("bqk_unknown", redirect, challenge, "s"), "anna", annaPassword, "allow")
			if res.StatusCode != http.StatusBadRequest || res.Header.Get("Location") != "" {
				t.Errorf("unknown client: %d %q", res.StatusCode, res.Header.Get("Location"))
			}
		})
		t.Run("PKCE required", func(t *testing.T) {
			q := authorizeQuery(clientID, redirect, "", "s")
			q.Del("code_challenge")
			res := must.Get(browser().Get(f.base + "/authorize?" + q.Encode()))(t)
			res.Body.Close()
			loc := must.Get(url.Parse(res.Header.Get("Location")))(t)
			if res.StatusCode != http.StatusSeeOther || loc.Host != "client.example" || loc.Query().Get("error") != "invalid_request" {
				t.Errorf("%d %s", res.StatusCode, loc)
			}
		})
		t.Run("deny", func(t *testing.T) {
			_, challenge := pkce()
			res, _ := f.signIn(t, browser(), authorizeQuery(clientID, redirect, challenge, "s"), "", "", "deny")
			loc := must.Get(url.Parse(res.Header.Get("Location")))(t)
			if res.StatusCode != http.StatusSeeOther || loc.Query().Get("error") != "access_denied" || loc.Query().Get("code") != "" {
				t.Errorf("%d %s", res.StatusCode, loc)
			}
			// "Sign in with" a provider this server does not have is no sign-in either.
			res, _ = f.signIn(t, browser(), authorizeQuery(clientID, redirect, challenge, "s"), "anna", annaPassword, "oidc")
			loc = must.Get(url.Parse(res.Header.Get("Location")))(t)
			if res.StatusCode != http.StatusSeeOther || loc.Query().Get("error") != "access_denied" || loc.Query().Get("code") != "" {
				t.Errorf("decision oidc without a provider: %d %s", res.StatusCode, loc)
			}
		})
		t.Run("token request unlike the grant", func(t *testing.T) {
			code, verifier := f.codeFor(t, clientID, redirect)
			if status, out := f.tokenCall(t, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {clientID},
				"redirect_uri": {redirect + "2"}, "code_verifier": {verifier}}); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Errorf("another redirect_uri: %d %v", status, out)
			}
			code, verifier = f.codeFor(t, clientID, redirect)
			other := f.register(t, redirect)
			if status, out := f.tokenCall(t, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {other},
				"redirect_uri": {redirect}, "code_verifier": {verifier}}); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
				t.Errorf("another client: %d %v", status, out)
			}
			code, verifier = f.codeFor(t, clientID, redirect)
			access, refresh := f.exchange(t, clientID, redirect, code, verifier)
			for name, form := range map[string]url.Values{
				"refresh by another client": {"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {other}},
				"access token as refresh":   {"grant_type": {"refresh_token"}, "refresh_token": {access}, "client_id": {clientID}},
				"wider scope":               {"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {clientID}, "scope": {"expenses:read expenses:admin"}},
			} {
				if status, out := f.tokenCall(t, form); status != http.StatusBadRequest {
					t.Errorf("%s: %d %v", name, status, out)
				}
			}
			// None of those spent the refresh token.
			if status, out := f.tokenCall(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {clientID},
				"scope": {oauth.ScopeRead}}); status != http.StatusOK || out["scope"] != oauth.ScopeRead {
				t.Errorf("narrowing refresh: %d %v", status, out)
			}
		})
		t.Run("form of another request", func(t *testing.T) {
			// The cookie is there, but the token signs another request (another state).
			b := browser()
			_, challenge := pkce()
			page := must.Get(b.Get(f.base + "/authorize?" + authorizeQuery(clientID, redirect, challenge, "first").Encode()))(t)
			body := string(must.Get(io.ReadAll(page.Body))(t))
			page.Body.Close()
			token := html.UnescapeString(formTokenPattern.FindStringSubmatch(body)[1])
			form := authorizeQuery(clientID, redirect, challenge, "second")
			form.Set("username", "anna")
			form.Set("password", annaPassword)
			form.Set("decision", "allow")
			form.Set("grant", oauth.ScopeRead)
			form.Set("form_token", token)
			res := must.Get(b.PostForm(f.base+"/authorize", form))(t)
			res.Body.Close()
			if res.StatusCode != http.StatusBadRequest || res.Header.Get("Location") != "" {
				t.Errorf("%d %q", res.StatusCode, res.Header.Get("Location"))
			}
		})
		t.Run("forged form", func(t *testing.T) {
			// A page elsewhere posts the form without the cookie and its token.
			_, challenge := pkce()
			form := authorizeQuery(clientID, redirect, challenge, "s")
			form.Set("username", "anna")
			form.Set("password", annaPassword)
			form.Set("decision", "allow")
			form.Set("form_token", "forged")
			res := must.Get(browser().PostForm(f.base+"/authorize", form))(t)
			res.Body.Close()
			if res.StatusCode != http.StatusBadRequest || res.Header.Get("Location") != "" {
				t.Errorf("%d %q", res.StatusCode, res.Header.Get("Location"))
			}
		})
		t.Run("lockout", func(t *testing.T) {
			_, challenge := pkce()
			q := authorizeQuery(clientID, redirect, challenge, "s")
			for i := range 5 {
				res, msg := f.signIn(t, browser(), q, "Anna", "wrong password "+string(rune('a'+i)), "allow")
				if res.StatusCode != http.StatusUnauthorized || !strings.Contains(msg, "not right") {
					t.Fatalf("wrong password %d: %d %q", i, res.StatusCode, msg)
				}
			}
			res, msg := f.signIn(t, browser(), q, "Anna", annaPassword, "allow")
			if res.StatusCode != http.StatusUnauthorized || !strings.Contains(msg, "locked") {
				t.Fatalf("right password while locked: %d %q", res.StatusCode, msg)
			}
			if res, msg := f.signIn(t, browser(), q, "Nobody", annaPassword, "allow"); res.StatusCode != http.StatusUnauthorized || !strings.Contains(msg, "not right") {
				t.Errorf("unknown name: %d %q", res.StatusCode, msg)
			}
			f.advance(16 * time.Minute)
			if res, msg := f.signIn(t, browser(), q, "Anna", annaPassword, "allow"); res.StatusCode != http.StatusSeeOther {
				t.Errorf("after the lock: %d %q", res.StatusCode, msg)
			}
		})
	})
}

// TestOAuthRegistrationPolicy: registration off (no endpoint, not in the metadata), and an
// allowlist of redirect URIs.
func TestOAuthRegistrationPolicy(t *testing.T) {
	st := storetest.Open(t, storetest.SQLitePath(t))
	off := newOAuthFixture(t, st, oauth.Options{Registration: oauth.RegistrationOff})
	var asm map[string]any
	getJSON(t, off.base+"/.well-known/oauth-authorization-server", &asm)
	if _, ok := asm["registration_endpoint"]; ok {
		t.Errorf("registration off, yet the metadata names an endpoint")
	}
	res := must.Get(http.Post(off.base+"/register", "application/json", strings.NewReader(`{"redirect_uris":["https://a.example/cb"]}`)))(t)
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("registration off: %d", res.StatusCode)
	}

	st2 := storetest.Open(t, storetest.SQLitePath(t))
	allow := newOAuthFixture(t, st2, oauth.Options{Registration: oauth.RegistrationAllowlist, AllowedRedirectURIs: []string{"https://a.example/cb"}})
	for body, want := range map[string]int{
		`{"redirect_uris":["https://a.example/cb"]}`:                                                    http.StatusCreated,
		`{"redirect_uris":["https://b.example/cb"]}`:                                                    http.StatusBadRequest,
		`{"redirect_uris":["https://a.example/cb","https://b.example/cb"]}`:                             http.StatusBadRequest,
		`{"redirect_uris":["https://a.example/cb"],"token_endpoint_auth_method":"client_secret_basic"}`: http.StatusBadRequest,
		`{"redirect_uris":[]}`: http.StatusBadRequest,
		`not json`:             http.StatusBadRequest,
	} {
		res := must.Get(http.Post(allow.base+"/register", "application/json", strings.NewReader(body)))(t)
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("%s: %d, want %d", body, res.StatusCode, want)
		}
	}
}

// TestToolScopes holds the scope each tool needs (toolScope) to its annotations: a tool that
// only reads needs expenses:read, any other expenses:write.
func TestToolScopes(t *testing.T) {
	svc := service.New(storetest.Open(t, storetest.SQLitePath(t)), nil)
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss := must.Get(NewServer(svc, Options{}).Connect(t.Context(), serverSide, nil))(t)
	defer ss.Close()
	cs := must.Get(mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(t.Context(), clientSide, nil))(t)
	defer cs.Close()
	res := must.Get(cs.ListTools(t.Context(), nil))(t)
	if len(res.Tools) != len(ToolNames) {
		t.Fatalf("%d tools", len(res.Tools))
	}
	for _, tool := range res.Tools {
		want := oauth.ScopeWrite
		if tool.Annotations != nil && tool.Annotations.ReadOnlyHint {
			want = oauth.ScopeRead
		}
		if got := toolScope(tool.Name); got != want {
			t.Errorf("%s needs %s, its annotations say %s", tool.Name, got, want)
		}
	}
}

// TestOAuthMetadataDocumentClient: a client named by the URL of its metadata document (Client
// ID Metadata Documents) signs a person in without registering; the page says where the
// client describes itself.
func TestOAuthMetadataDocumentClient(t *testing.T) {
	redirect := "http://127.0.0.1:41234/callback"
	var clientURL string
	docs := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"client_id":"` + clientURL + `","client_name":"Metadata client","redirect_uris":["` + redirect + `"]}`))
	}))
	defer docs.Close()
	clientURL = docs.URL + "/oauth/client.json"
	f := newOAuthFixture(t, storetest.Open(t, storetest.SQLitePath(t)),
		oauth.Options{Registration: oauth.RegistrationOff, MetadataClient: docs.Client()})
	var asm map[string]any
	getJSON(t, f.base+"/.well-known/oauth-authorization-server", &asm)
	if asm["client_id_metadata_document_supported"] != true {
		t.Errorf("metadata: client_id_metadata_document_supported %v", asm["client_id_metadata_document_supported"])
	}
	_, challenge := pkce()
	page := must.Get(browser().Get(f.base + "/authorize?" + authorizeQuery(clientURL, redirect, challenge, "s").Encode()))(t)
	body := string(must.Get(io.ReadAll(page.Body))(t))
	page.Body.Close()
	host := strings.TrimPrefix(docs.URL, "https://")
	if page.StatusCode != http.StatusOK || !strings.Contains(body, "Metadata client") || !strings.Contains(body, "describes itself at <strong>"+host) {
		t.Fatalf("page: %d %s", page.StatusCode, body)
	}
	code, verifier := f.codeFor(t, clientURL, redirect)
	access, _ := f.exchange(t, clientURL, redirect, code, verifier)
	if status, _ := f.call(t, access, "get_me", "{}"); status != http.StatusOK {
		t.Errorf("get_me: %d", status)
	}
	res, _ := f.signIn(t, browser(), authorizeQuery(clientURL, "http://127.0.0.1:41234/other", challenge, "s"), "anna", annaPassword, "allow")
	if res.StatusCode != http.StatusBadRequest || res.Header.Get("Location") != "" {
		t.Errorf("a redirect URI the document does not list: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
}

// TestOAuthCORS: a browser-hosted client's script may call the endpoints it calls (metadata,
// registration, token, revocation) from any origin, preflights included; the authorization
// page, which the browser navigates to, is not for scripts.
func TestOAuthCORS(t *testing.T) {
	f := newOAuthFixture(t, storetest.Open(t, storetest.SQLitePath(t)), oauth.Options{Registration: oauth.RegistrationOpen})
	for path, method := range map[string]string{"/register": "POST", "/token": "POST", "/revoke": "POST",
		"/.well-known/oauth-authorization-server": "GET"} {
		req := must.Get(http.NewRequest(http.MethodOptions, f.base+path, nil))(t)
		req.Header.Set("Origin", "https://client.example")
		req.Header.Set("Access-Control-Request-Method", method)
		req.Header.Set("Access-Control-Request-Headers", "content-type, mcp-protocol-version")
		res := must.Get(http.DefaultClient.Do(req))(t)
		res.Body.Close()
		allowed := strings.ToLower(res.Header.Get("Access-Control-Allow-Headers"))
		if res.StatusCode != http.StatusNoContent || res.Header.Get("Access-Control-Allow-Origin") != "*" ||
			!strings.Contains(res.Header.Get("Access-Control-Allow-Methods"), method) ||
			!strings.Contains(allowed, "content-type") || !strings.Contains(allowed, "mcp-protocol-version") {
			t.Errorf("%s preflight: %d %v", path, res.StatusCode, res.Header)
		}
	}
	res := must.Get(http.PostForm(f.base+"/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"x"}, "client_id": {"y"}}))(t)
	res.Body.Close()
	if res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("token answer without Access-Control-Allow-Origin: %v", res.Header)
	}
	req := must.Get(http.NewRequest(http.MethodOptions, f.base+"/authorize", nil))(t)
	req.Header.Set("Origin", "https://client.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	res = must.Get(http.DefaultClient.Do(req))(t)
	res.Body.Close()
	if res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("the authorization page allows scripts of other origins: %v", res.Header)
	}
}
