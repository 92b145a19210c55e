-- Drafts kept on the server, seen by the whole team. A draft is addressed as a campaign
-- (`PUT /campaign/:id`, `POST /campaign/:id/send`): its id is taken from the campaigns'
-- sequence, so no campaign ever has a draft's number.
CREATE TABLE drafts (
    id          BIGINT PRIMARY KEY,
    account_id  BIGINT NOT NULL REFERENCES accounts(id),
    body        TEXT NOT NULL,   -- the `sms` request, as POST /send or /send/lists take it (JSON)
    author      TEXT,
    created_at  TEXT NOT NULL,
    updated_by  TEXT,
    updated_at  TEXT NOT NULL,
    revision    BIGINT NOT NULL DEFAULT 1   -- one more at each change: a send names the one it saw
);
CREATE INDEX drafts_by_account ON drafts(account_id, id);
