-- A team workspace (issue 23): people with a role, their sessions, one-time links
-- (invitations and password resets), the audit log, roles on API tokens, and campaigns that
-- wait for approval.
CREATE TABLE users (
    id             INTEGER PRIMARY KEY,
    account_id     INTEGER NOT NULL REFERENCES accounts(id),
    email          TEXT NOT NULL UNIQUE,          -- lowercased
    name           TEXT NOT NULL,
    password_hash  TEXT NOT NULL,                 -- argon2id, PHC string
    role           TEXT NOT NULL,
    created_at     TEXT NOT NULL
);
CREATE INDEX users_by_account ON users (account_id, id);
CREATE TABLE sessions (
    id           INTEGER PRIMARY KEY,
    secret_hash  BLOB NOT NULL UNIQUE,            -- SHA-256 of the cookie's value
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    user_id      INTEGER REFERENCES users(id) ON DELETE CASCADE,
    token_id     INTEGER REFERENCES api_tokens(id),
    csrf         TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    seen_at      TEXT NOT NULL
);
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE TABLE one_time_links (
    secret_hash  BLOB PRIMARY KEY,
    kind         TEXT NOT NULL CHECK (kind IN ('invitation', 'reset')),
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    email        TEXT NOT NULL,
    role         TEXT,
    created_by   TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    expires_at   TEXT NOT NULL
);
CREATE INDEX one_time_links_by_account ON one_time_links (account_id, kind, email);
CREATE TABLE audit (
    id          INTEGER PRIMARY KEY,
    account_id  INTEGER NOT NULL,
    at          TEXT NOT NULL,
    actor       TEXT NOT NULL,
    address     TEXT NOT NULL,
    action      TEXT NOT NULL,
    object      TEXT NOT NULL,
    summary     TEXT NOT NULL
);
CREATE INDEX audit_by_account_time ON audit (account_id, at, id);
CREATE INDEX audit_by_time ON audit (at);
-- Tokens that exist keep full power.
ALTER TABLE api_tokens ADD COLUMN role TEXT NOT NULL DEFAULT 'owner';
-- An author's campaign waits (status scheduled, send_at far ahead) until approved.
ALTER TABLE campaigns ADD COLUMN approval TEXT CHECK (approval IN ('awaiting', 'approved', 'rejected'));
ALTER TABLE campaigns ADD COLUMN approval_note TEXT;
ALTER TABLE campaigns ADD COLUMN requested_send_at TEXT;
ALTER TABLE campaigns ADD COLUMN created_by TEXT;
CREATE INDEX campaigns_awaiting ON campaigns (approval) WHERE approval = 'awaiting';
