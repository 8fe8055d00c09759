package store_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/expenses/store/storetest"
	"github.com/bananaqr/bananaqr/internal/must"
)

// hashOf is the SHA-256 of s, as the store keeps codes and tokens.
func hashOf(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// live tells whether OAuthTokenByHash finds the token of that secret, failing the test on any
// error but ErrNotFound.
func live(t *testing.T, s *store.Store, secret string) bool {
	t.Helper()
	_, _, err := s.OAuthTokenByHash(context.Background(), hashOf(secret))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("token %s: %v", secret, err)
	}
	return err == nil
}

// pair returns an access and a refresh token of the family for the user.
func pair(family, userID, access, refresh string, exp time.Time) []store.OAuthToken {
	tok := store.OAuthToken{Family: family, ClientID: "client-1", UserID: userID,
		Scope: "expenses", Resource: "https://example.com/mcp", ExpiresAt: exp}
	a, r := tok, tok
	a.Hash, a.Kind = hashOf(access), store.TokenAccess
	r.Hash, r.Kind = hashOf(refresh), store.TokenRefresh
	return []store.OAuthToken{a, r}
}

func TestOAuthClients(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		c := store.OAuthClient{
			ID:   "c-1",
			Name: "Claude",
			// Not sorted, one a prefix of another: the order and the exact strings must stay.
			RedirectURIs: []string{"https://b.example/cb?x=1", "http://127.0.0.1:33418/callback", "https://b.example/cb"},
			CreatedAt:    time.Date(2026, 11, 27, 5, 0, 0, 123e6, time.UTC),
		}
		if err := s.CreateOAuthClient(ctx, c); err != nil {
			t.Fatal(err)
		}
		got := must.Get(s.OAuthClientByID(ctx, "c-1"))(t)
		if got.ID != c.ID || got.Name != c.Name || !slices.Equal(got.RedirectURIs, c.RedirectURIs) || !got.CreatedAt.Equal(c.CreatedAt) {
			t.Errorf("OAuthClientByID = %+v, want %+v", got, c)
		}
		if err := s.CreateOAuthClient(ctx, store.OAuthClient{ID: "c-1", Name: "other"}); !errors.Is(err, store.ErrConflict) {
			t.Errorf("duplicate id: %v, want ErrConflict", err)
		}
		if got := must.Get(s.OAuthClientByID(ctx, "c-1"))(t); got.Name != "Claude" {
			t.Errorf("after the duplicate: %+v", got)
		}
		if _, err := s.OAuthClientByID(ctx, "c-2"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown client: %v, want ErrNotFound", err)
		}
		// No redirect URIs and no time: an empty list and the current time come back.
		before := time.Now().Add(-time.Second)
		if err := s.CreateOAuthClient(ctx, store.OAuthClient{ID: "c-3"}); err != nil {
			t.Fatal(err)
		}
		got = must.Get(s.OAuthClientByID(ctx, "c-3"))(t)
		if len(got.RedirectURIs) != 0 || got.CreatedAt.Before(before) {
			t.Errorf("client without uris = %+v", got)
		}
	})
}

