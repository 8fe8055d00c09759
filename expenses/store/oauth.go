package store

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// The store's side of the OAuth 2.1 authorization server of the MCP endpoint (MCP authorization,
// 2025-11-25): registered clients, authorization codes, access and refresh tokens, and users'
// passwords with their sign-in lockout. Codes and tokens are stored under the SHA-256 hash only
// (hex), never in the clear; the store judges no expiry and checks no PKCE verifier: the caller
// does, with the times and values returned.
//
// Tokens belong to a family, the grant they descend from: the tokens issued for one
// authorization code and every refresh of them. Revocation works on whole families (RFC 6749
// 4.1.2, RFC 7009 2.1, RFC 9700 4.14.2). Each family has a row in oauth_families that every
// write adding tokens to it or revoking it updates first, so that on PostgreSQL those writes
// queue on the row and a revocation sees every token committed before it; the row keeps the
// revocation, so tokens saved into a revoked family are refused with ErrConflict.

// OAuthClient is a client registered by dynamic client registration (RFC 7591).
type OAuthClient struct {
	ID           string
	Name         string
	RedirectURIs []string // exact strings, order kept (RFC 7591 2: redirect_uris)
	CreatedAt    time.Time
}

// CreateOAuthClient stores c, whose ID the caller chose; a taken ID gives ErrConflict. A zero
// CreatedAt is stored as the current time.
func (s *Store) CreateOAuthClient(ctx context.Context, c OAuthClient) error {
	uris := c.RedirectURIs
	if uris == nil {
		uris = []string{}
	}
	j, err := json.Marshal(uris)
	if err != nil {
		return fmt.Errorf("store: create oauth client %s: %w", c.ID, err)
	}
	at := c.CreatedAt
	if at.IsZero() {
		at = now()
	}
	err = s.write(ctx, func(t tx) error {
		_, err := t.exec(ctx, `INSERT INTO oauth_clients (id, name, redirect_uris, created_at) VALUES (?, ?, ?, ?)`,
			c.ID, c.Name, string(j), millis(at))
		return err
	})
	return wrap(err, "create oauth client %s", c.ID)
}

// OAuthClientByID returns a registered client; ErrNotFound when unknown.
func (s *Store) OAuthClientByID(ctx context.Context, id string) (OAuthClient, error) {
	var (
		c    OAuthClient
		uris string
		ms   int64
	)
	err := s.r.QueryRowContext(ctx, rebind(s.dialect,
		`SELECT id, name, redirect_uris, created_at FROM oauth_clients WHERE id = ?`), id).
		Scan(&c.ID, &c.Name, &uris, &ms)
	if err != nil {
		return OAuthClient{}, wrap(err, "oauth client %s", id)
	}
	if err := json.Unmarshal([]byte(uris), &c.RedirectURIs); err != nil {
		return OAuthClient{}, fmt.Errorf("store: oauth client %s: redirect uris: %w", id, err)
	}
	c.CreatedAt = fromMillis(ms)
	return c, nil
}

// AuthCode is an authorization code's grant (RFC 6749 4.1), stored under the SHA-256 hash of the
// code only.
type AuthCode struct {
	Hash        []byte
	ClientID    string
	UserID      string
	RedirectURI string
	Challenge   string // the PKCE S256 code_challenge (RFC 7636 4.2)
	Scope       string // space-separated (RFC 6749 3.3)
	Resource    string // the resource the tokens are for (RFC 8707 2)
	ExpiresAt   time.Time
}

