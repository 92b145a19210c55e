-- The marketing window in the recipient's own time: a campaign with numbers in the overseas
-- territories writes its messages zone by zone (Paris's window first), and notes each zone's
-- last message id in order, as JSON ([["paris", 120], ["RE", 131]]); the hand-over takes
-- marketing only from the zones whose window is open. NULL: every message keeps Paris's.
ALTER TABLE campaigns ADD COLUMN zones TEXT;
