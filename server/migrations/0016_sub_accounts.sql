-- Sub-accounts and the team's rules (issue 23): an account may have a parent; an unlimited one draws on the
-- parent's balance. Credits moved between accounts are a `transfer` row in each ledger, with
-- the other account as `counterpart_id`: SQLite cannot change a CHECK, so the ledger is
-- rebuilt with the new kind (its trigger with it).
ALTER TABLE accounts ADD COLUMN parent_id INTEGER REFERENCES accounts(id);
ALTER TABLE accounts ADD COLUMN unlimited INTEGER NOT NULL DEFAULT 0;
CREATE INDEX accounts_by_parent ON accounts (parent_id) WHERE parent_id IS NOT NULL;
-- The team's rules: campaigns over this many recipients wait for approval (NULL: none), and
-- people must sign in with two factors.
ALTER TABLE accounts ADD COLUMN approval_over INTEGER;
ALTER TABLE accounts ADD COLUMN require_two_factor INTEGER NOT NULL DEFAULT 0;

CREATE TABLE ledger_next (
    id              INTEGER PRIMARY KEY,
    account_id      INTEGER NOT NULL REFERENCES accounts(id),
    amount          INTEGER NOT NULL,             -- + top-up, refund or transfer in, - debit or transfer out
    kind            TEXT NOT NULL CHECK (kind IN ('topup', 'debit', 'refund', 'transfer')),
    campaign_id     INTEGER,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    counterpart_id  INTEGER
);
INSERT INTO ledger_next (id, account_id, amount, kind, campaign_id, created_at)
    SELECT id, account_id, amount, kind, campaign_id, created_at FROM ledger;
DROP TABLE ledger;
ALTER TABLE ledger_next RENAME TO ledger;
CREATE INDEX ledger_by_account ON ledger(account_id, id);
CREATE TRIGGER ledger_moves_balance AFTER INSERT ON ledger
BEGIN
    UPDATE accounts SET balance = balance + NEW.amount WHERE id = NEW.account_id;
END;
