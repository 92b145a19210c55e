-- /health writes this one row through the writer (issue 21): a database that cannot write
-- (a full disk) answers 503 there, not only to the requests that happen to write.
CREATE TABLE health_probe (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    checked_at TEXT NOT NULL
);