func TestAuthCodes(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "alice"))(t)
		exp := time.Date(2030, 1, 2, 3, 4, 5, 6e6, time.UTC)
		code := store.AuthCode{Hash: hashOf("code-1"), ClientID: "client-1", UserID: alice.ID,
			RedirectURI: "https://b.example/cb", Challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
			Scope: "expenses offline", Resource: "https://example.com/mcp", ExpiresAt: exp}
		if err := s.SaveAuthCode(ctx, code); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveAuthCode(ctx, code); !errors.Is(err, store.ErrConflict) {
			t.Errorf("same code twice: %v, want ErrConflict", err)
		}
		other := code
		other.Hash, other.UserID = hashOf("code-2"), "nobody"
		if err := s.SaveAuthCode(ctx, other); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("code of an unknown user: %v, want ErrNotFound", err)
		}
		if _, err := s.ConsumeAuthCode(ctx, hashOf("code-2")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown code: %v, want ErrNotFound", err)
		}

		got := must.Get(s.ConsumeAuthCode(ctx, hashOf("code-1")))(t)
		if !slices.Equal(got.Hash, code.Hash) || got.ClientID != code.ClientID || got.UserID != code.UserID ||
			got.RedirectURI != code.RedirectURI || got.Challenge != code.Challenge || got.Scope != code.Scope ||
			got.Resource != code.Resource || !got.ExpiresAt.Equal(exp) {
			t.Errorf("ConsumeAuthCode = %+v, want %+v", got, code)
		}
		fam := store.CodeFamily(code.Hash)
		if err := s.SaveOAuthTokens(ctx, pair(fam, alice.ID, "a1", "r1", exp)...); err != nil {
			t.Fatal(err)
		}
		// Another grant of the same user, which the replay must leave alone.
		if err := s.SaveOAuthTokens(ctx, pair("other", alice.ID, "a9", "r9", exp)...); err != nil {
			t.Fatal(err)
		}
		if !live(t, s, "a1") || !live(t, s, "r1") {
			t.Fatal("tokens of the code not found")
		}

		// The code again: denied, and the tokens issued from it revoked (RFC 6749 4.1.2).
		if _, err := s.ConsumeAuthCode(ctx, hashOf("code-1")); !errors.Is(err, store.ErrConflict) {
			t.Errorf("code used twice: %v, want ErrConflict", err)
		}
		if live(t, s, "a1") || live(t, s, "r1") {
			t.Error("tokens of a replayed code still valid")
		}
		if !live(t, s, "a9") || !live(t, s, "r9") {
			t.Error("tokens of another grant revoked")
		}
		if _, err := s.RotateRefreshToken(ctx, hashOf("r1"), pair(fam, alice.ID, "a2", "r2", exp)...); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("rotating a revoked refresh token: %v, want ErrNotFound", err)
		}
		// Tokens the first exchange saves after the replay (a race) are refused.
		if err := s.SaveOAuthTokens(ctx, pair(fam, alice.ID, "a3", "r3", exp)...); !errors.Is(err, store.ErrConflict) {
			t.Errorf("tokens saved into the family of a replayed code: %v, want ErrConflict", err)
		}
		if live(t, s, "a3") {
			t.Error("token saved into a revoked family")
		}
	})
}

// TestAuthCodeOnce: of several exchanges of one code at the same time, exactly one succeeds.
func TestAuthCodeOnce(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "alice"))(t)
		if err := s.SaveAuthCode(ctx, store.AuthCode{Hash: hashOf("code"), ClientID: "c", UserID: alice.ID,
			ExpiresAt: time.Now().Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
		const n = 8
		errs := make(chan error, n)
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				_, err := s.ConsumeAuthCode(ctx, hashOf("code"))
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		var ok, conflict int
		for err := range errs {
			switch {
			case err == nil:
				ok++
			case errors.Is(err, store.ErrConflict):
				conflict++
			default:
				t.Error(err)
			}
		}
		if ok != 1 || conflict != n-1 {
			t.Errorf("%d exchanges succeeded and %d conflicted, want 1 and %d", ok, conflict, n-1)
		}
	})
}

