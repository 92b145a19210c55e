-- Who made a token: a person (of the account, or of its parent for a sub-account's token) who
-- answers for it. Their removal revokes it and their role caps it; the audit log names them
-- with it. Null for a token of the command line, or made before tokens recorded their maker.
-- No foreign key: a token whose maker is gone is refused whatever removed them.
ALTER TABLE api_tokens ADD COLUMN made_by BIGINT;
CREATE INDEX api_tokens_by_maker ON api_tokens (made_by) WHERE made_by IS NOT NULL;
