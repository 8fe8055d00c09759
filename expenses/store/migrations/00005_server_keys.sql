-- Keys the server makes once and every replica shares, by name: the OAuth authorization server's
-- key of its sign-in form's anti-forgery tokens and sign-in state (expenses/oauth), so that a
-- form served by one replica may be posted to another, and survives a restart. value is the
-- lowercase hex of random bytes.

-- +goose Up
CREATE TABLE server_keys (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- +goose Down
DROP TABLE server_keys;
