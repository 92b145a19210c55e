-- UTM tagging: the account's tags (JSON, NULL: none) and the tags each campaign's short links
-- carry, resolved when it was sent (the send's own, or the account's then).
ALTER TABLE account_settings ADD COLUMN utm TEXT;
ALTER TABLE campaigns ADD COLUMN utm TEXT;
