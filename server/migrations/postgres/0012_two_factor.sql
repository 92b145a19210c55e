-- Two-factor sign-in (issue 23): the confirmed TOTP secret, the one being set up, and the
-- hashes of the unused recovery codes (comma-separated).
ALTER TABLE users ADD COLUMN totp_secret TEXT;
ALTER TABLE users ADD COLUMN totp_pending TEXT;
ALTER TABLE users ADD COLUMN recovery_codes TEXT NOT NULL DEFAULT '';
