-- Conversions (`POST /conversion`, the pixel): a sale or a sign-up credited to a followed short
-- link, at most one per link of a message (a click converts once), its value in hundredths.
CREATE TABLE conversions (
    id           INTEGER PRIMARY KEY,
    account_id   INTEGER NOT NULL,
    campaign_id  INTEGER NOT NULL,
    message_id   INTEGER NOT NULL,
    link         INTEGER NOT NULL,
    value        INTEGER NOT NULL,
    created_at   TEXT NOT NULL,
    UNIQUE (message_id, link)
);
CREATE INDEX conversions_by_campaign ON conversions (campaign_id);
