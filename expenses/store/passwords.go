package store

import (
	"context"
	"database/sql"
	"time"
)

// This file keeps users' password hashes and their sign-in failures, for the authorization
// server's sign-in (expenses/oauth): the hashes are made elsewhere (expenses/password), the store
// never sees a password.

// SignIn is a user's password state.
type SignIn struct {
	User        User
	Hash        string    // the encoded password hash; "" when the user has no password
	Failures    int       // consecutive failed sign-ins since the last success or lock
	LockedUntil time.Time // zero when not locked
}

// SetPassword sets or replaces the user's password hash (an encoded Argon2id string made
// elsewhere: the store never sees a password) and clears failures and lock. An unknown user gives
// ErrNotFound.
func (s *Store) SetPassword(ctx context.Context, userID, hash string) error {
	err := s.write(ctx, func(t tx) error {
		_, err := t.exec(ctx, `INSERT INTO passwords (user_id, hash, failures, locked_until) VALUES (?, ?, 0, NULL)
			ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, failures = 0, locked_until = NULL`,
			userID, hash)
		return err
	})
	return wrap(err, "set password of user %s", userID)
}

// signInQuery selects a SignIn; a condition on u follows. A user without a passwords row has no
// password, no failures and no lock.
const signInQuery = `SELECT u.id, u.name, p.id, u.created_at, COALESCE(pw.hash, ''), COALESCE(pw.failures, 0), pw.locked_until
	FROM users u JOIN people p ON p.user_id = u.id LEFT JOIN passwords pw ON pw.user_id = u.id `

func scanSignIn(row interface{ Scan(...any) error }) (SignIn, error) {
	var (
		si     SignIn
		ms     int64
		fails  int64
		locked sql.NullInt64
	)
	if err := row.Scan(&si.User.ID, &si.User.Name, &si.User.PersonID, &ms, &si.Hash, &fails, &locked); err != nil {
		return SignIn{}, err
	}
	si.User.CreatedAt, si.Failures = fromMillis(ms), int(fails)
	if locked.Valid {
		si.LockedUntil = fromMillis(locked.Int64)
	}
	return si, nil
}

// SignInByName returns the password state of the user of that name, in any letter case (as
// UserByName); ErrNotFound when unknown.
func (s *Store) SignInByName(ctx context.Context, name string) (SignIn, error) {
	si, err := scanSignIn(s.r.QueryRowContext(ctx, rebind(s.dialect, signInQuery+`WHERE u.name_key = ?`), nameKey(name)))
	return si, wrap(err, "sign-in of user %q", name)
}

// RecordSignInFailure counts a failed sign-in of the user, atomically (one UPDATE adding 1, so
// concurrent guesses all count). When the failures reach lockAfter, the user is locked until
// until and the failures start again from 0. It returns the new state; an unknown user gives
// ErrNotFound.
func (s *Store) RecordSignInFailure(ctx context.Context, userID string, lockAfter int, until time.Time) (SignIn, error) {
	var si SignIn
	err := s.write(ctx, func(t tx) error {
		if _, err := t.exec(ctx, `INSERT INTO passwords (user_id) VALUES (?) ON CONFLICT (user_id) DO NOTHING`, userID); err != nil {
			return err
		}
		// Every expression on the right reads the row as it was before the update.
		if _, err := t.exec(ctx, `UPDATE passwords SET
			failures = CASE WHEN failures + 1 >= ?1 THEN 0 ELSE failures + 1 END,
			locked_until = CASE WHEN failures + 1 >= ?1 THEN ?2 ELSE locked_until END
			WHERE user_id = ?3`, int64(lockAfter), millis(until), userID); err != nil {
			return err
		}
		var err error
		si, err = scanSignIn(t.queryRow(ctx, signInQuery+`WHERE u.id = ?`, userID))
		return err
	})
	if err != nil {
		return SignIn{}, wrap(err, "record sign-in failure of user %s", userID)
	}
	return si, nil
}

// ClearSignInFailures resets the user's failures, after a successful sign-in; the lock, if any,
// stays. An unknown user gives ErrNotFound.
func (s *Store) ClearSignInFailures(ctx context.Context, userID string) error {
	err := s.write(ctx, func(t tx) error {
		res, err := t.exec(ctx, `UPDATE passwords SET failures = 0 WHERE user_id = ?`, userID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		var one int
		return t.queryRow(ctx, `SELECT 1 FROM users WHERE id = ?`, userID).Scan(&one)
	})
	return wrap(err, "clear sign-in failures of user %s", userID)
}