func TestOAuthTokens(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "alice"))(t)
		bob := must.Get(s.CreateUser(ctx, "bob"))(t)
		exp := time.Date(2030, 1, 2, 3, 4, 5, 6e6, time.UTC)
		first := pair("f", alice.ID, "a1", "r1", exp)
		if err := s.SaveOAuthTokens(ctx, first...); err != nil {
			t.Fatal(err)
		}
		tok, u, err := s.OAuthTokenByHash(ctx, hashOf("a1"))
		if err != nil || u != alice || !slices.Equal(tok.Hash, first[0].Hash) || tok.Kind != store.TokenAccess ||
			tok.Family != "f" || tok.ClientID != "client-1" || tok.UserID != alice.ID || tok.Scope != "expenses" ||
			tok.Resource != "https://example.com/mcp" || !tok.ExpiresAt.Equal(exp) {
			t.Errorf("OAuthTokenByHash = %+v, %+v, %v", tok, u, err)
		}
		if _, _, err := s.OAuthTokenByHash(ctx, hashOf("nope")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown token: %v", err)
		}
		// One transaction: a taken hash in the batch keeps the others out.
		batch := append(pair("g", bob.ID, "b1", "b2", exp), first[0])
		if err := s.SaveOAuthTokens(ctx, batch...); !errors.Is(err, store.ErrConflict) {
			t.Errorf("taken hash: %v, want ErrConflict", err)
		}
		if live(t, s, "b1") {
			t.Error("half a batch saved")
		}
		if err := s.SaveOAuthTokens(ctx, pair("g", "nobody", "b1", "b2", exp)...); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("token of an unknown user: %v, want ErrNotFound", err)
		}
		bad := pair("g", bob.ID, "b1", "b2", exp)
		bad[1].Kind = "id"
		if err := s.SaveOAuthTokens(ctx, bad...); err == nil {
			t.Error("token of kind id saved")
		}
		bad = pair("", bob.ID, "b1", "b2", exp)
		if err := s.SaveOAuthTokens(ctx, bad...); err == nil {
			t.Error("token without a family saved")
		}

		// Rotation: the old refresh token is used up, the new ones work.
		old := must.Get(s.RotateRefreshToken(ctx, hashOf("r1"), pair("f", alice.ID, "a2", "r2", exp)...))(t)
		if !slices.Equal(old.Hash, hashOf("r1")) || old.Kind != store.TokenRefresh || old.Family != "f" || old.UserID != alice.ID {
			t.Errorf("RotateRefreshToken = %+v", old)
		}
		if live(t, s, "r1") {
			t.Error("rotated refresh token still valid")
		}
		if !live(t, s, "a1") || !live(t, s, "a2") || !live(t, s, "r2") {
			t.Error("tokens after rotation not valid")
		}
		if _, err := s.RotateRefreshToken(ctx, hashOf("a2"), pair("f", alice.ID, "a3", "r3", exp)...); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("rotating an access token: %v, want ErrNotFound", err)
		}
		if _, err := s.RotateRefreshToken(ctx, hashOf("nope"), pair("f", alice.ID, "a3", "r3", exp)...); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("rotating an unknown token: %v, want ErrNotFound", err)
		}
		if live(t, s, "a3") || live(t, s, "r3") {
			t.Error("tokens of a refused rotation saved")
		}
		// A rotation whose new tokens cannot be saved changes nothing.
		if _, err := s.RotateRefreshToken(ctx, hashOf("r2"), pair("f", alice.ID, "a1", "r3", exp)...); !errors.Is(err, store.ErrConflict) {
			t.Errorf("rotation to a taken hash: %v, want ErrConflict", err)
		}
		if !live(t, s, "r2") || live(t, s, "r3") {
			t.Error("a failed rotation used the old token or kept the new")
		}

		// The old refresh token again (RFC 9700 4.14.2): the whole family goes.
		if _, err := s.RotateRefreshToken(ctx, hashOf("r1"), pair("f", alice.ID, "a4", "r4", exp)...); !errors.Is(err, store.ErrConflict) {
			t.Errorf("reused refresh token: %v, want ErrConflict", err)
		}
		for _, secret := range []string{"a1", "a2", "r2", "a4", "r4"} {
			if live(t, s, secret) {
				t.Errorf("token %s valid after the reuse of its family's refresh token", secret)
			}
		}
		if err := s.SaveOAuthTokens(ctx, pair("g", bob.ID, "b1", "b2", exp)...); err != nil {
			t.Fatal(err)
		}
		if !live(t, s, "b1") || !live(t, s, "b2") {
			t.Error("another family revoked by the reuse")
		}
	})
}

func TestRevokeOAuthToken(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "alice"))(t)
		exp := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		for _, fam := range []string{"f", "g"} {
			if err := s.SaveOAuthTokens(ctx, pair(fam, alice.ID, fam+"-a", fam+"-r", exp)...); err != nil {
				t.Fatal(err)
			}
		}
		must.Get(s.RotateRefreshToken(ctx, hashOf("f-r"), pair("f", alice.ID, "f-a2", "f-r2", exp)...))(t)
		tok := must.Get(s.RevokeOAuthToken(ctx, hashOf("f-r2")))(t)
		if tok.Family != "f" || tok.Kind != store.TokenRefresh || !slices.Equal(tok.Hash, hashOf("f-r2")) {
			t.Errorf("RevokeOAuthToken = %+v", tok)
		}
		for _, secret := range []string{"f-a", "f-a2", "f-r2"} {
			if live(t, s, secret) {
				t.Errorf("token %s valid after its family's revocation", secret)
			}
		}
		if !live(t, s, "g-a") || !live(t, s, "g-r") {
			t.Error("another family revoked")
		}
		if _, err := s.RevokeOAuthToken(ctx, hashOf("f-a")); err != nil {
			t.Errorf("revoking again: %v", err)
		}
		if _, err := s.RevokeOAuthToken(ctx, hashOf("nope")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown token: %v, want ErrNotFound", err)
		}
		// Revoking an access token takes its refresh token with it.
		must.Get(s.RevokeOAuthToken(ctx, hashOf("g-a")))(t)
		if live(t, s, "g-r") {
			t.Error("refresh token valid after the revocation of its access token")
		}
	})
}

