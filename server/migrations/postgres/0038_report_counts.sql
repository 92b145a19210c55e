-- A campaign's report read without scanning its messages: per country, the messages written
-- and those delivered; per hour of receipt (UTC, `YYYY-MM-DDTHH`), those delivered. The
-- countries' messages are written with the campaign, the deliveries with each receipt, in
-- their transactions. Filled here from the messages already stored (3: delivered).
CREATE TABLE report_countries (
    campaign_id BIGINT NOT NULL,
    country     TEXT    NOT NULL,
    sent        BIGINT NOT NULL,
    delivered   BIGINT NOT NULL,
    PRIMARY KEY (campaign_id, country)
);
CREATE TABLE report_hours (
    campaign_id BIGINT NOT NULL,
    hour        TEXT    NOT NULL,
    delivered   BIGINT NOT NULL,
    PRIMARY KEY (campaign_id, hour)
);
INSERT INTO report_countries (campaign_id, country, sent, delivered)
    SELECT campaign_id, country, COUNT(*), SUM(CASE WHEN delivery = 3 THEN 1 ELSE 0 END) FROM messages
    GROUP BY campaign_id, country;
INSERT INTO report_hours (campaign_id, hour, delivered)
    SELECT campaign_id, substr(delivered_at, 1, 13), COUNT(*) FROM messages
    WHERE delivery = 3 AND delivered_at IS NOT NULL GROUP BY campaign_id, substr(delivered_at, 1, 13);
