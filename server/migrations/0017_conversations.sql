-- The inbox (issue 24): one conversation per account and number that wrote, kept up to date by
-- triggers as replies are stored (and removed with the last of them, by the retention period
-- or an erasure), so that listing the inbox reads one short row per number. Replies also keep
-- the number they were written to, which an answer is sent from.
ALTER TABLE replies ADD COLUMN to_number TEXT;
CREATE TABLE conversations (
    account_id     INTEGER NOT NULL,
    number         INTEGER NOT NULL,
    last_reply_id  INTEGER NOT NULL,
    last_text      TEXT NOT NULL,
    last_at        TEXT NOT NULL,
    unread         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, number)
);
CREATE INDEX conversations_by_recent ON conversations (account_id, last_at, number);
INSERT INTO conversations (account_id, number, last_reply_id, last_text, last_at, unread)
    SELECT r.account_id, r.number, r.id, r.text, r.received_at, 0 FROM replies r
    WHERE r.id = (SELECT max(id) FROM replies l WHERE l.account_id = r.account_id AND l.number = r.number);
CREATE TRIGGER replies_open_conversations AFTER INSERT ON replies
BEGIN
    INSERT INTO conversations (account_id, number, last_reply_id, last_text, last_at, unread)
    VALUES (NEW.account_id, NEW.number, NEW.id, NEW.text, NEW.received_at, 1)
    ON CONFLICT (account_id, number) DO UPDATE SET last_reply_id = excluded.last_reply_id,
        last_text = excluded.last_text, last_at = excluded.last_at, unread = conversations.unread + 1;
END;
CREATE TRIGGER replies_close_conversations AFTER DELETE ON replies
BEGIN
    DELETE FROM conversations WHERE account_id = OLD.account_id AND number = OLD.number AND last_reply_id = OLD.id;
END;
