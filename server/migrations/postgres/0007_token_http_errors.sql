-- Whether a token's error answers carry their HTTP status (true, texto's default) or all come
-- as 200 with the same envelope (false), as the SMSFactor SDKs need to read them (issue 22).
ALTER TABLE api_tokens ADD COLUMN http_errors BOOLEAN NOT NULL DEFAULT TRUE;
