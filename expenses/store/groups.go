package store

import (
	"context"
	"database/sql"
	"time"
)

// Group is a set of people who share expenses, with a default currency and a type (travel,
// home, couple, …: free text).
type Group struct {
	ID        string
	Name      string
	Currency  string
	Type      string
	CreatedBy string // user id
	CreatedAt time.Time
	// Invited is set, by the methods that also list invitations, when the user they were
	// asked for is invited to the group and not (yet) a member.
	Invited bool
}

// Member is a person in a group: Position is the join order (the creator is 0) and Weight the
// member's part of the group's default split.
type Member struct {
	Person
	Position int
	Weight   int64
}

const groupColumns = `g.id, g.name, g.currency, g.type, g.created_by, g.created_at`

func scanGroup(row interface{ Scan(...any) error }) (Group, error) {
	var (
		g  Group
		ms int64
	)
	if err := row.Scan(&g.ID, &g.Name, &g.Currency, &g.Type, &g.CreatedBy, &ms); err != nil {
		return Group{}, err
	}
	g.CreatedAt = fromMillis(ms)
	return g, nil
}

func collectGroups(rows *sql.Rows, err error) ([]Group, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var groups []Group
	for rows.Next() {
		g, err := scanGroup(rows)
		if err != nil {
			return nil, err
		}
		groups = append(groups, g)
	}
	return groups, rows.Err()
}

// CreateGroup creates a group of the user with its members, each of weight 1: the user's own
// person first, then memberPersonIDs in order (repeats and the user's own person are skipped).
// A group name the user already used (in any letter case) gives ErrConflict; an unknown person
// gives ErrNotFound. NewGroup also makes placeholders and invitations.
func (s *Store) CreateGroup(ctx context.Context, userID, name, currency, typ string, memberPersonIDs []string) (Group, error) {
	spec := GroupSpec{Name: name, Currency: currency, Type: typ}
	for _, id := range memberPersonIDs {
		spec.Members = append(spec.Members, NewMember{PersonID: id})
	}
	return s.NewGroup(ctx, userID, spec)
}

// GroupSpec is a group to create: what CreateGroup takes, plus new placeholder members and
// invitations.
type GroupSpec struct {
	Name, Currency, Type string
	// Members are the members after the creator, in join order.
	Members []NewMember
	// Invitees are the person ids of registered users invited to the group: they become
	// members when they accept (JoinGroup).
	Invitees []string
}

// NewMember is a member of a group being created: an existing person (PersonID), or a new
// placeholder person of that name (Placeholder, when PersonID is empty), who also becomes the
// creator's friend.
type NewMember struct {
	PersonID    string
	Placeholder string
}

