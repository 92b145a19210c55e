-- /health writes one row (issue 21): a database that takes no writes answers 503 there.
CREATE TABLE health_probe (
    node BIGINT PRIMARY KEY,
    checked_at TEXT NOT NULL
);
