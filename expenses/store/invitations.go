package store

// This file holds group invitations: a registered user becomes a member of a group only by
// accepting an invitation (JoinGroup), which the group's creator makes when creating it.

import (
	"context"
	"database/sql"
)

// invitedTo is the condition "the user's person is invited to group g".
const invitedTo = `EXISTS (SELECT 1 FROM group_invitations i JOIN people me ON me.id = i.person_id
	WHERE i.group_id = g.id AND me.user_id = ?)`

// collectInvitedGroups reads rows of groupColumns followed by the Invited flag.
func collectInvitedGroups(rows *sql.Rows, err error) ([]Group, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var groups []Group
	for rows.Next() {
		var (
			g  Group
			ms int64
		)
		if err := rows.Scan(&g.ID, &g.Name, &g.Currency, &g.Type, &g.CreatedBy, &ms, &g.Invited); err != nil {
			return nil, err
		}
		g.CreatedAt = fromMillis(ms)
		groups = append(groups, g)
	}
	return groups, rows.Err()
}

// IsInvited reports whether the user's person is invited to the group (and not a member).
func (s *Store) IsInvited(ctx context.Context, userID, groupID string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, rebind(s.dialect,
		`SELECT COUNT(*) FROM expense_groups g WHERE g.id = ? AND `+invitedTo), groupID, userID).Scan(&n)
	return n > 0, wrap(err, "invitation to group %s", groupID)
}

// InvitedGroupsByName returns the groups the user is invited to that have that name (in any
// letter case), by id, marked Invited.
func (s *Store) InvitedGroupsByName(ctx context.Context, userID, name string) ([]Group, error) {
	groups, err := collectGroups(s.r.QueryContext(ctx, rebind(s.dialect,
		`SELECT `+groupColumns+` FROM expense_groups g WHERE g.name_key = ? AND `+invitedTo+` ORDER BY g.id`),
		nameKey(name), userID))
	for i := range groups {
		groups[i].Invited = true
	}
	return groups, wrap(err, "invitations to groups named %q", name)
}

// Invitees returns the people invited to a group who have not joined it, by name.
func (s *Store) Invitees(ctx context.Context, groupID string) ([]Person, error) {
	people, err := collectPeople(s.r.QueryContext(ctx, rebind(s.dialect,
		`SELECT p.id, p.name, p.user_id FROM group_invitations i JOIN people p ON p.id = i.person_id
		 WHERE i.group_id = ? ORDER BY p.name_key, p.id`), groupID))
	return people, wrap(err, "invitations to group %s", groupID)
}

// JoinGroup makes the user, who is invited to the group, its member: last in join order, of
// weight 1; the invitation goes. Without an invitation it gives ErrNotFound.
func (s *Store) JoinGroup(ctx context.Context, userID, groupID string) error {
	err := s.write(ctx, func(t tx) error {
		var me string
		if err := t.queryRow(ctx, `SELECT i.person_id FROM group_invitations i JOIN people p ON p.id = i.person_id
			WHERE i.group_id = ? AND p.user_id = ?`, groupID, userID).Scan(&me); err != nil {
			return err
		}
		if _, err := t.exec(ctx, `INSERT INTO group_members (group_id, person_id, position, weight)
			SELECT ?, ?, COALESCE(MAX(position), -1) + 1, 1 FROM group_members WHERE group_id = ?`,
			groupID, me, groupID); err != nil {
			return err
		}
		_, err := t.exec(ctx, `DELETE FROM group_invitations WHERE group_id = ? AND person_id = ?`, groupID, me)
		return err
	})
	return wrap(err, "join group %s", groupID)
}
