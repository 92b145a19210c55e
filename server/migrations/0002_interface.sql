-- Everything the interface stores. Numbers are INTEGER (international digits), amounts are
-- INTEGER hundredths of a credit, times are UTC ISO-8601 text.

CREATE TABLE api_tokens (
    id          INTEGER PRIMARY KEY,
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    token_hash  BLOB NOT NULL UNIQUE,          -- SHA-256 of the token; the token itself is never stored
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    revoked_at  TEXT
);

-- The balance is derived from the ledger: every insert moves accounts.balance by its amount
-- (trigger below), and the CHECK makes any debit that would overdraw fail its transaction.
ALTER TABLE accounts ADD COLUMN balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0);

CREATE TABLE ledger (
    id           INTEGER PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    amount       INTEGER NOT NULL,             -- + top-up or refund, - debit
    kind         TEXT NOT NULL CHECK (kind IN ('topup', 'debit', 'refund')),
    campaign_id  INTEGER,
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX ledger_by_account ON ledger(account_id, id);

CREATE TRIGGER ledger_moves_balance AFTER INSERT ON ledger
BEGIN
    UPDATE accounts SET balance = balance + NEW.amount WHERE id = NEW.account_id;
END;

CREATE TABLE campaigns (
    id             INTEGER PRIMARY KEY,        -- the ticket
    account_id     INTEGER NOT NULL REFERENCES accounts(id),
    text           TEXT NOT NULL,
    pushtype       TEXT NOT NULL,
    sender         TEXT,
    links          TEXT NOT NULL DEFAULT '[]', -- JSON array of URLs
    lists          TEXT NOT NULL DEFAULT '[]', -- JSON array of list ids
    unicode        INTEGER NOT NULL DEFAULT 0,
    status         TEXT NOT NULL CHECK (status IN ('scheduled', 'sending', 'sent', 'cancelled')),
    send_at        TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    cost           INTEGER NOT NULL,
    total          INTEGER NOT NULL,
    sent           INTEGER NOT NULL,
    blacklisted    INTEGER NOT NULL,
    duplicated     INTEGER NOT NULL,
    invalid        INTEGER NOT NULL,
    npai           INTEGER NOT NULL,
    not_allowed    INTEGER NOT NULL,
    flood          INTEGER NOT NULL,
    country_limit  INTEGER NOT NULL
);
CREATE INDEX campaigns_by_account ON campaigns(account_id, id);

CREATE TABLE messages (
    id           INTEGER PRIMARY KEY,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id),
    account_id   INTEGER NOT NULL,
    number       INTEGER NOT NULL,
    country      TEXT NOT NULL,
    gsmsmsid     TEXT,
    parts        INTEGER NOT NULL,
    cost         INTEGER NOT NULL,
    text_hash    INTEGER NOT NULL,             -- for anti-flood "identical texts"
    delivery     INTEGER NOT NULL DEFAULT 0,   -- delivery code, docs/interface.md §6.2
    created_at   TEXT NOT NULL
);
CREATE INDEX messages_by_campaign ON messages(campaign_id);
CREATE INDEX messages_recent ON messages(account_id, number, created_at);
CREATE INDEX messages_by_time ON messages(account_id, created_at);

CREATE TABLE lists (
    id          INTEGER PRIMARY KEY,
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    name        TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX lists_by_account ON lists(account_id, id);

CREATE TABLE contacts (
    id       INTEGER PRIMARY KEY,
    list_id  INTEGER NOT NULL REFERENCES lists(id) ON DELETE CASCADE,
    number   INTEGER NOT NULL,
    info1    TEXT NOT NULL DEFAULT '',
    info2    TEXT NOT NULL DEFAULT '',
    info3    TEXT NOT NULL DEFAULT '',
    info4    TEXT NOT NULL DEFAULT '',
    UNIQUE (list_id, number)
);

-- NPAI and blacklist entries have the same shape.
CREATE TABLE blacklist (
    id           INTEGER PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    number       INTEGER NOT NULL,
    info1        TEXT NOT NULL DEFAULT '',
    info2        TEXT NOT NULL DEFAULT '',
    info3        TEXT NOT NULL DEFAULT '',
    info4        TEXT NOT NULL DEFAULT '',
    campaign_id  INTEGER,
    created_at   TEXT NOT NULL,
    UNIQUE (account_id, number)
);

CREATE TABLE npai (
    id           INTEGER PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    number       INTEGER NOT NULL,
    info1        TEXT NOT NULL DEFAULT '',
    info2        TEXT NOT NULL DEFAULT '',
    info3        TEXT NOT NULL DEFAULT '',
    info4        TEXT NOT NULL DEFAULT '',
    campaign_id  INTEGER,
    created_at   TEXT NOT NULL,
    UNIQUE (account_id, number)
);

CREATE TABLE webhooks (
    id              INTEGER PRIMARY KEY,
    account_id      INTEGER NOT NULL REFERENCES accounts(id),
    type            TEXT NOT NULL CHECK (type IN ('MO', 'DLR', 'STOP', 'CLICKER', 'BALANCE_ALERT')),
    url             TEXT NOT NULL,
    secret          TEXT,
    status          TEXT NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'paused')),
    last_http_code  INTEGER,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX webhooks_by_account ON webhooks(account_id, id);

CREATE TABLE balance_alerts (
    account_id     INTEGER PRIMARY KEY REFERENCES accounts(id),
    alert_trigger  INTEGER NOT NULL,
    alert_email    INTEGER NOT NULL DEFAULT 0,
    alert_gsm      INTEGER NOT NULL DEFAULT 0,
    email          TEXT NOT NULL DEFAULT '',
    phone_number   TEXT NOT NULL DEFAULT ''
);

-- Per-account limits (docs/interface.md §3.4); absent rows mean the defaults.
CREATE TABLE account_countries (
    account_id     INTEGER NOT NULL REFERENCES accounts(id),
    country        TEXT NOT NULL,
    allowed        INTEGER NOT NULL DEFAULT 1,
    monthly_cap    INTEGER,
    PRIMARY KEY (account_id, country)
);
