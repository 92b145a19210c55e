-- The operator (issue 25): connectors (the SMSCs texto may hand messages to besides the
-- `--smsc` one, `default`), the routes choosing among them, each node's live view of them,
-- price plans, operators and moderation.
CREATE TABLE connectors (
    name        TEXT PRIMARY KEY,
    url         TEXT NOT NULL,
    enabled     INTEGER NOT NULL DEFAULT 1,
    updated_at  TEXT NOT NULL
);
CREATE TABLE routes (
    id          INTEGER PRIMARY KEY,
    priority    INTEGER NOT NULL DEFAULT 0,
    destination TEXT,
    account_id  INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
    pushtype    TEXT,
    connectors  TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE TABLE connector_status (
    node                 TEXT NOT NULL,
    name                 TEXT NOT NULL,
    binds                INTEGER NOT NULL,
    binds_up             INTEGER NOT NULL,
    in_flight            INTEGER NOT NULL,
    per_second           REAL NOT NULL,
    handed               INTEGER NOT NULL,
    errors               INTEGER NOT NULL,
    last_error           TEXT,
    receipts_outstanding INTEGER NOT NULL,
    updated_at           TEXT NOT NULL,
    PRIMARY KEY (node, name)
);

-- Price plans: credits per part by country (hundredths, as JSON) and for the rest; an account
-- without a row in account_plans pays the shipped prices.
CREATE TABLE price_plans (
    name        TEXT PRIMARY KEY,
    prices      TEXT NOT NULL,
    other       INTEGER NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE TABLE account_plans (
    account_id  INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    plan        TEXT NOT NULL REFERENCES price_plans(name),
    updated_at  TEXT NOT NULL
);

-- Operators: platform-wide, with a bearer token of their own (stored by its SHA-256).
CREATE TABLE operators (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    token_hash  BLOB NOT NULL UNIQUE,
    created_at  TEXT NOT NULL
);

-- Moderation: an account marked moderated has every campaign held; so has any campaign whose
-- text matches a pattern or whose links point to a listed domain. A held campaign is scheduled
-- at 9999-12-30 (as one awaiting approval is at 9999-12-31) until an operator releases it.
ALTER TABLE accounts ADD COLUMN moderated INTEGER NOT NULL DEFAULT 0;
-- Messages a second handed to carriers for the account (NULL: no limit).
ALTER TABLE accounts ADD COLUMN per_second INTEGER;
CREATE TABLE moderation_rules (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('pattern', 'domain')),
    value       TEXT NOT NULL,
    created_at  TEXT NOT NULL
);

-- Messages each node handed to each connector, per UTC minute, for the operator's traffic chart
-- (the last two hours are kept).
CREATE TABLE connector_traffic (
    minute  TEXT NOT NULL,
    node    TEXT NOT NULL,
    name    TEXT NOT NULL,
    handed  BIGINT NOT NULL,
    PRIMARY KEY (minute, node, name)
);
