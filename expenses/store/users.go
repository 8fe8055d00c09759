package store

import (
	"context"
	"database/sql"
	"encoding/hex"
	"time"
)

// User is an account. Each user has a Person, their identity in expenses and groups.
type User struct {
	ID        string
	Name      string
	PersonID  string
	CreatedAt time.Time
}

const userColumns = `u.id, u.name, p.id, u.created_at FROM users u JOIN people p ON p.user_id = u.id`

func scanUser(row interface{ Scan(...any) error }) (User, error) {
	var (
		u  User
		ms int64
	)
	if err := row.Scan(&u.ID, &u.Name, &u.PersonID, &ms); err != nil {
		return User{}, err
	}
	u.CreatedAt = fromMillis(ms)
	return u, nil
}

// CreateUser creates a user and their person in one transaction. A name already taken (in any
// letter case) gives ErrConflict.
func (s *Store) CreateUser(ctx context.Context, name string) (User, error) {
	u := User{ID: newID(), Name: name, PersonID: newID(), CreatedAt: now()}
	err := s.write(ctx, func(t tx) error {
		if _, err := t.exec(ctx, `INSERT INTO users (id, name, name_key, created_at) VALUES (?, ?, ?, ?)`,
			u.ID, name, nameKey(name), millis(u.CreatedAt)); err != nil {
			return err
		}
		_, err := t.exec(ctx, `INSERT INTO people (id, name, name_key, user_id) VALUES (?, ?, ?, ?)`,
			u.PersonID, name, nameKey(name), u.ID)
		return err
	})
	if err != nil {
		return User{}, wrap(err, "create user %q", name)
	}
	return u, nil
}

// UserByName finds a user by name, in any letter case.
func (s *Store) UserByName(ctx context.Context, name string) (User, error) {
	u, err := scanUser(s.r.QueryRowContext(ctx,
		rebind(s.dialect, `SELECT `+userColumns+` WHERE u.name_key = ?`), nameKey(name)))
	return u, wrap(err, "user %q", name)
}

// UserByID finds a user by id.
func (s *Store) UserByID(ctx context.Context, id string) (User, error) {
	u, err := scanUser(s.r.QueryRowContext(ctx,
		rebind(s.dialect, `SELECT `+userColumns+` WHERE u.id = ?`), id))
	return u, wrap(err, "user %s", id)
}

// ListUsers returns every user, by name.
func (s *Store) ListUsers(ctx context.Context) ([]User, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+userColumns+` ORDER BY u.name_key, u.id`)
	if err != nil {
		return nil, wrap(err, "list users")
	}
	defer rows.Close()
	var users []User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, wrap(err, "list users")
		}
		users = append(users, u)
	}
	return users, wrap(rows.Err(), "list users")
}

// AddToken stores the hash (SHA-256) of a bearer token of the user; the token itself is never
// stored. expiresAt nil means the token does not expire.
func (s *Store) AddToken(ctx context.Context, userID string, hash []byte, expiresAt *time.Time) error {
	var exp sql.NullInt64
	if expiresAt != nil {
		exp = sql.NullInt64{Int64: millis(*expiresAt), Valid: true}
	}
	err := s.write(ctx, func(t tx) error {
		_, err := t.exec(ctx, `INSERT INTO tokens (hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
			hex.EncodeToString(hash), userID, millis(now()), exp)
		return err
	})
	return wrap(err, "add token for user %s", userID)
}

// UserByTokenHash returns the user a token hash belongs to and the token's expiry (nil: never).
// It does not judge expiry: the caller compares it with the time. An unknown hash gives
// ErrNotFound.
func (s *Store) UserByTokenHash(ctx context.Context, hash []byte) (User, *time.Time, error) {
	var (
		u   User
		ms  int64
		exp sql.NullInt64
	)
	err := s.r.QueryRowContext(ctx, rebind(s.dialect,
		`SELECT u.id, u.name, p.id, u.created_at, t.expires_at
		 FROM tokens t JOIN users u ON u.id = t.user_id JOIN people p ON p.user_id = u.id
		 WHERE t.hash = ?`), hex.EncodeToString(hash)).Scan(&u.ID, &u.Name, &u.PersonID, &ms, &exp)
	if err != nil {
		return User{}, nil, wrap(err, "token")
	}
	u.CreatedAt = fromMillis(ms)
	return u, nullMillis(exp), nil
}
