-- Journeys the clock puts contacts in: a date field of the contact (a birthday) or a schedule
-- over a segment. The runner plans each (a day of dates, a time the schedule came round) once:
-- `planned_until` is how far it got, moved in the same transaction as the entries it plans.
ALTER TABLE journeys ADD COLUMN trigger_timed INTEGER NOT NULL DEFAULT 0;  -- 1: a date or schedule trigger
ALTER TABLE journeys ADD COLUMN planned_until TEXT;  -- a schedule's last time done, a date trigger's last day planned
