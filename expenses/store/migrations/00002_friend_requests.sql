-- Friend requests between registered users: a user asks for a name; when the user of that
-- name asks back, both become friends. to_name_key is the Go-lowered name asked for, which
-- may belong to no user (the asker is not told).

-- +goose Up
CREATE TABLE friend_requests (
    from_user   TEXT NOT NULL REFERENCES users (id),
    to_name_key TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (from_user, to_name_key)
);

-- +goose Down
DROP TABLE friend_requests;
