-- Suspension (issue 25): an operator suspends an account (and with it its sub-accounts); its
-- tokens and sessions are refused and its queued messages wait until it is restored.
ALTER TABLE accounts ADD COLUMN suspended_at TEXT;
