-- Keywords (issue 24): an account's rules for the first word of a reply (the built-in STOP,
-- START and HELP are written the first time the account's keywords are read, and act with
-- their defaults until then), the account's settings they read (the help text, whether STOP is
-- confirmed), and the automatic replies they call for: written with the reply that calls for
-- them, at most one per number, keyword and Paris day, then sent by the auto-reply worker.
CREATE TABLE keywords (
    id          INTEGER PRIMARY KEY,
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    word        TEXT NOT NULL,
    builtin     TEXT,
    reply       TEXT NOT NULL DEFAULT '',
    actions     TEXT NOT NULL DEFAULT '[]',
    created_at  TEXT NOT NULL,
    UNIQUE (account_id, word)
);
CREATE TABLE account_settings (
    account_id         INTEGER PRIMARY KEY REFERENCES accounts(id),
    help_text          TEXT NOT NULL DEFAULT '',
    stop_confirmation  BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE TABLE auto_replies (
    id              INTEGER PRIMARY KEY,
    account_id      INTEGER NOT NULL,
    number          INTEGER NOT NULL,
    sender          TEXT NOT NULL DEFAULT '',
    word            TEXT NOT NULL,
    day             TEXT NOT NULL,
    text            TEXT NOT NULL,
    to_blacklisted  BOOLEAN NOT NULL DEFAULT FALSE,
    created_at      TEXT NOT NULL,
    ticket          INTEGER,
    outcome         TEXT,
    UNIQUE (account_id, number, word, day)
);
CREATE INDEX auto_replies_due ON auto_replies (id) WHERE outcome IS NULL;
-- The first word of a reply, as a keyword (the inbox filters by it).
ALTER TABLE replies ADD COLUMN keyword TEXT;
CREATE INDEX replies_by_keyword ON replies (account_id, keyword, number) WHERE keyword IS NOT NULL;
