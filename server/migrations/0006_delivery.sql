-- Delivery over SMPP (issue 12): each message's hand-off and receipt, what comes back
-- (replies, clicks), and the durable outbox of the events they raise.

-- A message is queued (delivery 0), submitted (delivery 1 with smsc_id: the SMSC's id of its
-- last part), then final (the receipt's code).
ALTER TABLE messages ADD COLUMN smsc_id TEXT;
ALTER TABLE messages ADD COLUMN info TEXT;          -- JSON [info1, …, info4] of a list contact
CREATE UNIQUE INDEX messages_by_smsc_id ON messages(smsc_id) WHERE smsc_id IS NOT NULL;
CREATE INDEX messages_queued ON messages(campaign_id, id) WHERE delivery = 0;
CREATE INDEX campaigns_to_dispatch ON campaigns(send_at) WHERE status IN ('scheduled', 'sending');

-- The wave of messages being handed over now, as id ranges per campaign (a wave takes
-- consecutive queued messages): those still queued after a crash may have reached the SMSC.
CREATE TABLE in_flight (
    campaign_id  INTEGER NOT NULL,
    first_id     INTEGER NOT NULL,
    last_id      INTEGER NOT NULL
);

-- Where a blacklist or NPAI entry came from: the customer ('api'), a STOP reply ('stop'), a
-- receipt of an unknown subscriber ('receipt').
ALTER TABLE blacklist ADD COLUMN source TEXT NOT NULL DEFAULT 'api';
ALTER TABLE npai ADD COLUMN source TEXT NOT NULL DEFAULT 'api';
CREATE INDEX blacklist_by_campaign ON blacklist(campaign_id) WHERE campaign_id IS NOT NULL;

-- Who last sent to a number, for attributing its replies (docs/interface.md §7.2).
CREATE TABLE last_sent (
    number      INTEGER PRIMARY KEY,
    account_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    sent_at     TEXT NOT NULL
);

-- Receipts that arrived before their submit's id was stored; matched when it is.
CREATE TABLE receipts_unmatched (
    smsc_id      TEXT PRIMARY KEY,
    delivery     INTEGER NOT NULL,
    received_at  TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE replies (
    id           INTEGER PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    number       INTEGER NOT NULL,
    text         TEXT NOT NULL,
    message_id   INTEGER,                -- the last message the account sent to the number
    stop         INTEGER NOT NULL,       -- 1 when the text is a stop word
    received_at  TEXT NOT NULL
);
CREATE INDEX replies_by_account ON replies(account_id, id);

CREATE TABLE clicks (
    id           INTEGER PRIMARY KEY,
    campaign_id  INTEGER NOT NULL,
    message_id   INTEGER NOT NULL,
    link         INTEGER NOT NULL,       -- the position of the link in the campaign
    brand        TEXT NOT NULL,
    model        TEXT NOT NULL,
    os           TEXT NOT NULL,
    clicked_at   TEXT NOT NULL
);
CREATE INDEX clicks_by_campaign ON clicks(campaign_id, message_id, link);

-- Every event, one row per webhook (live or paused) of its type, written with the change that
-- raised it. The webhook sender posts each webhook's events in order: pending until a 2xx
-- (delivered) or until it gives up (failed); next_at is when the next attempt may go ('' now).
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY,
    webhook_id   INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event        TEXT NOT NULL CHECK (event IN ('MO', 'DLR', 'STOP', 'CLICKER', 'BALANCE_ALERT')),
    body         TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    delivery_id  TEXT NOT NULL DEFAULT (lower(hex(randomblob(16)))),
    state        TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_at      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX outbox_by_webhook ON outbox(webhook_id, id);
CREATE INDEX outbox_pending ON outbox(webhook_id, id) WHERE state = 'pending';
-- Which event each logged attempt was of (for its state and for resending it). No foreign
-- key: both tables already go with their webhook, and one would make SQLite scan the whole
-- log for every outbox row deleted.
ALTER TABLE webhook_deliveries ADD COLUMN outbox_id INTEGER;

-- The email and SMS of each balance alert raised: handled_at stays null until it went or was
-- given up (then error says why).
CREATE TABLE alert_notices (
    id          INTEGER PRIMARY KEY,
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    channel     TEXT NOT NULL CHECK (channel IN ('email', 'sms', 'log')),
    target      TEXT NOT NULL,
    body        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    handled_at  TEXT,
    error       TEXT
);
CREATE INDEX alert_notices_pending ON alert_notices(id) WHERE handled_at IS NULL;

-- Server secrets made at first start (the key of the short-link codes).
CREATE TABLE secrets (
    name   TEXT PRIMARY KEY,
    value  BLOB NOT NULL
) WITHOUT ROWID;

-- Campaigns accepted before texto had a carrier never left. Handing them over now, perhaps
-- weeks late (an expired code, a past sale), would surprise their recipients: their messages
-- are recorded as ROUTE_NOT_AVAILABLE (7) and the campaigns as sent. Scheduled campaigns still
-- go out at their time.
UPDATE messages SET delivery = 7
WHERE delivery = 0 AND campaign_id IN (SELECT id FROM campaigns WHERE status = 'sending');
UPDATE campaigns SET status = 'sent' WHERE status = 'sending';
