-- Events go into the outbox of a few webhooks by the thousand a second, from many wave and
-- receipt transactions at once. The foreign key to `webhooks` had each row lock its webhook's
-- row (KEY SHARE) from all of them: 44 us an event, 15 without it. The store deletes a
-- webhook's events with it, in one transaction, and pruning removes the events raised for a
-- webhook as it was being deleted.
ALTER TABLE outbox DROP CONSTRAINT outbox_webhook_id_fkey;
