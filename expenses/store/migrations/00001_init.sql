-- The shared-expenses schema. Portable SQL: it runs unchanged on SQLite and PostgreSQL.
-- Ids are random TEXT made in Go, amounts BIGINT minor units, times BIGINT Unix milliseconds,
-- dates TEXT 'YYYY-MM-DD' (so they sort as text). name_key columns hold the Go-lowered name and
-- carry the case-insensitive uniqueness rules (SQLite's lower() only folds ASCII).

-- +goose Up
CREATE TABLE users (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
);

CREATE TABLE tokens (
    hash       TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT
);
CREATE INDEX tokens_user ON tokens (user_id);

CREATE TABLE people (
    id       TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    name_key TEXT NOT NULL,
    user_id  TEXT UNIQUE REFERENCES users (id)
);
CREATE INDEX people_name ON people (name_key);

CREATE TABLE friends (
    user_id   TEXT NOT NULL REFERENCES users (id),
    person_id TEXT NOT NULL REFERENCES people (id),
    name      TEXT NOT NULL,
    name_key  TEXT NOT NULL,
    PRIMARY KEY (user_id, person_id),
    UNIQUE (user_id, name_key)
);

CREATE TABLE expense_groups (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL,
    currency   TEXT NOT NULL,
    type       TEXT NOT NULL,
    created_by TEXT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    UNIQUE (created_by, name_key)
);

CREATE TABLE group_members (
    group_id  TEXT NOT NULL REFERENCES expense_groups (id),
    person_id TEXT NOT NULL REFERENCES people (id),
    position  BIGINT NOT NULL,
    weight    BIGINT NOT NULL DEFAULT 1,
    PRIMARY KEY (group_id, person_id),
    UNIQUE (group_id, position)
);
CREATE INDEX group_members_person ON group_members (person_id, group_id);

CREATE TABLE expenses (
    id           TEXT PRIMARY KEY,
    group_id     TEXT REFERENCES expense_groups (id),
    title        TEXT NOT NULL,
    currency     TEXT NOT NULL,
    amount_minor BIGINT NOT NULL,
    paid_by      TEXT NOT NULL REFERENCES people (id),
    date         TEXT NOT NULL,
    recurring    BOOLEAN NOT NULL DEFAULT FALSE,
    created_by   TEXT NOT NULL REFERENCES users (id),
    created_at   BIGINT NOT NULL,
    deleted_at   BIGINT,
    deleted_by   TEXT REFERENCES users (id)
);
CREATE INDEX expenses_order ON expenses (date, created_at, id);
CREATE INDEX expenses_group ON expenses (group_id, date, created_at, id);
CREATE INDEX expenses_paid_by ON expenses (paid_by);
CREATE INDEX expenses_created_by ON expenses (created_by);

CREATE TABLE expense_shares (
    expense_id   TEXT NOT NULL REFERENCES expenses (id),
    person_id    TEXT NOT NULL REFERENCES people (id),
    amount_minor BIGINT NOT NULL,
    PRIMARY KEY (expense_id, person_id)
);
CREATE INDEX expense_shares_person ON expense_shares (person_id, expense_id);

CREATE TABLE payments (
    id           TEXT PRIMARY KEY,
    group_id     TEXT REFERENCES expense_groups (id),
    from_person  TEXT NOT NULL REFERENCES people (id),
    to_person    TEXT NOT NULL REFERENCES people (id),
    currency     TEXT NOT NULL,
    amount_minor BIGINT NOT NULL,
    date         TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    created_by   TEXT NOT NULL REFERENCES users (id),
    created_at   BIGINT NOT NULL
);
CREATE INDEX payments_from ON payments (from_person);
CREATE INDEX payments_to ON payments (to_person);

-- +goose Down
DROP TABLE payments;
DROP TABLE expense_shares;
DROP TABLE expenses;
DROP TABLE group_members;
DROP TABLE expense_groups;
DROP TABLE friends;
DROP TABLE people;
DROP TABLE tokens;
DROP TABLE users;
