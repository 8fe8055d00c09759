package store

import (
	"context"
	"time"
)

// RequestFriend records that the user asks to be friends with the user named name (in any
// letter case), whether or not such a user exists. Asking twice is asking once.
func (s *Store) RequestFriend(ctx context.Context, userID, name string, at time.Time) error {
	err := s.write(ctx, func(t tx) error {
		_, err := t.exec(ctx, `INSERT INTO friend_requests (from_user, to_name_key, created_at) VALUES (?, ?, ?)
			ON CONFLICT (from_user, to_name_key) DO NOTHING`, userID, nameKey(name), millis(at))
		return err
	})
	return wrap(err, "friend request of user %s", userID)
}

// FriendRequested reports whether the user asked to be friends with the user named name.
func (s *Store) FriendRequested(ctx context.Context, userID, name string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, rebind(s.dialect,
		`SELECT COUNT(*) FROM friend_requests WHERE from_user = ? AND to_name_key = ?`), userID, nameKey(name)).Scan(&n)
	return n > 0, wrap(err, "friend request of user %s", userID)
}

// CountFriendRequests returns how many friend requests the user has made that are not answered yet.
func (s *Store) CountFriendRequests(ctx context.Context, userID string) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, rebind(s.dialect,
		`SELECT COUNT(*) FROM friend_requests WHERE from_user = ?`), userID).Scan(&n)
	return n, wrap(err, "friend requests of user %s", userID)
}

// Befriend makes users a and b each other's friends, known by their user names, and removes
// their requests to each other, in one transaction. Where a name is already taken by another
// friend (a placeholder), the new friend is known as "<name> (account)". Users who are already
// friends stay so.
func (s *Store) Befriend(ctx context.Context, a, b User) error {
	err := s.write(ctx, func(t tx) error {
		for _, pair := range [][2]User{{a, b}, {b, a}} {
			if err := befriend(ctx, t, pair[0], pair[1]); err != nil {
				return err
			}
			if _, err := t.exec(ctx, `DELETE FROM friend_requests WHERE from_user = ? AND to_name_key = ?`,
				pair[0].ID, nameKey(pair[1].Name)); err != nil {
				return err
			}
		}
		return nil
	})
	return wrap(err, "befriend users %s and %s", a.ID, b.ID)
}

// befriend adds friend to user's friends unless already there.
func befriend(ctx context.Context, t tx, user, friend User) error {
	var n int
	if err := t.queryRow(ctx, `SELECT COUNT(*) FROM friends WHERE user_id = ? AND person_id = ?`,
		user.ID, friend.PersonID).Scan(&n); err != nil || n > 0 {
		return err
	}
	name := friend.Name
	if err := t.queryRow(ctx, `SELECT COUNT(*) FROM friends WHERE user_id = ? AND name_key = ?`,
		user.ID, nameKey(name)).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		name += " (account)"
	}
	_, err := t.exec(ctx, `INSERT INTO friends (user_id, person_id, name, name_key) VALUES (?, ?, ?, ?)`,
		user.ID, friend.PersonID, name, nameKey(name))
	return err
}
