-- Whether a token's error answers carry their HTTP status (1, texto's default) or all come as
-- 200 with the same envelope (0), as the SMSFactor SDKs need to read them (issue 22).
ALTER TABLE api_tokens ADD COLUMN http_errors INTEGER NOT NULL DEFAULT 1 CHECK (http_errors IN (0, 1));
