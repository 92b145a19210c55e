-- A person's own mobile number (`PUT /me`), where a test send goes when it names no number.
ALTER TABLE users ADD COLUMN phone BIGINT;
