-- The campaign studio: a sending campaign can be paused (no new wave starts while paused_at is
-- set), and a send can say how long the carrier keeps trying (minutes, the SMPP validity period).
ALTER TABLE campaigns ADD COLUMN paused_at TEXT;
ALTER TABLE campaigns ADD COLUMN validity INTEGER;

-- Templates: a campaign's message kept to start campaigns from, seen by the whole team.
CREATE TABLE templates (
    id          INTEGER PRIMARY KEY,
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    name        TEXT NOT NULL,
    text        TEXT NOT NULL,
    pushtype    TEXT NOT NULL,
    sender      TEXT,
    links       TEXT NOT NULL DEFAULT '[]',
    author      TEXT,
    updated_at  TEXT NOT NULL
);
CREATE INDEX templates_by_account ON templates(account_id, id);
