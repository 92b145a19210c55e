-- Settings of the whole platform that operators change from the command line (issue 25):
-- `new_accounts_moderated` ('1' or '0'), whether an account created without saying otherwise
-- has its every campaign held for moderation.
CREATE TABLE platform_settings (
    name   TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