// SaveAuthCode stores a new authorization code. A hash already stored gives ErrConflict, an
// unknown user ErrNotFound.
func (s *Store) SaveAuthCode(ctx context.Context, c AuthCode) error {
	err := s.write(ctx, func(t tx) error {
		_, err := t.exec(ctx, `INSERT INTO oauth_codes
			(hash, client_id, user_id, redirect_uri, challenge, scope, resource, expires_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			hex.EncodeToString(c.Hash), c.ClientID, c.UserID, c.RedirectURI, c.Challenge, c.Scope,
			c.Resource, millis(c.ExpiresAt))
		return err
	})
	return wrap(err, "save authorization code")
}

// ConsumeAuthCode marks the code of that hash used and returns it, in one transaction; an
// unknown code gives ErrNotFound. A code already used is denied with ErrConflict, and the tokens
// issued from it, the family CodeFamily(hash), are revoked (RFC 6749 4.1.2: the authorization
// server MUST deny a second use and SHOULD revoke the tokens issued on the code); the
// revocation is committed. Expiry is not judged (the caller compares ExpiresAt), but an expired
// code is consumed all the same.
func (s *Store) ConsumeAuthCode(ctx context.Context, hash []byte) (AuthCode, error) {
	var (
		c      AuthCode
		reused bool
	)
	h := hex.EncodeToString(hash)
	err := s.write(ctx, func(t tx) error {
		res, err := t.exec(ctx, `UPDATE oauth_codes SET used = ? WHERE hash = ? AND used = 0`, millis(now()), h)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		var ms int64
		err = t.queryRow(ctx, `SELECT client_id, user_id, redirect_uri, challenge, scope, resource, expires_at
			FROM oauth_codes WHERE hash = ?`, h).
			Scan(&c.ClientID, &c.UserID, &c.RedirectURI, &c.Challenge, &c.Scope, &c.Resource, &ms)
		if err != nil {
			return err
		}
		c.Hash, c.ExpiresAt = slices.Clone(hash), fromMillis(ms)
		if n == 1 {
			return nil
		}
		reused = true
		return revokeFamily(ctx, t, CodeFamily(hash))
	})
	if err == nil && reused {
		err = ErrConflict
	}
	if err != nil {
		return AuthCode{}, wrap(err, "consume authorization code")
	}
	return c, nil
}

// CodeFamily returns the family of the tokens issued from the code of that hash: the hash in
// lowercase hex.
func CodeFamily(codeHash []byte) string { return hex.EncodeToString(codeHash) }

// Token kinds (RFC 6749 1.4 and 1.5).
const (
	TokenAccess  = "access"
	TokenRefresh = "refresh"
)

// OAuthToken is an issued access or refresh token, stored under the SHA-256 hash only.
type OAuthToken struct {
	Hash      []byte
	Kind      string // TokenAccess or TokenRefresh
	Family    string // all tokens descending from one authorization code share it
	ClientID  string
	UserID    string
	Scope     string
	Resource  string
	ExpiresAt time.Time
}

// SaveOAuthTokens stores the tokens in one transaction. A token of another kind than
// TokenAccess and TokenRefresh, or without a family, is an error; a hash already stored, or a
// family already revoked (a code replayed, or a refresh token reused, since the tokens were
// made), gives ErrConflict; an unknown user ErrNotFound.
func (s *Store) SaveOAuthTokens(ctx context.Context, toks ...OAuthToken) error {
	if err := checkTokens(toks); err != nil {
		return err
	}
	err := s.write(ctx, func(t tx) error {
		revoked, err := lockFamilies(ctx, t, families(toks))
		if err != nil {
			return err
		}
		if revoked != "" {
			return fmt.Errorf("%w: family %s is revoked", ErrConflict, revoked)
		}
		return insertTokens(ctx, t, toks)
	})
	return wrap(err, "save oauth tokens")
}

// OAuthTokenByHash returns the token of that hash with its user, if the token is neither
// revoked nor used (a rotated refresh token is used); otherwise ErrNotFound. Expiry is not
// judged: the caller compares ExpiresAt.
func (s *Store) OAuthTokenByHash(ctx context.Context, hash []byte) (OAuthToken, User, error) {
	var (
		tok OAuthToken
		u   User
		exp int64
		ms  int64
	)
	err := s.r.QueryRowContext(ctx, rebind(s.dialect,
		`SELECT t.kind, t.family, t.client_id, t.scope, t.resource, t.expires_at,
		        u.id, u.name, p.id, u.created_at
		 FROM oauth_tokens t JOIN users u ON u.id = t.user_id JOIN people p ON p.user_id = u.id
		 WHERE t.hash = ? AND t.used = 0 AND t.revoked = 0`), hex.EncodeToString(hash)).
		Scan(&tok.Kind, &tok.Family, &tok.ClientID, &tok.Scope, &tok.Resource, &exp,
			&u.ID, &u.Name, &u.PersonID, &ms)
	if err != nil {
		return OAuthToken{}, User{}, wrap(err, "oauth token")
	}
	tok.Hash, tok.UserID, tok.ExpiresAt = slices.Clone(hash), u.ID, fromMillis(exp)
	u.CreatedAt = fromMillis(ms)
	return tok, u, nil
}

// RotateRefreshToken exchanges a refresh token for the next tokens, in one transaction: the
// refresh token of hash old is marked used, next are saved, and the old token is returned. An
// unknown or revoked old token, or one that is not a refresh token, gives ErrNotFound. An old
// token already used is a refresh token replayed after rotation (OAuth 2.1 4.3.1, RFC 9700
// 4.14.2): its whole family is revoked, that revocation committed, and ErrConflict returned.
// Saving next can fail as SaveOAuthTokens does, and then nothing changes.
func (s *Store) RotateRefreshToken(ctx context.Context, old []byte, next ...OAuthToken) (OAuthToken, error) {
	if err := checkTokens(next); err != nil {
		return OAuthToken{}, err
	}
	var (
		tok    OAuthToken
		reused bool
	)
	h := hex.EncodeToString(old)
	err := s.write(ctx, func(t tx) error {
		first, _, _, err := tokenByHash(ctx, t, old)
		if err != nil {
			return err
		}
		// Lock the families, then read the token again: a concurrent rotation of it or
		// revocation of its family has either committed by now or waits for this one.
		revoked, err := lockFamilies(ctx, t, append(families(next), first.Family))
		if err != nil {
			return err
		}
		var used, gone int64
		tok, used, gone, err = tokenByHash(ctx, t, old)
		switch {
		case err != nil:
			return err
		case used != 0:
			reused = true
			return revokeFamily(ctx, t, tok.Family)
		case gone != 0 || tok.Kind != TokenRefresh:
			return ErrNotFound
		case revoked != "":
			return fmt.Errorf("%w: family %s is revoked", ErrConflict, revoked)
		}
		if _, err := t.exec(ctx, `UPDATE oauth_tokens SET used = ? WHERE hash = ?`, millis(now()), h); err != nil {
			return err
		}
		return insertTokens(ctx, t, next)
	})
	if err == nil && reused {
		err = ErrConflict
	}
	if err != nil {
		return OAuthToken{}, wrap(err, "rotate refresh token")
	}
	return tok, nil
}

// RevokeOAuthToken revokes the family of the token of that hash, the token included, and returns
// the token; ErrNotFound when unknown. Revoking a refresh token revokes the access tokens of its
// grant (RFC 7009 2.1), and an access token its refresh token (which 2.1 allows). Revoking again
// is no error.
func (s *Store) RevokeOAuthToken(ctx context.Context, hash []byte) (OAuthToken, error) {
	var tok OAuthToken
	err := s.write(ctx, func(t tx) error {
		var err error
		if tok, _, _, err = tokenByHash(ctx, t, hash); err != nil {
			return err
		}
		return revokeFamily(ctx, t, tok.Family)
	})
	if err != nil {
		return OAuthToken{}, wrap(err, "revoke oauth token")
	}
	return tok, nil
}

// DeleteExpiredOAuth deletes the codes and tokens that expired before now, and returns how many
// it deleted. (Families left without codes or tokens go too, uncounted.) Housekeeping: the other
// methods judge no expiry, so expired rows are merely dead weight.
func (s *Store) DeleteExpiredOAuth(ctx context.Context, now time.Time) (int64, error) {
	var total int64
	err := s.write(ctx, func(t tx) error {
		total = 0
		for _, q := range []string{
			`DELETE FROM oauth_codes WHERE expires_at < ?`,
			`DELETE FROM oauth_tokens WHERE expires_at < ?`,
		} {
			res, err := t.exec(ctx, q, millis(now))
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			total += n
		}
		_, err := t.exec(ctx, `DELETE FROM oauth_families
			WHERE NOT EXISTS (SELECT 1 FROM oauth_tokens t WHERE t.family = oauth_families.family)
			  AND NOT EXISTS (SELECT 1 FROM oauth_codes c WHERE c.hash = oauth_families.family)`)
		return err
	})
	if err != nil {
		return 0, wrap(err, "delete expired oauth codes and tokens")
	}
	return total, nil
}

// checkTokens rejects tokens the store cannot keep apart: an unknown kind, or no family (which
// would put them in one family with every other such token).
func checkTokens(toks []OAuthToken) error {
	for _, tok := range toks {
		if tok.Kind != TokenAccess && tok.Kind != TokenRefresh {
			return fmt.Errorf("store: oauth token of kind %q", tok.Kind)
		}
		if tok.Family == "" {
			return errors.New("store: oauth token without a family")
		}
	}
	return nil
}

// families lists the families of toks.
func families(toks []OAuthToken) []string {
	fams := make([]string, 0, len(toks)+1)
	for _, tok := range toks {
		fams = append(fams, tok.Family)
	}
	return fams
}

// lockFamilies locks the families in order (so that two writers never wait on each other) and
// returns one of them that is revoked, or "".
func lockFamilies(ctx context.Context, t tx, fams []string) (revoked string, err error) {
	slices.Sort(fams)
	for _, f := range slices.Compact(fams) {
		r, err := lockFamily(ctx, t, f)
		if err != nil {
			return "", err
		}
		if r && revoked == "" {
			revoked = f
		}
	}
	return revoked, nil
}

// insertTokens inserts toks, whose families the transaction has locked.
func insertTokens(ctx context.Context, t tx, toks []OAuthToken) error {
	at := millis(now())
	for _, tok := range toks {
		if _, err := t.exec(ctx, `INSERT INTO oauth_tokens
			(hash, kind, family, client_id, user_id, scope, resource, expires_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			hex.EncodeToString(tok.Hash), tok.Kind, tok.Family, tok.ClientID, tok.UserID, tok.Scope,
			tok.Resource, millis(tok.ExpiresAt), at); err != nil {
			return err
		}
	}
	return nil
}

// lockFamily makes sure the family has its row and locks that row for the rest of the
// transaction (a no-op update: PostgreSQL makes other writers of the row wait until the
// commit, and SQLite has one writer anyway). It tells whether the family is revoked.
func lockFamily(ctx context.Context, t tx, family string) (revoked bool, err error) {
	if _, err := t.exec(ctx, `INSERT INTO oauth_families (family) VALUES (?) ON CONFLICT (family) DO NOTHING`,
		family); err != nil {
		return false, err
	}
	if _, err := t.exec(ctx, `UPDATE oauth_families SET revoked = revoked WHERE family = ?`, family); err != nil {
		return false, err
	}
	var at int64
	if err := t.queryRow(ctx, `SELECT revoked FROM oauth_families WHERE family = ?`, family).Scan(&at); err != nil {
		return false, err
	}
	return at != 0, nil
}

// revokeFamily revokes the family and every token in it. The family's row is locked first, so
// the tokens update, a statement of its own, sees every token a concurrent writer added.
func revokeFamily(ctx context.Context, t tx, family string) error {
	if _, err := lockFamily(ctx, t, family); err != nil {
		return err
	}
	at := millis(now())
	if _, err := t.exec(ctx, `UPDATE oauth_families SET revoked = ? WHERE family = ? AND revoked = 0`, at, family); err != nil {
		return err
	}
	_, err := t.exec(ctx, `UPDATE oauth_tokens SET revoked = ? WHERE family = ? AND revoked = 0`, at, family)
	return err
}

// tokenByHash reads a token in a write transaction, whatever its state, with the times it was
// used and revoked (0: not yet).
func tokenByHash(ctx context.Context, t tx, hash []byte) (tok OAuthToken, used, revoked int64, err error) {
	var exp int64
	err = t.queryRow(ctx, `SELECT kind, family, client_id, user_id, scope, resource, expires_at, used, revoked
		FROM oauth_tokens WHERE hash = ?`, hex.EncodeToString(hash)).
		Scan(&tok.Kind, &tok.Family, &tok.ClientID, &tok.UserID, &tok.Scope, &tok.Resource, &exp, &used, &revoked)
	if err != nil {
		return OAuthToken{}, 0, 0, err
	}
	tok.Hash, tok.ExpiresAt = slices.Clone(hash), fromMillis(exp)
	return tok, used, revoked, nil
}
