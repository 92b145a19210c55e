-- Home's figures (issue 24): per account and Paris day, what was handed to the carrier and its
-- cost, the receipts that say delivered, the clicks, the replies and the STOPs, each added in
-- the transaction that stores the fact. Counting starts with this migration: earlier days are
-- not reconstructed (as on SQLite).
CREATE TABLE daily_counts (
    account_id  BIGINT NOT NULL,
    day         TEXT NOT NULL,
    sent        BIGINT NOT NULL DEFAULT 0,
    delivered   BIGINT NOT NULL DEFAULT 0,
    clicks      BIGINT NOT NULL DEFAULT 0,
    replies     BIGINT NOT NULL DEFAULT 0,
    stops       BIGINT NOT NULL DEFAULT 0,
    cost        BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day)
);
