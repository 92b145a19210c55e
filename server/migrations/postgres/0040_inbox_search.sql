-- The inbox's search by text, on an index: pg_trgm's trigrams of the conversations' last
-- replies (lowercased, as the search compares them), which `LIKE '%…%'` uses for three
-- characters or more. pg_trgm ships with PostgreSQL and is a trusted extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX conversations_text_trigrams ON conversations USING gin (lower(last_text) gin_trgm_ops);
