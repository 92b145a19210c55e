-- Journeys the clock puts contacts in: a date field of the contact (a birthday) or a schedule
-- over a segment. The runner plans each (a day of dates, a time the schedule came round) once:
-- `planned_until` is how far it got, moved in the same transaction as the entries it plans.
ALTER TABLE journeys ADD COLUMN trigger_timed INTEGER NOT NULL DEFAULT 0;  -- 1: a date or schedule trigger
ALTER TABLE journeys ADD COLUMN planned_until TEXT;  -- a schedule's last time done, a date trigger's last day planned
-- Journeys a contact enters when it starts matching a segment: the planner compares the
-- segment's members with those it saw last (`journey_segment_members`) every few seconds.
ALTER TABLE journeys ADD COLUMN trigger_segment INTEGER;  -- the segment whose newcomers enter
CREATE TABLE journey_segment_members (
    journey_id  INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    PRIMARY KEY (journey_id, number)
) WITHOUT ROWID;
-- Journeys a reply's keyword or a click on a campaign's link starts: the replier or the clicker
-- enters in the reply's or the click's own transaction, as a list's joiner does.
ALTER TABLE journeys ADD COLUMN trigger_keyword TEXT;     -- the keyword, folded as replies.keyword is
ALTER TABLE journeys ADD COLUMN trigger_campaign INTEGER; -- the campaign whose links a click on enters
CREATE INDEX journeys_by_trigger_keyword ON journeys (account_id, trigger_keyword) WHERE trigger_keyword IS NOT NULL;
CREATE INDEX journeys_by_trigger_campaign ON journeys (trigger_campaign) WHERE trigger_campaign IS NOT NULL;

CREATE TRIGGER keyword_repliers_enter_journeys AFTER INSERT ON replies WHEN NEW.keyword IS NOT NULL
BEGIN
    INSERT INTO journey_entries (journey_id, version, account_id, number, node, arrived, state, due_at, entered_at)
        SELECT j.id, j.version, j.account_id, NEW.number, 0, 0, 'active',
            strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
        FROM journeys j
        WHERE j.account_id = NEW.account_id AND j.trigger_keyword = NEW.keyword AND j.status = 'live'
          AND NOT EXISTS (SELECT 1 FROM journey_entries e WHERE e.journey_id = j.id AND e.number = NEW.number
              AND (e.state = 'active' OR j.reentry_seconds IS NULL
                   OR e.entered_at > strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-' || j.reentry_seconds || ' seconds')))
        ON CONFLICT (journey_id, number) WHERE state = 'active' DO NOTHING;
END;

CREATE TRIGGER clickers_enter_journeys AFTER INSERT ON clicks
BEGIN
    INSERT INTO journey_entries (journey_id, version, account_id, number, node, arrived, state, due_at, entered_at)
        SELECT j.id, j.version, j.account_id, m.number, 0, 0, 'active',
            strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
        FROM journeys j JOIN messages m ON m.id = NEW.message_id AND m.account_id = j.account_id
        WHERE j.trigger_campaign = NEW.campaign_id AND j.status = 'live'
          AND NOT EXISTS (SELECT 1 FROM journey_entries e WHERE e.journey_id = j.id AND e.number = m.number
              AND (e.state = 'active' OR j.reentry_seconds IS NULL
                   OR e.entered_at > strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-' || j.reentry_seconds || ' seconds')))
        ON CONFLICT (journey_id, number) WHERE state = 'active' DO NOTHING;
END;
