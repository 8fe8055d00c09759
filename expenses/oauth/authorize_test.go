package oauth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/password"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/clientaddr"
)

// TestSignInBound: at most maxHashing passwords are checked at once (each Argon2id check takes
// about 19 MiB); a sign-in that finds no place within hashWait is told to try again, without a
// check, and one that finds a place goes on.
func TestSignInBound(t *testing.T) {
	st := storetest.Open(t, storetest.SQLitePath(t))
	ctx := context.Background()
	u, err := st.CreateUser(ctx, "Anna")
	if err != nil {
		t.Fatal(err)
	}
	hash, _ := password.Hash("correct horse battery staple")
	if err := st.SetPassword(ctx, u.ID, hash); err != nil {
		t.Fatal(err)
	}
	s, err := New(ctx, st, Options{Issuer: "https://expenses.example", Resource: "https://expenses.example/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	s.hashWait = 50 * time.Millisecond
	for range maxHashing {
		s.hashing <- struct{}{}
	}
	r := httptest.NewRequest("POST", "/authorize", nil)
	if _, msg, err := s.signIn(r, "Anna", "correct horse battery staple"); err != nil || !strings.Contains(msg, "busy") {
		t.Fatalf("with every place taken: %q %v", msg, err)
	}
	if si, _ := st.SignInByName(ctx, "Anna"); si.Failures != 0 {
		t.Errorf("a sign-in refused as busy counted as a failure")
	}
	<-s.hashing
	if user, msg, err := s.signIn(r, "Anna", "correct horse battery staple"); err != nil || msg != "" || user.ID != u.ID {
		t.Fatalf("with a place: %+v %q %v", user, msg, err)
	}
	if len(s.hashing) != maxHashing-1 {
		t.Errorf("the place was not given back: %d taken", len(s.hashing))
	}
}

// TestFormKeyShared: two servers on one store (two replicas, or one after a restart) sign the
// sign-in form alike, so a form one serves may be posted to the other.
func TestFormKeyShared(t *testing.T) {
	st := storetest.Open(t, storetest.SQLitePath(t))
	o := Options{Issuer: "https://expenses.example", Resource: "https://expenses.example/mcp"}
	a, err := New(context.Background(), st, o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(context.Background(), st, o)
	if err != nil {
		t.Fatal(err)
	}
	req := &authRequest{client: client{id: "c"}, redirectURI: "https://c.example/cb", challenge: "x", state: "s"}
	if a.formToken("cookie", req) != b.formToken("cookie", req) {
		t.Error("two servers on one store sign the form differently")
	}
	other := *req
	other.state = "t"
	if a.formToken("cookie", req) == a.formToken("cookie", &other) || a.formToken("cookie", req) == a.formToken("cookie2", req) {
		t.Error("the form token does not depend on the request and the cookie")
	}
}

// TestLimitsBehindProxy: behind a trusted proxy each client it names has a budget of its own;
// without ClientAddress every client of the proxy would share the proxy's.
func TestLimitsBehindProxy(t *testing.T) {
	st := storetest.Open(t, storetest.SQLitePath(t))
	proxies := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	s, err := New(context.Background(), st, Options{Issuer: "https://expenses.example", Resource: "https://expenses.example/mcp",
		TokensPerMinute: 1, ClientAddress: clientaddr.New(proxies, 0, nil).Key})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	s.Register(mux)
	token := func(forwardedFor string) int {
		r := httptest.NewRequest(http.MethodPost, "/token", strings.NewReader("grant_type=refresh_token&refresh_token=x&client_id=y"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.RemoteAddr = "127.0.0.1:4000"
		r.Header.Set("X-Forwarded-For", forwardedFor)
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		return w.Code
	}
	if a, again, b := token("203.0.113.1"), token("203.0.113.1"), token("203.0.113.2"); a != http.StatusBadRequest ||
		again != http.StatusTooManyRequests || b != http.StatusBadRequest {
		t.Errorf("first client %d then %d, second client %d; want 400, 429, 400", a, again, b)
	}
}
