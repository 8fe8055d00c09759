-- The OAuth 2.1 authorization server of the MCP endpoint (MCP authorization, 2025-11-25): users'
-- passwords and sign-in lockout, clients registered dynamically (RFC 7591), authorization codes
-- (RFC 6749 4.1, PKCE RFC 7636) and access and refresh tokens. Codes and tokens are kept only as
-- the lowercase hex of their SHA-256 hash, like tokens.hash. used and revoked hold the Unix
-- milliseconds of the event, 0 while it has not happened.
--
-- oauth_families has one row per grant (family): every write that adds tokens to a family or
-- revokes it updates that row first, which serializes them on PostgreSQL, and revoked stays set
-- so that tokens saved after a revocation (a code replayed between its exchange and the saving of
-- its tokens) are refused. client_id has no foreign key: a client may be known other than by
-- registration (a client ID metadata document).

-- +goose Up
CREATE TABLE passwords (
    user_id      TEXT PRIMARY KEY REFERENCES users (id),
    hash         TEXT NOT NULL DEFAULT '',
    failures     BIGINT NOT NULL DEFAULT 0,
    locked_until BIGINT
);

CREATE TABLE oauth_clients (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    redirect_uris TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);

CREATE TABLE oauth_codes (
    hash         TEXT PRIMARY KEY,
    client_id    TEXT NOT NULL,
    user_id      TEXT NOT NULL REFERENCES users (id),
    redirect_uri TEXT NOT NULL,
    challenge    TEXT NOT NULL,
    scope        TEXT NOT NULL,
    resource     TEXT NOT NULL,
    expires_at   BIGINT NOT NULL,
    used         BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at);

CREATE TABLE oauth_families (
    family  TEXT PRIMARY KEY,
    revoked BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE oauth_tokens (
    hash       TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    family     TEXT NOT NULL,
    client_id  TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id),
    scope      TEXT NOT NULL,
    resource   TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    used       BIGINT NOT NULL DEFAULT 0,
    revoked    BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX oauth_tokens_family ON oauth_tokens (family);
CREATE INDEX oauth_tokens_expiry ON oauth_tokens (expires_at);

-- +goose Down
DROP TABLE oauth_tokens;
DROP TABLE oauth_families;
DROP TABLE oauth_codes;
DROP TABLE oauth_clients;
DROP TABLE passwords;