func TestDeleteExpiredOAuth(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "alice"))(t)
		cut := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		past, future := cut.Add(-time.Millisecond), cut.Add(time.Hour)
		for _, c := range []struct {
			secret string
			exp    time.Time
		}{{"old-code", past}, {"new-code", future}, {"edge-code", cut}} {
			if err := s.SaveAuthCode(ctx, store.AuthCode{Hash: hashOf(c.secret), ClientID: "c", UserID: alice.ID, ExpiresAt: c.exp}); err != nil {
				t.Fatal(err)
			}
		}
		old := pair("f", alice.ID, "old-a", "old-r", past)
		old[1].ExpiresAt = future // the refresh token outlives the access token
		if err := s.SaveOAuthTokens(ctx, old...); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveOAuthTokens(ctx, pair("g", alice.ID, "gone-a", "gone-r", past)...); err != nil {
			t.Fatal(err)
		}
		if n := must.Get(s.DeleteExpiredOAuth(ctx, cut))(t); n != 4 {
			t.Errorf("DeleteExpiredOAuth = %d, want 4 (a code, three tokens)", n)
		}
		if _, err := s.ConsumeAuthCode(ctx, hashOf("old-code")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("expired code: %v, want ErrNotFound", err)
		}
		for _, secret := range []string{"new-code", "edge-code"} {
			if _, err := s.ConsumeAuthCode(ctx, hashOf(secret)); err != nil {
				t.Errorf("code %s: %v", secret, err)
			}
		}
		for secret, want := range map[string]bool{"old-a": false, "old-r": true, "gone-a": false, "gone-r": false} {
			if live(t, s, secret) != want {
				t.Errorf("token %s valid %v, want %v", secret, !want, want)
			}
		}
		if n := must.Get(s.DeleteExpiredOAuth(ctx, cut))(t); n != 0 {
			t.Errorf("DeleteExpiredOAuth again = %d, want 0", n)
		}
		// Both families take new tokens: the one whose tokens all went, and the one still in use.
		if err := s.SaveOAuthTokens(ctx, pair("g", alice.ID, "g-a", "g-r", future)...); err != nil {
			t.Error(err)
		}
		must.Get(s.RotateRefreshToken(ctx, hashOf("old-r"), pair("f", alice.ID, "f-a", "f-r", future)...))(t)
	})
}

func TestPasswords(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "Alice"))(t)
		bob := must.Get(s.CreateUser(ctx, "bob"))(t)
		if err := s.SetPassword(ctx, "nobody", "$argon2id$x"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("password of an unknown user: %v, want ErrNotFound", err)
		}
		si := must.Get(s.SignInByName(ctx, "ALICE"))(t)
		if si.User != alice || si.Hash != "" || si.Failures != 0 || !si.LockedUntil.IsZero() {
			t.Errorf("without a password: %+v", si)
		}
		if _, err := s.SignInByName(ctx, "carol"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown name: %v, want ErrNotFound", err)
		}
		if err := s.SetPassword(ctx, alice.ID, "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"); err != nil {
			t.Fatal(err)
		}
		if si := must.Get(s.SignInByName(ctx, "alice"))(t); si.User != alice || si.Hash != "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA" {
			t.Errorf("SignInByName = %+v", si)
		}
		if err := s.SetPassword(ctx, alice.ID, "$argon2id$second"); err != nil {
			t.Fatal(err)
		}
		if si := must.Get(s.SignInByName(ctx, "alice"))(t); si.Hash != "$argon2id$second" {
			t.Errorf("replaced password: %q", si.Hash)
		}

		until := time.Date(2030, 1, 1, 0, 15, 0, 0, time.UTC)
		for i := 1; i <= 2; i++ {
			si := must.Get(s.RecordSignInFailure(ctx, alice.ID, 3, until))(t)
			if si.Failures != i || !si.LockedUntil.IsZero() || si.User != alice || si.Hash != "$argon2id$second" {
				t.Errorf("failure %d: %+v", i, si)
			}
		}
		if err := s.ClearSignInFailures(ctx, alice.ID); err != nil {
			t.Fatal(err)
		}
		if si := must.Get(s.SignInByName(ctx, "alice"))(t); si.Failures != 0 {
			t.Errorf("failures after ClearSignInFailures: %d", si.Failures)
		}
		for i := 1; i <= 3; i++ {
			si = must.Get(s.RecordSignInFailure(ctx, alice.ID, 3, until))(t)
		}
		if si.Failures != 0 || !si.LockedUntil.Equal(until) {
			t.Errorf("third failure of three: %+v, want locked until %v", si, until)
		}
		if got := must.Get(s.SignInByName(ctx, "alice"))(t); got != si {
			t.Errorf("SignInByName = %+v, want %+v", got, si)
		}
		// The next failures count again from 0 and leave the lock as it was until the next lock.
		if si := must.Get(s.RecordSignInFailure(ctx, alice.ID, 3, until.Add(time.Hour)))(t); si.Failures != 1 || !si.LockedUntil.Equal(until) {
			t.Errorf("failure after the lock: %+v", si)
		}
		if err := s.SetPassword(ctx, alice.ID, "$argon2id$third"); err != nil {
			t.Fatal(err)
		}
		if si := must.Get(s.SignInByName(ctx, "alice"))(t); si.Failures != 0 || !si.LockedUntil.IsZero() || si.Hash != "$argon2id$third" {
			t.Errorf("after SetPassword: %+v", si)
		}

		// A user without a password counts failures too; unknown users are not found.
		if si := must.Get(s.RecordSignInFailure(ctx, bob.ID, 5, until))(t); si.Failures != 1 || si.Hash != "" || si.User != bob {
			t.Errorf("failure of a user without a password: %+v", si)
		}
		if _, err := s.RecordSignInFailure(ctx, "nobody", 5, until); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("failure of an unknown user: %v, want ErrNotFound", err)
		}
		if err := s.ClearSignInFailures(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("clearing an unknown user: %v, want ErrNotFound", err)
		}
		carol := must.Get(s.CreateUser(ctx, "carol"))(t)
		if err := s.ClearSignInFailures(ctx, carol.ID); err != nil {
			t.Errorf("clearing a user without failures: %v", err)
		}
	})
}

