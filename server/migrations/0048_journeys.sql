-- Journeys: a trigger and steps (JSON, as the API writes them) that contacts go through on
-- their own. Each change to a journey that has been live is a new version; a contact finishes
-- the version it entered. A contact's place is a node of its version's steps, laid out in order.
CREATE TABLE journeys (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id        INTEGER NOT NULL REFERENCES accounts(id),
    name              TEXT NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('draft', 'live', 'paused', 'archived')),
    version           INTEGER NOT NULL,
    trigger_list      INTEGER,           -- the list whose joiners enter, for a list trigger
    reentry_seconds   INTEGER,           -- after how long a contact may enter again; NULL: never
    edited_by_person  INTEGER,
    edited_by_token   INTEGER,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL
);
CREATE INDEX journeys_by_account ON journeys (account_id, id);
CREATE INDEX journeys_by_trigger_list ON journeys (trigger_list) WHERE trigger_list IS NOT NULL;

CREATE TABLE journey_versions (
    journey_id  INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    definition  TEXT NOT NULL,
    entered     INTEGER NOT NULL DEFAULT 0,  -- how many entered it, kept as they enter (the report)
    PRIMARY KEY (journey_id, version)
);

CREATE TABLE journey_entries (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    journey_id     INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
    version        INTEGER NOT NULL,
    account_id     INTEGER NOT NULL,
    number         INTEGER NOT NULL,
    node           INTEGER NOT NULL,    -- where it is in its version's steps
    arrived        INTEGER NOT NULL,    -- 0: about to reach the node; 1: waiting at it (a send or a wait)
    state          TEXT NOT NULL CHECK (state IN ('active', 'done', 'stopped', 'exited')),
    due_at         TEXT NOT NULL,
    claimed_until  TEXT,
    last_ticket    INTEGER,             -- the journey's last campaign to the number
    last_sent_at   TEXT,
    note           TEXT,
    entered_at     TEXT NOT NULL
);
CREATE INDEX journey_entries_due ON journey_entries (due_at) WHERE state = 'active';
CREATE INDEX journey_entries_by_number ON journey_entries (journey_id, number);
-- One active way through a journey per number, whichever node enters it.
CREATE UNIQUE INDEX journey_entries_active ON journey_entries (journey_id, number) WHERE state = 'active';
CREATE INDEX journey_entries_by_version ON journey_entries (journey_id, version, id);

-- The campaigns a journey's steps sent, so that the campaign lists tell them apart.
CREATE TABLE journey_campaigns (
    campaign_id  INTEGER PRIMARY KEY,
    journey_id   INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
    step         TEXT NOT NULL
);

-- How many contacts reached and left each node of each version (the report).
CREATE TABLE journey_step_counts (
    journey_id  INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    node        INTEGER NOT NULL,
    entered     INTEGER NOT NULL,
    left_count  INTEGER NOT NULL,
    PRIMARY KEY (journey_id, version, node)
);

-- A number that joins a list enters the live journeys the list triggers, in the same
-- transaction as the join (an import, a form, a keyword, by hand), unless it is in one already
-- or entered it too recently.
CREATE TRIGGER list_joiners_enter_journeys AFTER INSERT ON contacts
BEGIN
    INSERT INTO journey_entries (journey_id, version, account_id, number, node, arrived, state, due_at, entered_at)
        SELECT j.id, j.version, j.account_id, NEW.number, 0, 0, 'active',
            strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
        FROM journeys j
        WHERE j.trigger_list = NEW.list_id AND j.status = 'live'
          AND NOT EXISTS (SELECT 1 FROM journey_entries e WHERE e.journey_id = j.id AND e.number = NEW.number
              AND (e.state = 'active' OR j.reentry_seconds IS NULL
                   OR e.entered_at > strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-' || j.reentry_seconds || ' seconds')))
        ON CONFLICT (journey_id, number) WHERE state = 'active' DO NOTHING;
END;

-- Each entry counts in its version's `entered`, so that the report reads one row, not a
-- million.
CREATE TRIGGER journey_entries_counted AFTER INSERT ON journey_entries
BEGIN
    UPDATE journey_versions SET entered = entered + 1 WHERE journey_id = NEW.journey_id AND version = NEW.version;
END;
