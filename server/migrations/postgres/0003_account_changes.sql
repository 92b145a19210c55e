-- A counter per account, moved by every change a node's cached copy of the account must see:
-- top-ups and refunds (the balance going up), anti-flood limits and country rules. A send reads
-- it beside its blacklist and NPAI look-ups, from this small, rarely written table, instead of
-- the account's row, which every send's debit rewrites (reading it walked that row's versions:
-- 35-60 us a send). Accounts that never changed have no row: version 0.
CREATE TABLE account_changes (
    account_id  BIGINT PRIMARY KEY REFERENCES accounts(id),
    version     BIGINT NOT NULL
);
