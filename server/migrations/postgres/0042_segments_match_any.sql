-- A segment's contacts meet every rule (`all`, as before) or at least one (`any`): journeys'
-- triggers and branches need "in list A or tagged B".
ALTER TABLE segments ADD COLUMN matching TEXT NOT NULL DEFAULT 'all' CHECK (matching IN ('all', 'any'));
