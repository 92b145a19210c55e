-- An id is never given twice. Without AUTOINCREMENT, SQLite gives a new row the highest id in
-- the table plus one, so deleting the newest row let the next one take its id: a segment or a
-- keyword naming a deleted list then named the new list, and a client's saved id of a contact,
-- webhook, keyword, blacklist or NPAI entry, person, route or moderation rule could name
-- another row. SQLite cannot add AUTOINCREMENT to a table: each table whose ids clients keep
-- is rebuilt with it (foreign keys are off while migrations run, so a rebuilt list or webhook
-- keeps its children), with its indexes; the triggers that read `lists` are set again at the end.
DROP TRIGGER list_numbers_are_contacts;
DROP TRIGGER changed_list_numbers_are_contacts;

CREATE TABLE lists_next (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    name        TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
INSERT INTO lists_next (id, account_id, name, created_at) SELECT id, account_id, name, created_at FROM lists;
DROP TABLE lists;
ALTER TABLE lists_next RENAME TO lists;
CREATE INDEX lists_by_account ON lists(account_id, id);

CREATE TABLE contacts_next (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    list_id   INTEGER NOT NULL REFERENCES lists(id) ON DELETE CASCADE,
    number    INTEGER NOT NULL,
    info1     TEXT NOT NULL DEFAULT '',
    info2     TEXT NOT NULL DEFAULT '',
    info3     TEXT NOT NULL DEFAULT '',
    info4     TEXT NOT NULL DEFAULT '',
    added_at  TEXT NOT NULL DEFAULT '',
    UNIQUE (list_id, number)
);
INSERT INTO contacts_next (id, list_id, number, info1, info2, info3, info4, added_at)
    SELECT id, list_id, number, info1, info2, info3, info4, added_at FROM contacts;
DROP TABLE contacts;
ALTER TABLE contacts_next RENAME TO contacts;

CREATE TABLE segments_next (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    name        TEXT NOT NULL,
    rules       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
INSERT INTO segments_next (id, account_id, name, rules, created_at, updated_at)
    SELECT id, account_id, name, rules, created_at, updated_at FROM segments;
DROP TABLE segments;
ALTER TABLE segments_next RENAME TO segments;
CREATE INDEX segments_by_account ON segments (account_id, id);

CREATE TABLE keywords_next (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL REFERENCES accounts(id),
    word        TEXT NOT NULL,
    builtin     TEXT,
    reply       TEXT NOT NULL DEFAULT '',
    actions     TEXT NOT NULL DEFAULT '[]',
    created_at  TEXT NOT NULL,
    UNIQUE (account_id, word)
);
INSERT INTO keywords_next (id, account_id, word, builtin, reply, actions, created_at)
    SELECT id, account_id, word, builtin, reply, actions, created_at FROM keywords;
DROP TABLE keywords;
ALTER TABLE keywords_next RENAME TO keywords;

CREATE TABLE webhooks_next (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id      INTEGER NOT NULL REFERENCES accounts(id),
    type            TEXT NOT NULL CHECK (type IN ('MO', 'DLR', 'STOP', 'CLICKER', 'BALANCE_ALERT')),
    url             TEXT NOT NULL,
    secret          TEXT,
    status          TEXT NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'paused')),
    last_http_code  INTEGER,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
INSERT INTO webhooks_next (id, account_id, type, url, secret, status, last_http_code, created_at)
    SELECT id, account_id, type, url, secret, status, last_http_code, created_at FROM webhooks;
DROP TABLE webhooks;
ALTER TABLE webhooks_next RENAME TO webhooks;
CREATE INDEX webhooks_by_account ON webhooks(account_id, id);

CREATE TABLE blacklist_next (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    number       INTEGER NOT NULL,
    info1        TEXT NOT NULL DEFAULT '',
    info2        TEXT NOT NULL DEFAULT '',
    info3        TEXT NOT NULL DEFAULT '',
    info4        TEXT NOT NULL DEFAULT '',
    campaign_id  INTEGER,
    created_at   TEXT NOT NULL,
    source       TEXT NOT NULL DEFAULT 'api',
    UNIQUE (account_id, number)
);
INSERT INTO blacklist_next (id, account_id, number, info1, info2, info3, info4, campaign_id, created_at, source)
    SELECT id, account_id, number, info1, info2, info3, info4, campaign_id, created_at, source FROM blacklist;
DROP TABLE blacklist;
ALTER TABLE blacklist_next RENAME TO blacklist;
CREATE INDEX blacklist_by_campaign ON blacklist(campaign_id) WHERE campaign_id IS NOT NULL;

CREATE TABLE npai_next (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id   INTEGER NOT NULL REFERENCES accounts(id),
    number       INTEGER NOT NULL,
    info1        TEXT NOT NULL DEFAULT '',
    info2        TEXT NOT NULL DEFAULT '',
    info3        TEXT NOT NULL DEFAULT '',
    info4        TEXT NOT NULL DEFAULT '',
    campaign_id  INTEGER,
    created_at   TEXT NOT NULL,
    source       TEXT NOT NULL DEFAULT 'api',
    UNIQUE (account_id, number)
);
INSERT INTO npai_next (id, account_id, number, info1, info2, info3, info4, campaign_id, created_at, source)
    SELECT id, account_id, number, info1, info2, info3, info4, campaign_id, created_at, source FROM npai;
DROP TABLE npai;
ALTER TABLE npai_next RENAME TO npai;

CREATE TABLE users_next (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id      INTEGER NOT NULL REFERENCES accounts(id),
    email           TEXT NOT NULL UNIQUE,          -- lowercased
    name            TEXT NOT NULL,
    password_hash   TEXT NOT NULL,                 -- argon2id, PHC string
    role            TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    totp_secret     TEXT,
    totp_pending    TEXT,
    recovery_codes  TEXT NOT NULL DEFAULT ''
);
INSERT INTO users_next (id, account_id, email, name, password_hash, role, created_at, totp_secret, totp_pending, recovery_codes)
    SELECT id, account_id, email, name, password_hash, role, created_at, totp_secret, totp_pending, recovery_codes FROM users;
DROP TABLE users;
ALTER TABLE users_next RENAME TO users;
CREATE INDEX users_by_account ON users (account_id, id);

CREATE TABLE routes_next (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    priority    INTEGER NOT NULL DEFAULT 0,
    destination TEXT,
    account_id  INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
    pushtype    TEXT,
    connectors  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    plan        TEXT
);
INSERT INTO routes_next (id, priority, destination, account_id, pushtype, connectors, created_at, plan)
    SELECT id, priority, destination, account_id, pushtype, connectors, created_at, plan FROM routes;
DROP TABLE routes;
ALTER TABLE routes_next RENAME TO routes;

CREATE TABLE moderation_rules_next (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT NOT NULL CHECK (kind IN ('pattern', 'domain')),
    value       TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
INSERT INTO moderation_rules_next (id, kind, value, created_at) SELECT id, kind, value, created_at FROM moderation_rules;
DROP TABLE moderation_rules;
ALTER TABLE moderation_rules_next RENAME TO moderation_rules;

-- A list deleted before this migration is not known any more, but the segments and keywords
-- that still name it are: the next list's id is above every id they name too.
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'lists', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'lists');
UPDATE sqlite_sequence SET seq = MAX(seq,
    (SELECT COALESCE(MAX(CAST(json_extract(rule.value, '$.list') AS INTEGER)), 0)
     FROM segments s, json_each(CASE WHEN json_valid(s.rules) THEN s.rules ELSE '[]' END) rule
     WHERE rule.type = 'object'),
    (SELECT COALESCE(MAX(CAST(json_extract(action.value, '$.list') AS INTEGER)), 0)
     FROM keywords k, json_each(CASE WHEN json_valid(k.actions) THEN k.actions ELSE '[]' END) action
     WHERE action.type = 'object'))
WHERE name = 'lists';

CREATE TRIGGER list_numbers_are_contacts AFTER INSERT ON contacts
BEGIN
    INSERT OR IGNORE INTO account_contacts (account_id, number, created_at, updated_at)
        SELECT account_id, NEW.number, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
        FROM lists WHERE id = NEW.list_id;
END;
CREATE TRIGGER changed_list_numbers_are_contacts AFTER UPDATE OF number ON contacts
BEGIN
    INSERT OR IGNORE INTO account_contacts (account_id, number, created_at, updated_at)
        SELECT account_id, NEW.number, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
        FROM lists WHERE id = NEW.list_id;
END;
