"""Stores a history of messages straight into a texto database, for the GET /messages and
retention benches: MESSAGES messages of ACCOUNT in campaigns of 100, spread evenly over the
DAYS days before END (UTC, `2026-11-25T00:00:00Z`), and as many again for a second account
OTHER, interleaved, so that lookups must tell the accounts apart.

Usage: fill_messages.py DB ACCOUNT OTHER MESSAGES DAYS END
DB is an SQLite file or a postgres:// URL (filled through psql). The schema is the one texto
migrated the database to; every row is what a send would have stored, delivered.
"""

import sqlite3
import subprocess
import sys

db, account, other, messages, days, end = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
campaigns = messages // 100
span = days * 86400
step = span / campaigns  # seconds between two campaigns of one account

# Campaign c (0-based, 2 per slot: one per account) is sent at END - span + (c // 2) * step.
CAMPAIGNS_SQLITE = f"""
WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < {2 * campaigns - 1})
INSERT INTO campaigns (account_id, text, pushtype, status, send_at, created_at, cost, total, sent,
                       blacklisted, duplicated, invalid, npai, not_allowed, flood, country_limit)
SELECT CASE i % 2 WHEN 0 THEN {account} ELSE {other} END, 'Soldes ' || i, 'alert', 'sent',
       strftime('%Y-%m-%dT%H:%M:%SZ', '{end}', '-{span} seconds', '+' || CAST((i / 2) * {step} AS INTEGER) || ' seconds'),
       strftime('%Y-%m-%dT%H:%M:%SZ', '{end}', '-{span} seconds', '+' || CAST((i / 2) * {step} AS INTEGER) || ' seconds'),
       10000, 100, 100, 0, 0, 0, 0, 0, 0, 0 FROM c;
WITH RECURSIVE m(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM m WHERE i < {200 * campaigns - 1})
INSERT INTO messages (campaign_id, account_id, number, country, parts, cost, text_hash, delivery, created_at, delivered_at)
SELECT cp.id, cp.account_id, 33600000000 + (m.i * 7919) % 100000000, 'FR', 1, 100, 0, 3, cp.created_at, cp.created_at
FROM m JOIN campaigns cp ON cp.id = (SELECT MIN(id) FROM campaigns) + m.i / 100;
"""

POSTGRES = f"""
INSERT INTO campaigns (account_id, text, pushtype, status, send_at, created_at, cost, total, sent,
                       blacklisted, duplicated, invalid, npai, not_allowed, flood, country_limit)
SELECT CASE i % 2 WHEN 0 THEN {account} ELSE {other} END, 'Soldes ' || i, 'alert', 'sent', t, t,
       10000, 100, 100, 0, 0, 0, 0, 0, 0, 0
FROM generate_series(0, {2 * campaigns - 1}) AS i,
     LATERAL (SELECT to_char(timestamp '{end.rstrip("Z").replace("T", " ")}' - interval '{span} seconds'
                             + ((i / 2) * {step}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS t) AS at;
INSERT INTO messages (campaign_id, account_id, number, country, parts, cost, text_hash, delivery, created_at, delivered_at)
SELECT cp.id, cp.account_id, 33600000000 + (m.i::bigint * 7919) % 100000000, 'FR', 1, 100, 0, 3, cp.created_at, cp.created_at
FROM generate_series(0, {200 * campaigns - 1}) AS m(i)
JOIN campaigns cp ON cp.id = (SELECT MIN(id) FROM campaigns) + m.i / 100;
"""

if db.startswith("postgres"):
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", db, "-c", POSTGRES], check=True)
    # What autovacuum does soon after a bulk load (messages is tuned to be vacuumed early):
    # the visibility map that lets counts read the index alone.
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", db, "-c", "VACUUM ANALYZE"], check=True)
else:
    connection = sqlite3.connect(db)
    connection.executescript(CAMPAIGNS_SQLITE)
    connection.execute("ANALYZE")
    connection.commit()
    connection.close()
