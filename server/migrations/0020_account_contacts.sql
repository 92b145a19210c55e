-- Contacts (issue 24): one per account and number, beside the lists that hold numbers: names,
-- custom fields (JSON: text, number or date values), tags (a JSON array), when it was created
-- and changed, and consent: the opt-in (when, how: import, api, keyword, form; the proof; the
-- web form's address) and the opt-out (when, how). Numbers in lists are contacts too: they
-- have a row here once something is recorded about them.
CREATE TABLE account_contacts (
    account_id       INTEGER NOT NULL,
    number           INTEGER NOT NULL,
    firstname        TEXT NOT NULL DEFAULT '',
    lastname         TEXT NOT NULL DEFAULT '',
    fields           TEXT NOT NULL DEFAULT '{}',
    tags             TEXT NOT NULL DEFAULT '[]',
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    opt_in_at        TEXT,
    opt_in_source    TEXT,
    opt_in_proof     TEXT,
    opt_in_address   TEXT,
    opt_out_at       TEXT,
    opt_out_source   TEXT,
    PRIMARY KEY (account_id, number)
);
