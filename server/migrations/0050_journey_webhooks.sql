-- A journey's webhook step posts to one of the account's webhooks of the new type JOURNEY
-- (texto's addition). SQLite cannot change a CHECK: the three tables that name the types are
-- rebuilt with JOURNEY among them (foreign keys are off while migrations run, so the outbox
-- and the request log keep their webhooks), with their indexes.
CREATE TABLE webhooks_next (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id      INTEGER NOT NULL REFERENCES accounts(id),
    type            TEXT NOT NULL CHECK (type IN ('MO', 'DLR', 'STOP', 'CLICKER', 'BALANCE_ALERT', 'JOURNEY')),
    url             TEXT NOT NULL,
    secret          TEXT,
    status          TEXT NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'paused')),
    last_http_code  INTEGER,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
INSERT INTO webhooks_next (id, account_id, type, url, secret, status, last_http_code, created_at)
    SELECT id, account_id, type, url, secret, status, last_http_code, created_at FROM webhooks;
DROP TABLE webhooks;
ALTER TABLE webhooks_next RENAME TO webhooks;
CREATE INDEX webhooks_by_account ON webhooks(account_id, id);

CREATE TABLE webhook_deliveries_next (
    id           INTEGER PRIMARY KEY,
    webhook_id   INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    delivery_id  TEXT NOT NULL,
    event        TEXT NOT NULL CHECK (event IN ('MO', 'DLR', 'STOP', 'CLICKER', 'BALANCE_ALERT', 'JOURNEY')),
    body         TEXT NOT NULL,
    attempt      INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1),
    http_code    INTEGER,
    latency_ms   INTEGER,
    error        TEXT,
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    outbox_id    INTEGER
);
INSERT INTO webhook_deliveries_next
    (id, webhook_id, delivery_id, event, body, attempt, http_code, latency_ms, error, created_at, outbox_id)
    SELECT id, webhook_id, delivery_id, event, body, attempt, http_code, latency_ms, error, created_at, outbox_id
    FROM webhook_deliveries;
DROP TABLE webhook_deliveries;
ALTER TABLE webhook_deliveries_next RENAME TO webhook_deliveries;
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries(webhook_id, id);

CREATE TABLE outbox_next (
    id           INTEGER PRIMARY KEY,
    webhook_id   INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event        TEXT NOT NULL CHECK (event IN ('MO', 'DLR', 'STOP', 'CLICKER', 'BALANCE_ALERT', 'JOURNEY')),
    body         TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    delivery_id  TEXT NOT NULL DEFAULT (lower(hex(randomblob(16)))),
    state        TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_at      TEXT NOT NULL DEFAULT ''
);
INSERT INTO outbox_next (id, webhook_id, event, body, created_at, delivery_id, state, attempts, next_at)
    SELECT id, webhook_id, event, body, created_at, delivery_id, state, attempts, next_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_next RENAME TO outbox;
CREATE INDEX outbox_by_webhook ON outbox(webhook_id, id);
CREATE INDEX outbox_pending ON outbox(webhook_id, id) WHERE state = 'pending';
