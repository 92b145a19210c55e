-- Journeys the clock puts contacts in: a date field of the contact (a birthday) or a schedule
-- over a segment. The runner plans each (a day of dates, a time the schedule came round) once:
-- `planned_until` is how far it got, moved in the same transaction as the entries it plans.
ALTER TABLE journeys ADD COLUMN trigger_timed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE journeys ADD COLUMN planned_until TEXT;
