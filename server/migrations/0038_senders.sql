-- Registered sender IDs (`texto sender add`): once an account has some, a send may only name
-- one of them; the account's default (at most one) goes with sends that name none.
CREATE TABLE senders (
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    name        TEXT NOT NULL,
    is_default  INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (account_id, name)
);