// NewGroup creates a group of the user as spec says, in one transaction: the new placeholder
// people and their friendships, the group, its members (the user's own person first, each of
// weight 1; repeats are skipped) and its invitations. Nothing is kept when any part fails. A
// group name the user already used (in any letter case) gives ErrConflict, and so does a
// placeholder name the user already gives a friend; an unknown person gives ErrNotFound.
func (s *Store) NewGroup(ctx context.Context, userID string, spec GroupSpec) (Group, error) {
	g := Group{ID: newID(), Name: spec.Name, Currency: spec.Currency, Type: spec.Type, CreatedBy: userID, CreatedAt: now()}
	err := s.write(ctx, func(t tx) error {
		var me string
		if err := t.queryRow(ctx, `SELECT id FROM people WHERE user_id = ?`, userID).Scan(&me); err != nil {
			return err
		}
		if _, err := t.exec(ctx, `INSERT INTO expense_groups (id, name, name_key, currency, type, created_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, g.ID, g.Name, nameKey(g.Name), g.Currency, g.Type, userID, millis(g.CreatedAt)); err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, m := range append([]NewMember{{PersonID: me}}, spec.Members...) {
			pid := m.PersonID
			if pid == "" {
				var err error
				if pid, err = addPlaceholder(ctx, t, userID, m.Placeholder); err != nil {
					return err
				}
			}
			if seen[pid] {
				continue
			}
			if _, err := t.exec(ctx, `INSERT INTO group_members (group_id, person_id, position, weight) VALUES (?, ?, ?, 1)`,
				g.ID, pid, len(seen)); err != nil {
				return err
			}
			seen[pid] = true
		}
		for _, pid := range spec.Invitees {
			if seen[pid] {
				continue
			}
			if _, err := t.exec(ctx, `INSERT INTO group_invitations (group_id, person_id, invited_by, created_at) VALUES (?, ?, ?, ?)`,
				g.ID, pid, userID, millis(g.CreatedAt)); err != nil {
				return err
			}
			seen[pid] = true
		}
		return nil
	})
	if err != nil {
		return Group{}, wrap(err, "create group %q", spec.Name)
	}
	return g, nil
}

// GroupByID returns a group.
func (s *Store) GroupByID(ctx context.Context, id string) (Group, error) {
	g, err := scanGroup(s.r.QueryRowContext(ctx, rebind(s.dialect,
		`SELECT `+groupColumns+` FROM expense_groups g WHERE g.id = ?`), id))
	return g, wrap(err, "group %s", id)
}

// memberOf is the condition "the user's person is a member of group g".
const memberOf = `EXISTS (SELECT 1 FROM group_members m JOIN people me ON me.id = m.person_id
	WHERE m.group_id = g.id AND me.user_id = ?)`

// GroupsByName returns the groups of which the user is a member that have that name (in any
// letter case), by id: several when groups made by different people share a name.
func (s *Store) GroupsByName(ctx context.Context, userID, name string) ([]Group, error) {
	groups, err := collectGroups(s.r.QueryContext(ctx, rebind(s.dialect,
		`SELECT `+groupColumns+` FROM expense_groups g WHERE g.name_key = ? AND `+memberOf+` ORDER BY g.id`),
		nameKey(name), userID))
	return groups, wrap(err, "groups named %q", name)
}

// IsMember reports whether the user's person is a member of the group.
func (s *Store) IsMember(ctx context.Context, userID, groupID string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, rebind(s.dialect,
		`SELECT COUNT(*) FROM expense_groups g WHERE g.id = ? AND `+memberOf), groupID, userID).Scan(&n)
	return n > 0, wrap(err, "membership of group %s", groupID)
}

// ListGroups returns a page of the groups of which the user is a member, by name then id, and
// the cursor of the next page ("" after the last). cursor "" starts at the beginning.
func (s *Store) ListGroups(ctx context.Context, userID string, limit int, cursor string) ([]Group, string, error) {
	return s.listGroups(ctx, userID, false, limit, cursor)
}

// ListGroupsAndInvitations is ListGroups with the groups the user is invited to among them,
// marked Invited.
func (s *Store) ListGroupsAndInvitations(ctx context.Context, userID string, limit int, cursor string) ([]Group, string, error) {
	return s.listGroups(ctx, userID, true, limit, cursor)
}

func (s *Store) listGroups(ctx context.Context, userID string, invitations bool, limit int, cursor string) ([]Group, string, error) {
	limit = clampLimit(limit)
	q := `SELECT ` + groupColumns + `, NOT ` + memberOf + ` FROM expense_groups g WHERE ` + memberOf
	args := []any{userID, userID}
	if invitations {
		q = `SELECT ` + groupColumns + `, NOT ` + memberOf + ` FROM expense_groups g WHERE (` + memberOf + ` OR ` + invitedTo + `)`
		args = append(args, userID)
	}
	if cursor != "" {
		var key, id string
		if err := decodeCursor(cursor, &key, &id); err != nil {
			return nil, "", err
		}
		q += ` AND (g.name_key > ? OR (g.name_key = ? AND g.id > ?))`
		args = append(args, key, key, id)
	}
	q += ` ORDER BY g.name_key, g.id LIMIT ?`
	args = append(args, limit+1)
	groups, err := collectInvitedGroups(s.r.QueryContext(ctx, rebind(s.dialect, q), args...))
	if err != nil {
		return nil, "", wrap(err, "list groups of user %s", userID)
	}
	next := ""
	if len(groups) > limit {
		groups = groups[:limit]
		last := groups[limit-1]
		next = encodeCursor(nameKey(last.Name), last.ID)
	}
	return groups, next, nil
}

// Members returns the members of a group in join order, with their weights.
func (s *Store) Members(ctx context.Context, groupID string) ([]Member, error) {
	rows, err := s.r.QueryContext(ctx, rebind(s.dialect,
		`SELECT p.id, p.name, p.user_id, m.position, m.weight
		 FROM group_members m JOIN people p ON p.id = m.person_id
		 WHERE m.group_id = ? ORDER BY m.position`), groupID)
	if err != nil {
		return nil, wrap(err, "members of group %s", groupID)
	}
	defer rows.Close()
	var members []Member
	for rows.Next() {
		var (
			m   Member
			uid sql.NullString
		)
		if err := rows.Scan(&m.ID, &m.Name, &uid, &m.Position, &m.Weight); err != nil {
			return nil, wrap(err, "members of group %s", groupID)
		}
		m.UserID = nullString(uid)
		members = append(members, m)
	}
	return members, wrap(rows.Err(), "members of group %s", groupID)
}
