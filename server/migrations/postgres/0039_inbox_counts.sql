-- The inbox's counts per account: its conversations, and those with unread replies. Kept by
-- a trigger on `conversations` as they open, change and close, so that a page of the inbox
-- counts no rows (100,000 conversations took most of a page's time). Filled from the
-- conversations already there.
CREATE TABLE inbox_counts (
    account_id    BIGINT PRIMARY KEY,
    conversations BIGINT NOT NULL,
    unread        BIGINT NOT NULL
);
INSERT INTO inbox_counts (account_id, conversations, unread)
    SELECT account_id, COUNT(*), COUNT(*) FILTER (WHERE unread > 0) FROM conversations GROUP BY account_id;
CREATE FUNCTION conversations_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO inbox_counts (account_id, conversations, unread)
        VALUES (NEW.account_id, 1, CASE WHEN NEW.unread > 0 THEN 1 ELSE 0 END)
        ON CONFLICT (account_id) DO UPDATE SET conversations = inbox_counts.conversations + 1,
            unread = inbox_counts.unread + excluded.unread;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE inbox_counts SET conversations = conversations - 1,
            unread = unread - CASE WHEN OLD.unread > 0 THEN 1 ELSE 0 END
        WHERE account_id = OLD.account_id;
    ELSIF (OLD.unread > 0) <> (NEW.unread > 0) THEN
        UPDATE inbox_counts SET unread = unread + CASE WHEN NEW.unread > 0 THEN 1 ELSE -1 END
        WHERE account_id = NEW.account_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER conversations_counted AFTER INSERT OR DELETE OR UPDATE OF unread ON conversations
    FOR EACH ROW EXECUTE FUNCTION conversations_counted();
