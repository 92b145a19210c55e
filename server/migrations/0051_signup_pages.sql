-- Sign-up pages (issue 40): an account's hosted forms at /join/{slug}, and each sign-up made
-- on them. A sign-up waits for its confirmation (a code typed on the page, or a reply OUI/YES
-- to the SMS that carried it); once confirmed, its number joined the page's list with the
-- consent recorded, in the same transaction.
CREATE TABLE signup_pages (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    slug        TEXT NOT NULL UNIQUE,
    definition  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX signup_pages_by_account ON signup_pages(account_id, slug);

CREATE TABLE signups (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    page_id       INTEGER NOT NULL REFERENCES signup_pages(id) ON DELETE CASCADE,
    account_id    INTEGER NOT NULL,
    number        INTEGER NOT NULL,
    fields        TEXT NOT NULL DEFAULT '{}',
    code_hash     TEXT NOT NULL,
    language      TEXT NOT NULL,
    address       TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    sent_at       TEXT,
    tries         INTEGER NOT NULL DEFAULT 0,
    confirmed_at  TEXT,
    confirmed_by  TEXT CHECK (confirmed_by IN ('code', 'reply'))
);
CREATE INDEX signups_by_number ON signups(account_id, number, id);
CREATE INDEX signups_by_address ON signups(address, created_at);
CREATE INDEX signups_pending ON signups(created_at) WHERE confirmed_at IS NULL;
