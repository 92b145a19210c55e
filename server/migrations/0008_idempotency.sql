-- Idempotency keys (issue 21): a send retried with the key of its first try gets the first
-- answer back (its ticket, its balance, `answer` holding the rest) and creates nothing more.
-- Written in the campaign's own transaction; a key stands 24 hours.
CREATE TABLE idempotency_keys (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    campaign_id INTEGER NOT NULL,
    balance INTEGER NOT NULL,
    answer TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (account_id, key)
) WITHOUT ROWID; -- the key is the table: one B-tree less to write on every keyed send
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
