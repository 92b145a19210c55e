-- Drafts kept on the server, seen by the whole team. A draft is addressed as a campaign
-- (`PUT /campaign/:id`, `POST /campaign/:id/send`), so drafts and campaigns share one
-- numbering: a draft takes the next number after both the campaigns and every draft ever
-- made (AUTOINCREMENT keeps the latter in sqlite_sequence), and a campaign takes the next
-- after both too (the insert names its id).
CREATE TABLE drafts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    body        TEXT NOT NULL,   -- the `sms` request, as POST /send or /send/lists take it (JSON)
    author      TEXT,
    created_at  TEXT NOT NULL,
    updated_by  TEXT,
    updated_at  TEXT NOT NULL,
    revision    INTEGER NOT NULL DEFAULT 1   -- one more at each change: a send names the one it saw
);
CREATE INDEX drafts_by_account ON drafts(account_id, id);

-- Template ids are never given twice (0030 did so for the tables before templates).
CREATE TABLE templates_next (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    name        TEXT NOT NULL,
    text        TEXT NOT NULL,
    pushtype    TEXT NOT NULL,
    sender      TEXT,
    links       TEXT NOT NULL DEFAULT '[]',
    author      TEXT,
    updated_at  TEXT NOT NULL
);
INSERT INTO templates_next SELECT id, account_id, name, text, pushtype, sender, links, author, updated_at FROM templates;
DROP TABLE templates;
ALTER TABLE templates_next RENAME TO templates;
CREATE INDEX templates_by_account ON templates(account_id, id);
