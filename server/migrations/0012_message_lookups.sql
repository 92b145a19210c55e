-- GET /messages and GET /messages/mo (issue 22) look messages and replies up by account and
-- time, never scanning. The index by time alone served only the anti-flood window's start-up
-- read, which now goes account by account: one index on messages still, as before.
DROP INDEX messages_since;
CREATE INDEX messages_by_account_time ON messages(account_id, created_at);
-- When the message's final code came (the dlr_date of GET /messages).
ALTER TABLE messages ADD COLUMN delivered_at TEXT;
DROP INDEX replies_by_account;
CREATE INDEX replies_by_account_time ON replies(account_id, received_at);
-- A campaign's replies (GET /campaign/:id/mo).
CREATE INDEX replies_by_message ON replies(message_id) WHERE message_id IS NOT NULL;
