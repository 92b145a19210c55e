-- Campaigns scheduled or sending, by id. Looked up by send_at, this partial index could not
-- serve a lookup by id, and when the statistics said no campaign was sending (taken between two
-- bursts), the planner scanned it whole once per id instead of using the primary key: 1-1.6 s
-- a wave of one-recipient campaigns. By id, every use of it is a key range or a short scan.
DROP INDEX campaigns_to_dispatch;
CREATE INDEX campaigns_in_progress ON campaigns(id) WHERE status IN ('scheduled', 'sending');
-- Each one-recipient send adds a campaign and closes it seconds later: vacuumed and analysed
-- as often as the queue tables, so the index's dead entries and the status statistics keep up.
ALTER TABLE campaigns SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
