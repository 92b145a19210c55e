-- Tokens an account manages itself (POST /token, issue 22): a name, the first characters of
-- the token to tell it apart, an expiry, the addresses it answers to (comma-separated ranges;
-- empty: any) and its last use, written at most once a minute.
ALTER TABLE api_tokens ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE api_tokens ADD COLUMN hint TEXT NOT NULL DEFAULT '';
ALTER TABLE api_tokens ADD COLUMN expires_at TEXT;
ALTER TABLE api_tokens ADD COLUMN allowed_ips TEXT NOT NULL DEFAULT '';
ALTER TABLE api_tokens ADD COLUMN last_used_at TEXT;
CREATE INDEX api_tokens_by_account ON api_tokens(account_id, id);
