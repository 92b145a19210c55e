-- Segments and consent (issue 24): a saved segment is a name and rules over the account's
-- contacts (JSON, as the API writes them), counted and sent when asked; an account may ask that
-- its marketing sends skip contacts without an opt-in.
CREATE TABLE segments (
    id          INTEGER PRIMARY KEY,
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    name        TEXT NOT NULL,
    rules       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX segments_by_account ON segments (account_id, id);
ALTER TABLE account_settings ADD COLUMN marketing_needs_consent INTEGER NOT NULL DEFAULT 0;
CREATE INDEX account_contacts_consented ON account_contacts (account_id, number) WHERE opt_in_at IS NOT NULL AND opt_out_at IS NULL;

-- Every number of a list is a contact of the list's account: a row here, empty until something
-- is recorded about it (so that segments and the contacts listing read one table). It stays
-- when the list lets it go, like a card; the retention pass deletes empty ones in no list.
INSERT OR IGNORE INTO account_contacts (account_id, number, created_at, updated_at)
    SELECT l.account_id, c.number, MIN(COALESCE(NULLIF(c.added_at, ''), strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))),
        MIN(COALESCE(NULLIF(c.added_at, ''), strftime('%Y-%m-%dT%H:%M:%SZ', 'now')))
    FROM contacts c JOIN lists l ON l.id = c.list_id GROUP BY l.account_id, c.number;
CREATE TRIGGER list_numbers_are_contacts AFTER INSERT ON contacts
BEGIN
    INSERT OR IGNORE INTO account_contacts (account_id, number, created_at, updated_at)
        SELECT account_id, NEW.number, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
        FROM lists WHERE id = NEW.list_id;
END;
CREATE TRIGGER changed_list_numbers_are_contacts AFTER UPDATE OF number ON contacts
BEGIN
    INSERT OR IGNORE INTO account_contacts (account_id, number, created_at, updated_at)
        SELECT account_id, NEW.number, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
        FROM lists WHERE id = NEW.list_id;
END;
