-- Registered sender IDs (`texto sender add`): once an account has some, a send may only name
-- one of them; the account's default (at most one) goes with sends that name none.
CREATE TABLE senders (
    account_id  BIGINT NOT NULL REFERENCES accounts(id),
    name        TEXT NOT NULL,
    is_default  BOOLEAN NOT NULL DEFAULT false,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (account_id, name)
);
