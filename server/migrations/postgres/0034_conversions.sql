-- Conversions (`POST /conversion`, the pixel): a sale or a sign-up credited to a followed short
-- link, at most one per link of a message (a click converts once), its value in hundredths.
CREATE TABLE conversions (
    id           BIGSERIAL PRIMARY KEY,
    account_id   BIGINT NOT NULL,
    campaign_id  BIGINT NOT NULL,
    message_id   BIGINT NOT NULL,
    link         BIGINT NOT NULL,
    value        BIGINT NOT NULL,
    created_at   TEXT NOT NULL,
    UNIQUE (message_id, link)
);
CREATE INDEX conversions_by_campaign ON conversions (campaign_id);
