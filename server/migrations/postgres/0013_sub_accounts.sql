-- Sub-accounts and the team's rules (issue 23): an account may have a parent; an unlimited one draws on the
-- parent's balance. Credits moved between accounts are a `transfer` row in each ledger, with
-- the other account as `counterpart_id`.
ALTER TABLE accounts ADD COLUMN parent_id BIGINT REFERENCES accounts(id);
ALTER TABLE accounts ADD COLUMN unlimited BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX accounts_by_parent ON accounts (parent_id) WHERE parent_id IS NOT NULL;
-- The team's rules: campaigns over this many recipients wait for approval (NULL: none), and
-- people must sign in with two factors.
ALTER TABLE accounts ADD COLUMN approval_over BIGINT;
ALTER TABLE accounts ADD COLUMN require_two_factor BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE ledger DROP CONSTRAINT ledger_kind_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_kind_check CHECK (kind IN ('topup', 'debit', 'refund', 'transfer'));
ALTER TABLE ledger ADD COLUMN counterpart_id BIGINT;
