-- How long each account keeps its data (GET/PUT /retention, issue 22): periods such as 30d or
-- 6m; null keeps that data for good. The retention pass removes what is older in batches.
CREATE TABLE retention (
    account_id  INTEGER PRIMARY KEY REFERENCES accounts(id),
    message     TEXT,
    list        TEXT,
    survey      TEXT,
    campaign    TEXT,
    mo          TEXT,
    lookup      TEXT
);
-- When a contact joined its list: list contacts expire by it. Those already there take their
-- list's creation time.
ALTER TABLE contacts ADD COLUMN added_at TEXT NOT NULL DEFAULT '';
UPDATE contacts SET added_at = (SELECT created_at FROM lists WHERE lists.id = contacts.list_id);
