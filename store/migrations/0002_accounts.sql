-- 0002: accounts, sessions, API tokens, and the owner of workloads and runs.
--
-- A server started without --auth is single-user: nobody logs in and owner
-- stays NULL. With --auth every workload and run records the user who made
-- it; only that user (or an admin) may cancel, re-run or delete a run.
-- Secrets are never stored: sessions and tokens by the SHA-256 of their
-- value, passwords as bcrypt hashes.

CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 64),
    password_hash TEXT NOT NULL,          -- bcrypt
    admin         INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1)),
    created_at    TEXT NOT NULL
) STRICT;

CREATE TABLE sessions (
    token_sha256 TEXT PRIMARY KEY,        -- hex SHA-256 of the cookie value
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   TEXT NOT NULL,
    expires_at   TEXT NOT NULL
) STRICT;

CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

CREATE TABLE api_tokens (
    token_sha256 TEXT PRIMARY KEY,        -- hex SHA-256 of the bearer token
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    label        TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL
) STRICT;

CREATE INDEX api_tokens_user ON api_tokens (user_id);

ALTER TABLE workloads ADD COLUMN owner TEXT REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE runs ADD COLUMN owner TEXT REFERENCES users (id) ON DELETE SET NULL;

-- A user's own lists, newest first.
CREATE INDEX workloads_owner_created ON workloads (owner, created_at);
CREATE INDEX runs_owner_created ON runs (owner, created_at);
