-- The request log of webhooks (docs/interface.md §7.7): one row per delivery attempt, with what was
-- sent and what came back. The delivery engine writes it; until that exists it stays empty.
-- Deleting a webhook deletes its log.
CREATE TABLE webhook_deliveries (
    id           INTEGER PRIMARY KEY,
    webhook_id   INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    delivery_id  TEXT NOT NULL,                -- X-Service-Delivery: the same for every attempt of one event
    event        TEXT NOT NULL CHECK (event IN ('MO', 'DLR', 'STOP', 'CLICKER', 'BALANCE_ALERT')),
    body         TEXT NOT NULL,                -- the JSON posted
    attempt      INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1),
    http_code    INTEGER,                      -- null when no answer came (time-out, refused)
    latency_ms   INTEGER,
    error        TEXT,                         -- null on success
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries(webhook_id, id);
