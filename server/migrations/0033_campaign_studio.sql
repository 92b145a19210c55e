-- The campaign studio: a sending campaign can be paused (no new wave starts while paused_at is
-- set), and a send can say how long the carrier keeps trying (minutes, the SMPP validity period).
ALTER TABLE campaigns ADD COLUMN paused_at TEXT;
ALTER TABLE campaigns ADD COLUMN validity INTEGER;
