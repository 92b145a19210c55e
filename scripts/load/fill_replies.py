"""Stores replies straight into a texto database, for the inbox bench: REPLIES replies to
ACCOUNT from NUMBERS numbers (33600000000 onwards, in turn), spread evenly over the DAYS days
before END (UTC, `2026-11-25T00:00:00Z`), written to 36180. The database's triggers keep the
inbox's conversations as they would for replies texto stores.

Usage: fill_replies.py DB ACCOUNT REPLIES NUMBERS DAYS END
DB is an SQLite file or a postgres:// URL (filled through psql).
"""

import sqlite3
import subprocess
import sys

db, account, replies, numbers, days, end = (
    sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
span = days * 86400
step = span / replies

SQLITE = f"""
WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < {replies - 1})
INSERT INTO replies (account_id, number, text, message_id, stop, received_at, to_number)
SELECT {account}, 33600000000 + (i % {numbers}), 'Réponse ' || i, NULL, 0,
       strftime('%Y-%m-%dT%H:%M:%SZ', '{end}', '-{span} seconds', '+' || CAST(i * {step} AS INTEGER) || ' seconds'),
       '36180'
FROM r;
"""

POSTGRES = f"""
INSERT INTO replies (account_id, number, text, message_id, stop, received_at, to_number)
SELECT {account}, 33600000000 + (i % {numbers}), 'Réponse ' || i, NULL, false,
       to_char(timestamp '{end.replace('T', ' ').rstrip('Z')}' - interval '{span} seconds'
               + floor(i * {step}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       '36180'
FROM generate_series(0, {replies - 1}) AS i;
"""

if db.startswith("postgres"):
    # Then what autovacuum would soon do: the visibility map set, the statistics read.
    vacuum = ["-c", "VACUUM ANALYZE replies", "-c", "VACUUM ANALYZE conversations"]
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", db, "-c", POSTGRES, *vacuum], check=True)
else:
    connection = sqlite3.connect(db)
    connection.executescript("BEGIN;" + SQLITE + "COMMIT; ANALYZE;")
    connection.close()
