package store

import (
	"context"
	"database/sql"
)

// Person is someone who can pay or owe: a registered user's identity (UserID set) or a named
// placeholder for a friend or group member without an account.
type Person struct {
	ID     string
	Name   string
	UserID *string
}

func scanPerson(row interface{ Scan(...any) error }) (Person, error) {
	var (
		p   Person
		uid sql.NullString
	)
	if err := row.Scan(&p.ID, &p.Name, &uid); err != nil {
		return Person{}, err
	}
	p.UserID = nullString(uid)
	return p, nil
}

func collectPeople(rows *sql.Rows, err error) ([]Person, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var people []Person
	for rows.Next() {
		p, err := scanPerson(rows)
		if err != nil {
			return nil, err
		}
		people = append(people, p)
	}
	return people, rows.Err()
}

// PersonOfUser returns the person of a user.
func (s *Store) PersonOfUser(ctx context.Context, userID string) (Person, error) {
	p, err := scanPerson(s.r.QueryRowContext(ctx, rebind(s.dialect,
		`SELECT id, name, user_id FROM people WHERE user_id = ?`), userID))
	return p, wrap(err, "person of user %s", userID)
}

// PersonByID returns a person.
func (s *Store) PersonByID(ctx context.Context, id string) (Person, error) {
	p, err := scanPerson(s.r.QueryRowContext(ctx, rebind(s.dialect,
		`SELECT id, name, user_id FROM people WHERE id = ?`), id))
	return p, wrap(err, "person %s", id)
}

// AddFriend adds a friend to the user's list, known by name. With linkedUserID nil it creates
// a placeholder person of that name; otherwise the friend is that user's person, and an empty
// name means the user's own name. A name the user already uses for a friend (in any letter
// case) gives ErrConflict, and so does befriending oneself or the same person twice; an
// unknown linked user gives ErrNotFound.
func (s *Store) AddFriend(ctx context.Context, userID, name string, linkedUserID *string) (Person, error) {
	var p Person
	err := s.write(ctx, func(t tx) error {
		if linkedUserID == nil {
			id, err := addPlaceholder(ctx, t, userID, name)
			p = Person{ID: id, Name: name}
			return err
		}
		if *linkedUserID == userID {
			return ErrConflict
		}
		var err error
		p, err = scanPerson(t.queryRow(ctx, `SELECT id, name, user_id FROM people WHERE user_id = ?`, *linkedUserID))
		if err != nil {
			return err
		}
		if name != "" {
			p.Name = name
		}
		_, err = t.exec(ctx, `INSERT INTO friends (user_id, person_id, name, name_key) VALUES (?, ?, ?, ?)`,
			userID, p.ID, p.Name, nameKey(p.Name))
		return err
	})
	if err != nil {
		return Person{}, wrap(err, "add friend %q of user %s", name, userID)
	}
	return p, nil
}

// addPlaceholder creates a placeholder person of that name, the user's friend by it, and
// returns its id.
func addPlaceholder(ctx context.Context, t tx, userID, name string) (string, error) {
	id := newID()
	if _, err := t.exec(ctx, `INSERT INTO people (id, name, name_key) VALUES (?, ?, ?)`, id, name, nameKey(name)); err != nil {
		return "", err
	}
	_, err := t.exec(ctx, `INSERT INTO friends (user_id, person_id, name, name_key) VALUES (?, ?, ?, ?)`,
		userID, id, name, nameKey(name))
	return id, err
}

// CountFriends returns how many friends the user has, placeholders included.
func (s *Store) CountFriends(ctx context.Context, userID string) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, rebind(s.dialect, `SELECT COUNT(*) FROM friends WHERE user_id = ?`), userID).Scan(&n)
	return n, wrap(err, "friends of user %s", userID)
}

// ListFriends returns the user's friends by name; Name is the name the user knows them by.
func (s *Store) ListFriends(ctx context.Context, userID string) ([]Person, error) {
	people, err := collectPeople(s.r.QueryContext(ctx, rebind(s.dialect,
		`SELECT p.id, f.name, p.user_id FROM friends f JOIN people p ON p.id = f.person_id
		 WHERE f.user_id = ? ORDER BY f.name_key, p.id`), userID))
	return people, wrap(err, "friends of user %s", userID)
}

// FindPeopleByName returns every person the user may mean by name (in any letter case): the
// user's friends known by that name, and the members of the user's groups with that name, the
// user included. It returns all candidates, by id, so the caller can report an ambiguity; none
// is not an error.
func (s *Store) FindPeopleByName(ctx context.Context, userID, name string) ([]Person, error) {
	key := nameKey(name)
	people, err := collectPeople(s.r.QueryContext(ctx, rebind(s.dialect,
		`SELECT p.id, p.name, p.user_id FROM people p
		 WHERE p.id IN (SELECT f.person_id FROM friends f WHERE f.user_id = ? AND f.name_key = ?)
		    OR (p.name_key = ? AND p.id IN (
		        SELECT m.person_id FROM group_members m
		        JOIN group_members mine ON mine.group_id = m.group_id
		        JOIN people me ON me.id = mine.person_id
		        WHERE me.user_id = ?))
		 ORDER BY p.id`), userID, key, key, userID))
	return people, wrap(err, "find %q for user %s", name, userID)
}

// Knows reports whether the user knows the person by consent: the person is the user's friend
// or a member of a group of which the user is a member.
func (s *Store) Knows(ctx context.Context, userID, personID string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, rebind(s.dialect,
		`SELECT COUNT(*) FROM people me WHERE me.user_id = ?1 AND (
		   EXISTS (SELECT 1 FROM friends f WHERE f.user_id = ?1 AND f.person_id = ?2)
		   OR EXISTS (SELECT 1 FROM group_members mine JOIN group_members theirs ON theirs.group_id = mine.group_id
		              WHERE mine.person_id = me.id AND theirs.person_id = ?2))`), userID, personID).Scan(&n)
	return n > 0, wrap(err, "whether user %s knows person %s", userID, personID)
}