// TestSignInFailuresConcurrent: failures recorded at the same time all count, and exactly one of
// them locks.
func TestSignInFailuresConcurrent(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "alice"))(t)
		if err := s.SetPassword(ctx, alice.ID, "$argon2id$x"); err != nil {
			t.Fatal(err)
		}
		until := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		run := func(n, lockAfter int) (locks int) {
			states := make(chan store.SignIn, n)
			var wg sync.WaitGroup
			for range n {
				wg.Go(func() {
					si, err := s.RecordSignInFailure(ctx, alice.ID, lockAfter, until)
					if err != nil {
						t.Error(err)
					}
					states <- si
				})
			}
			wg.Wait()
			close(states)
			for si := range states {
				if !si.LockedUntil.IsZero() && si.Failures == 0 {
					locks++
				}
			}
			return locks
		}
		if locks := run(8, 100); locks != 0 {
			t.Errorf("%d locks before lockAfter", locks)
		}
		if si := must.Get(s.SignInByName(ctx, "alice"))(t); si.Failures != 8 || !si.LockedUntil.IsZero() {
			t.Errorf("after 8 concurrent failures: %+v, want 8 failures", si)
		}
		if err := s.SetPassword(ctx, alice.ID, "$argon2id$x"); err != nil {
			t.Fatal(err)
		}
		if locks := run(8, 5); locks != 1 {
			t.Errorf("8 concurrent failures with lockAfter 5 locked %d times, want 1", locks)
		}
		if si := must.Get(s.SignInByName(ctx, "alice"))(t); si.Failures != 3 || !si.LockedUntil.Equal(until) {
			t.Errorf("after 8 concurrent failures with lockAfter 5: %+v, want 3 failures, locked", si)
		}
	})
}

// TestRevokeDuringRotation: a family revoked while one of its refresh tokens is rotated loses
// the new tokens too, whichever commits first (on PostgreSQL the two run truly at once).
func TestRevokeDuringRotation(t *testing.T) {
	storetest.Engines(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		alice := must.Get(s.CreateUser(ctx, "alice"))(t)
		exp := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := range 30 {
			fam := "f" + strconv.Itoa(i)
			if err := s.SaveOAuthTokens(ctx, pair(fam, alice.ID, fam+"a", fam+"r", exp)...); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			wg.Go(func() {
				_, err := s.RotateRefreshToken(ctx, hashOf(fam+"r"), pair(fam, alice.ID, fam+"a2", fam+"r2", exp)...)
				if err != nil && !errors.Is(err, store.ErrNotFound) {
					t.Error(err)
				}
			})
			wg.Go(func() {
				if _, err := s.RevokeOAuthToken(ctx, hashOf(fam+"a")); err != nil {
					t.Error(err)
				}
			})
			wg.Wait()
			for _, secret := range []string{"a", "r", "a2", "r2"} {
				if live(t, s, fam+secret) {
					t.Errorf("token %s%s valid after its family's revocation", fam, secret)
				}
			}
		}
	})
}
