-- Journeys the clock puts contacts in: a date field of the contact (a birthday) or a schedule
-- over a segment. The runner plans each (a day of dates, a time the schedule came round) once:
-- `planned_until` is how far it got, moved in the same transaction as the entries it plans.
ALTER TABLE journeys ADD COLUMN trigger_timed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE journeys ADD COLUMN planned_until TEXT;
-- Journeys a contact enters when it starts matching a segment: the planner compares the
-- segment's members with those it saw last (`journey_segment_members`) every few seconds.
ALTER TABLE journeys ADD COLUMN trigger_segment BIGINT;
CREATE TABLE journey_segment_members (
    journey_id  BIGINT NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
    number      BIGINT NOT NULL,
    PRIMARY KEY (journey_id, number)
);
-- The node holding a claim: a node that stops beating frees its claims at once, not when they
-- run out.
ALTER TABLE journey_entries ADD COLUMN claimed_by BIGINT;
-- Journeys a reply's keyword or a click on a campaign's link starts: the replier or the clicker
-- enters in the reply's or the click's own transaction, as a list's joiner does.
ALTER TABLE journeys ADD COLUMN trigger_keyword TEXT;
ALTER TABLE journeys ADD COLUMN trigger_campaign BIGINT;
CREATE INDEX journeys_by_trigger_keyword ON journeys (account_id, trigger_keyword) WHERE trigger_keyword IS NOT NULL;
CREATE INDEX journeys_by_trigger_campaign ON journeys (trigger_campaign) WHERE trigger_campaign IS NOT NULL;

CREATE FUNCTION keyword_repliers_enter_journeys() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    now_text TEXT := to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
BEGIN
    INSERT INTO journey_entries (journey_id, version, account_id, number, node, arrived, state, due_at, entered_at)
        SELECT DISTINCT ON (j.id, added.number) j.id, j.version, j.account_id, added.number, 0, FALSE, 'active',
            now_text, now_text
        FROM added JOIN journeys j
            ON j.account_id = added.account_id AND j.trigger_keyword = added.keyword AND j.status = 'live'
        WHERE NOT EXISTS (SELECT 1 FROM journey_entries e WHERE e.journey_id = j.id AND e.number = added.number
            AND (e.state = 'active' OR j.reentry_seconds IS NULL
                 OR e.entered_at > to_char((now() - make_interval(secs => j.reentry_seconds)) AT TIME ZONE 'UTC',
                                           'YYYY-MM-DD"T"HH24:MI:SS"Z"')))
        ON CONFLICT (journey_id, number) WHERE state = 'active' DO NOTHING;
    RETURN NULL;
END
$$;
CREATE TRIGGER keyword_repliers_enter_journeys AFTER INSERT ON replies REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION keyword_repliers_enter_journeys();

CREATE FUNCTION clickers_enter_journeys() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    now_text TEXT := to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
BEGIN
    INSERT INTO journey_entries (journey_id, version, account_id, number, node, arrived, state, due_at, entered_at)
        SELECT DISTINCT ON (j.id, m.number) j.id, j.version, j.account_id, m.number, 0, FALSE, 'active',
            now_text, now_text
        FROM added JOIN journeys j ON j.trigger_campaign = added.campaign_id AND j.status = 'live'
            JOIN messages m ON m.id = added.message_id AND m.account_id = j.account_id
        WHERE NOT EXISTS (SELECT 1 FROM journey_entries e WHERE e.journey_id = j.id AND e.number = m.number
            AND (e.state = 'active' OR j.reentry_seconds IS NULL
                 OR e.entered_at > to_char((now() - make_interval(secs => j.reentry_seconds)) AT TIME ZONE 'UTC',
                                           'YYYY-MM-DD"T"HH24:MI:SS"Z"')))
        ON CONFLICT (journey_id, number) WHERE state = 'active' DO NOTHING;
    RETURN NULL;
END
$$;
CREATE TRIGGER clickers_enter_journeys AFTER INSERT ON clicks REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION clickers_enter_journeys();
