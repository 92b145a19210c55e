-- The filter's per-account inputs become point look-ups.
--
-- Anti-flood counts an account's last hour from a window kept in memory (loaded from
-- `messages` at start-up, by time), so the per-number index only slowed every insert.
-- Nothing reads messages by account and time any more either.
DROP INDEX messages_recent;
DROP INDEX messages_by_time;
CREATE INDEX messages_since ON messages(created_at);

-- Country caps read the month's usage from a counter kept with each campaign's messages,
-- instead of counting the month's messages on every send.
CREATE TABLE monthly_usage (
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    month       TEXT NOT NULL,          -- UTC, 'YYYY-MM'
    country     TEXT NOT NULL,          -- ISO 3166-1 alpha-2
    messages    INTEGER NOT NULL CHECK (messages >= 0),
    PRIMARY KEY (account_id, month, country)
) WITHOUT ROWID;

INSERT INTO monthly_usage (account_id, month, country, messages)
SELECT account_id, substr(created_at, 1, 7), country, COUNT(*) FROM messages GROUP BY 1, 2, 3;
