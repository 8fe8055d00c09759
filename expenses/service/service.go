// Package service is the shared-expenses application's operations (spec 4.8): one method per
// MCP tool, transport-free. The MCP edge decodes a tool's arguments into the matching input
// struct, authenticates the bearer token with Authenticate and calls the method; it encodes
// the output struct as the result, or an *Error as the tool error {error, code} (spec 7.4).
//
// Money is exact (package money): amounts arrive as JSON numbers (json.Number) and leave as
// decimal strings with exactly the currency's minor-unit digits beside the currency code.
// Splits must add up to the amount exactly (ledger.CheckShares); without splits a group's
// default split applies (ledger.WeightedShares over the members in join order, so the minor
// units left over go to the earliest members: 10.00 EUR / 3 is 3.34, 3.33, 3.33).
//
// People are named as the caller knows them: "me", a friend's name, or the name of a member
// of one of the caller's groups (within the group of the operation when one is given), in any
// letter case. An unknown or ambiguous name is INVALID_INPUT, and the message lists the known
// people or the candidates. In outputs the caller is "me" and everyone else has the name the
// caller knows them by.
//
// Authorization. Expenses and groups are addressed by random 128-bit ids, and groups also
// by name. The rule is:
//   - an id that names no record is NOT_FOUND;
//   - an id of an existing expense or group the caller is not part of (for an expense: the
//     caller neither paid, has a share, recorded it, nor is a member of its group) is
//     FORBIDDEN, for reading and writing alike. The answer reveals nothing of the record: the
//     message is the same as for any other hidden record, and ids cannot be guessed;
//   - a group is looked up by id first (an id names one group, whoever made it), then by name
//     only among the caller's own groups (names are not unique across users), so a name of
//     someone else's group is NOT_FOUND like a missing one; names of the form of an id are
//     refused, and a name several of the caller's groups have is INVALID_INPUT with their ids;
//   - a group the caller is only invited to is FORBIDDEN, except to get_group and join_group.
//
// Consent (consent.go): a registered user is in a debt only with friends (add_friend, asked by
// both) and members of groups they joined (join_group, invited by a friend).
//
// Errors that are not the caller's fault (the database is down) are returned as ordinary
// errors, not *Error; the edge reports them as internal errors without details.
package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bananaqr/bananaqr/expenses/ledger"
	"github.com/bananaqr/bananaqr/expenses/money"
	"github.com/bananaqr/bananaqr/expenses/store"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
)

// Tool error codes (spec 7.4).
const (
	ReasonNotFound     = "NOT_FOUND"
	ReasonInvalidInput = "INVALID_INPUT"
	ReasonUnauthorized = "UNAUTHORIZED"
	ReasonForbidden    = "FORBIDDEN"
)

// Error is a tool error (spec 7.4): Message says what is wrong and how to fix it
// ("unknown person \"Dan\"; known people: Anna, Ben"), Code is one of the Code constants.
type Error struct {
	Message string `json:"error"`
	Reason  string `json:"code"`
	// RetryAfter is, for RATE_LIMITED, the seconds until the call may succeed (like HTTP's
	// Retry-After); absent otherwise.
	RetryAfter int `json:"retryAfter,omitempty"`
}

func (e *Error) Error() string { return e.Reason + ": " + e.Message }

func errorf(code, format string, args ...any) *Error {
	return &Error{Reason: code, Message: fmt.Sprintf(format, args...)}
}

func invalid(format string, args ...any) *Error { return errorf(ReasonInvalidInput, format, args...) }

// toolError maps the errors of the store, money and ledger packages to tool errors; other
// errors pass through unchanged.
func toolError(err error) error {
	var e *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
		return e
	case errors.Is(err, store.ErrNotFound):
		return errorf(ReasonNotFound, "%s", storeMessage(err, store.ErrNotFound))
	case errors.Is(err, store.ErrBadCursor):
		return invalid("invalid cursor; pass the nextCursor of a previous page, or none for the first page")
	case errors.Is(err, store.ErrConflict):
		return invalid("%s", storeMessage(err, store.ErrConflict))
	case errors.Is(err, ledger.ErrInvalid),
		errors.Is(err, money.ErrUnknownCurrency), errors.Is(err, money.ErrSyntax),
		errors.Is(err, money.ErrPrecision), errors.Is(err, money.ErrRange),
		errors.Is(err, money.ErrNotPositive), errors.Is(err, money.ErrWeights):
		return invalid("%s", err.Error())
	}
	return err
}

// storeMessage is the store's account of err for the caller, such as `user "Dan": not
// found`: what the store was doing and the kind of failure, without the database driver's own
// text that follows it (SQL, constraint names).
func storeMessage(err, kind error) string {
	msg := err.Error()
	if i := strings.Index(msg, kind.Error()); i >= 0 {
		msg = msg[:i+len(kind.Error())]
	}
	return strings.ReplaceAll(msg, "store: ", "")
}

// Service is the application: its operations read and write the store.
type Service struct {
	store  *store.Store
	now    func() time.Time
	writes *ratelimit.Memory // nil: writes are not limited (see LimitWrites)
	// writeDecided, when set, learns each decision of the write limit (see ObserveWrites).
	writeDecided func(allowed bool)
}

// New returns the service on st; now is the clock (time.Now when nil).
func New(st *store.Store, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: st, now: now}
}

// Caller is an authenticated user.
type Caller struct {
	UserID   string
	Name     string
	PersonID string
}

// NewToken returns a new bearer token (32 bytes from crypto/rand, base64url without padding)
// and its SHA-256 hash, the only form in which it is stored.
func NewToken() (token string, hash []byte) {
	var b [32]byte
	rand.Read(b[:])
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return token, hashToken(token)
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// IssueToken makes a token for the user of that name, valid for ttl (0: no expiry), stores
// its hash and returns the token.
func (s *Service) IssueToken(ctx context.Context, userName string, ttl time.Duration) (string, error) {
	if ttl < 0 {
		return "", invalid("the lifetime of a token must not be negative")
	}
	u, err := s.store.UserByName(ctx, userName)
	if err != nil {
		return "", toolError(err)
	}
	token, hash := NewToken()
	var exp *time.Time
	if ttl > 0 {
		t := s.now().Add(ttl)
		exp = &t
	}
	if err := s.store.AddToken(ctx, u.ID, hash, exp); err != nil {
		return "", toolError(err)
	}
	return token, nil
}

// BearerToken returns the token of an Authorization header value "Bearer <token>", and ""
// when the header is missing or of another scheme.
func BearerToken(header string) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// Authenticate returns the caller a bearer token belongs to. A missing, unknown or expired
// token is UNAUTHORIZED.
func (s *Service) Authenticate(ctx context.Context, token string) (Caller, error) {
	if token == "" {
		return Caller{}, errorf(ReasonUnauthorized, "authentication required: send Authorization: Bearer <token>")
	}
	u, exp, err := s.store.UserByTokenHash(ctx, hashToken(token))
	if errors.Is(err, store.ErrNotFound) {
		return Caller{}, errorf(ReasonUnauthorized, "unknown token: send a token issued for your account")
	}
	if err != nil {
		return Caller{}, err
	}
	if exp != nil && !s.now().Before(*exp) {
		return Caller{}, errorf(ReasonUnauthorized, "the token expired at %s: get a new one", exp.UTC().Format(time.RFC3339))
	}
	return Caller{UserID: u.ID, Name: u.Name, PersonID: u.PersonID}, nil
}
