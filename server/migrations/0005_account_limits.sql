-- Anti-flood limits per account (docs/interface.md §3.3: configurable per account). NULL keeps the
-- reference defaults (6 identical texts, 20 texts per number and rolling hour).
ALTER TABLE accounts ADD COLUMN flood_identical_per_hour INTEGER CHECK (flood_identical_per_hour >= 0);
ALTER TABLE accounts ADD COLUMN flood_any_per_hour INTEGER CHECK (flood_any_per_hour >= 0);
