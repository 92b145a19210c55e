-- A/B tests (`sms.message.variants` and `sms.message.ab`): the texts beside the campaign's own
-- (JSON), the test's settings and seed (JSON), the last message of its sample (the messages
-- after it wait for the winner, chosen once the wait after `send_at` is over) and the winner
-- (0 is the campaign's own text; NULL while the rest wait). Each message of the test notes the text it got;
-- one that waits for the winner notes its parts under each text (a byte each, the first text
-- lowest), to be priced for the winner.
ALTER TABLE campaigns ADD COLUMN variants TEXT;
ALTER TABLE campaigns ADD COLUMN ab TEXT;
ALTER TABLE campaigns ADD COLUMN ab_hold BIGINT;
ALTER TABLE campaigns ADD COLUMN ab_winner BIGINT;
ALTER TABLE messages ADD COLUMN variant BIGINT;
ALTER TABLE messages ADD COLUMN text_parts BIGINT;
-- A sample's messages, for its last (the rest keeps no text: it gets the winner's).
CREATE INDEX messages_ab_sample ON messages (campaign_id, id) WHERE variant IS NOT NULL;
CREATE INDEX campaigns_ab_waiting ON campaigns (id) WHERE ab_hold IS NOT NULL AND ab_winner IS NULL;
