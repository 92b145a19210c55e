-- The inbox's counts per account: its conversations, and those with unread replies. Kept by
-- triggers on `conversations` as they open, change and close, so that a page of the inbox
-- counts no rows (100,000 conversations took most of a page's time). Filled from the
-- conversations already there.
CREATE TABLE inbox_counts (
    account_id    INTEGER PRIMARY KEY,
    conversations INTEGER NOT NULL,
    unread        INTEGER NOT NULL
);
INSERT INTO inbox_counts (account_id, conversations, unread)
    SELECT account_id, COUNT(*), SUM(CASE WHEN unread > 0 THEN 1 ELSE 0 END) FROM conversations GROUP BY account_id;
CREATE TRIGGER conversations_counted_in AFTER INSERT ON conversations
BEGIN
    INSERT INTO inbox_counts (account_id, conversations, unread) VALUES (NEW.account_id, 1, NEW.unread > 0)
    ON CONFLICT (account_id) DO UPDATE SET conversations = inbox_counts.conversations + 1,
        unread = inbox_counts.unread + excluded.unread;
END;
CREATE TRIGGER conversations_counted_out AFTER DELETE ON conversations
BEGIN
    UPDATE inbox_counts SET conversations = conversations - 1, unread = unread - (OLD.unread > 0)
    WHERE account_id = OLD.account_id;
END;
CREATE TRIGGER conversations_counted_read AFTER UPDATE OF unread ON conversations
    WHEN (OLD.unread > 0) <> (NEW.unread > 0)
BEGIN
    UPDATE inbox_counts SET unread = unread + (NEW.unread > 0) - (OLD.unread > 0) WHERE account_id = NEW.account_id;
END;
