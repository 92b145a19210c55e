-- The inbox's search by text, on an index: the conversations' last replies in an FTS5 table
-- with the trigram tokenizer (any substring of three characters or more, case folded), kept
-- by triggers as conversations open, change and close. Filled from the conversations there.
CREATE VIRTUAL TABLE conversations_text USING fts5(last_text, content='conversations', content_rowid='rowid', tokenize='trigram');
INSERT INTO conversations_text (rowid, last_text) SELECT rowid, last_text FROM conversations;
CREATE TRIGGER conversations_text_in AFTER INSERT ON conversations
BEGIN
    INSERT INTO conversations_text (rowid, last_text) VALUES (NEW.rowid, NEW.last_text);
END;
CREATE TRIGGER conversations_text_out AFTER DELETE ON conversations
BEGIN
    INSERT INTO conversations_text (conversations_text, rowid, last_text) VALUES ('delete', OLD.rowid, OLD.last_text);
END;
CREATE TRIGGER conversations_text_changed AFTER UPDATE OF last_text ON conversations
BEGIN
    INSERT INTO conversations_text (conversations_text, rowid, last_text) VALUES ('delete', OLD.rowid, OLD.last_text);
    INSERT INTO conversations_text (rowid, last_text) VALUES (NEW.rowid, NEW.last_text);
END;
