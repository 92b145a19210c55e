-- Idempotency keys move into the campaigns they answer for (issue 21). A keyed send then
-- writes one index entry and a few columns more, instead of a row and two index entries in a
-- table of its own (those cost a tenth of the one-recipient sends: every B-tree a send
-- touches is a page more in the group commit; and bytes added to a campaign's row are copied
-- again each time its status changes). A key stands 24 hours from its campaign's `created_at`; an expired
-- one is taken off its campaign when the key is used again, so nothing needs pruning.
ALTER TABLE campaigns ADD COLUMN idempotency_key TEXT;
-- A hash of the request (method, path, query and body): a retry has the same.
ALTER TABLE campaigns ADD COLUMN idempotency_fingerprint TEXT;
-- The balance the first answer gave; the rest of it is the campaign's own cost and counters.
ALTER TABLE campaigns ADD COLUMN idempotency_balance INTEGER;
UPDATE campaigns
SET (idempotency_key, idempotency_fingerprint, idempotency_balance) =
    (SELECT key, fingerprint, balance FROM idempotency_keys k WHERE k.campaign_id = campaigns.id)
WHERE id IN (SELECT campaign_id FROM idempotency_keys);
CREATE UNIQUE INDEX campaigns_by_idempotency_key ON campaigns (account_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
DROP TABLE idempotency_keys;
