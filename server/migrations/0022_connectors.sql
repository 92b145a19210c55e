-- Connectors and routes (issue 25): the SMSCs texto may hand messages to besides the `--smsc`
-- one (`default`), the routes choosing among them, and each node's live view of them.
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
