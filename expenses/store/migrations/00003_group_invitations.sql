-- Group invitations: a registered user is a member of a group only once they accept (join_group)
-- an invitation, which only a friend of theirs can make (create_group). group_members then holds
-- the creator, placeholders and the users who joined by consent.
--
-- Memberships of registered users made before this migration by a creator who was not their
-- friend (possible through a name learnt in a shared group) become invitations: those users never
-- agreed to that group, and may join it or leave it be.

-- +goose Up
CREATE TABLE group_invitations (
    group_id   TEXT NOT NULL REFERENCES expense_groups (id),
    person_id  TEXT NOT NULL REFERENCES people (id),
    invited_by TEXT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (group_id, person_id)
);
CREATE INDEX group_invitations_person ON group_invitations (person_id, group_id);

INSERT INTO group_invitations (group_id, person_id, invited_by, created_at)
SELECT m.group_id, m.person_id, g.created_by, g.created_at
FROM group_members m
JOIN expense_groups g ON g.id = m.group_id
JOIN people p ON p.id = m.person_id
WHERE p.user_id IS NOT NULL AND p.user_id <> g.created_by
  AND NOT EXISTS (SELECT 1 FROM friends f WHERE f.user_id = g.created_by AND f.person_id = m.person_id);

DELETE FROM group_members
WHERE EXISTS (SELECT 1 FROM group_invitations i
              WHERE i.group_id = group_members.group_id AND i.person_id = group_members.person_id);

-- +goose Down
-- Pending invitations are dropped, never turned into memberships nobody accepted.
DROP TABLE group_invitations;
