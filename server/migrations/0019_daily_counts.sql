-- Home's figures (issue 24): per account and Paris day, what was handed to the carrier and its
-- cost, the receipts that say delivered, the clicks, the replies and the STOPs, each added in
-- the transaction that stores the fact. Counting starts with this migration: earlier days are
-- not reconstructed (their Paris days cannot be told from UTC times in SQLite).
CREATE TABLE daily_counts (
    account_id  INTEGER NOT NULL,
    day         TEXT NOT NULL,
    sent        INTEGER NOT NULL DEFAULT 0,
    delivered   INTEGER NOT NULL DEFAULT 0,
    clicks      INTEGER NOT NULL DEFAULT 0,
    replies     INTEGER NOT NULL DEFAULT 0,
    stops       INTEGER NOT NULL DEFAULT 0,
    cost        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day)
);
