-- Operators who sign in (issue 25): a password (argon2id, set with `texto operator password`)
-- and the sessions it opens, each a bearer token of its own (stored by its SHA-256) that ends
-- at sign-out or after 12 hours.
ALTER TABLE operators ADD COLUMN password_hash TEXT;
CREATE TABLE operator_sessions (
    token_hash   BYTEA PRIMARY KEY,
    operator_id  BIGINT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
    expires_at   TEXT NOT NULL
);
