-- SQLite checks `column IN ('a', 'b', 'c')` (three values or more) through a temporary b-tree
-- that it builds and drops at each row written (`EXPLAIN` shows `OpenEphemeral`): a
-- one-recipient send opened four of them in its campaign, its debit and its campaign's close,
-- 5% of the writer thread's time. The same checks written with `OR` need none. Only the text
-- of each check changes, to one that accepts exactly the same values, so every row already
-- stored still passes it: the kind of change that SQLite's documentation of ALTER TABLE
-- ("Making Other Kinds Of Table Schema Changes") lets one make by editing the schema's text,
-- as for removing a CHECK, rather than by copying each table. The schema's other readers
-- need not reload it: the old and new texts accept the same rows. The texts replaced are the
-- ones the earlier migrations wrote.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(replace(sql,
        'CHECK (status IN (''scheduled'', ''sending'', ''sent'', ''cancelled''))',
        'CHECK (status = ''scheduled'' OR status = ''sending'' OR status = ''sent'' OR status = ''cancelled'')'),
        'CHECK (approval IN (''awaiting'', ''approved'', ''rejected''))',
        'CHECK (approval = ''awaiting'' OR approval = ''approved'' OR approval = ''rejected'')')
    WHERE type = 'table' AND name = 'campaigns';
UPDATE sqlite_schema SET sql = replace(sql,
        'CHECK (channel IN (''email'', ''sms'', ''log''))',
        'CHECK (channel = ''email'' OR channel = ''sms'' OR channel = ''log'')')
    WHERE type = 'table' AND name = 'alert_notices';
UPDATE sqlite_schema SET sql = replace(sql,
        'CHECK (kind IN (''topup'', ''debit'', ''refund'', ''transfer''))',
        'CHECK (kind = ''topup'' OR kind = ''debit'' OR kind = ''refund'' OR kind = ''transfer'')')
    WHERE type = 'table' AND name = 'ledger';
UPDATE sqlite_schema SET sql = replace(sql,
        'CHECK (status IN (''draft'', ''live'', ''paused'', ''archived''))',
        'CHECK (status = ''draft'' OR status = ''live'' OR status = ''paused'' OR status = ''archived'')')
    WHERE type = 'table' AND name = 'journeys';
UPDATE sqlite_schema SET sql = replace(sql,
        'CHECK (state IN (''active'', ''done'', ''stopped'', ''exited''))',
        'CHECK (state = ''active'' OR state = ''done'' OR state = ''stopped'' OR state = ''exited'')')
    WHERE type = 'table' AND name = 'journey_entries';
UPDATE sqlite_schema SET sql = replace(sql,
        'CHECK (type IN (''MO'', ''DLR'', ''STOP'', ''CLICKER'', ''BALANCE_ALERT'', ''JOURNEY''))',
        'CHECK (type = ''MO'' OR type = ''DLR'' OR type = ''STOP'' OR type = ''CLICKER'' OR type = ''BALANCE_ALERT'' OR type = ''JOURNEY'')')
    WHERE type = 'table' AND name = 'webhooks';
UPDATE sqlite_schema SET sql = replace(sql,
        'CHECK (event IN (''MO'', ''DLR'', ''STOP'', ''CLICKER'', ''BALANCE_ALERT'', ''JOURNEY''))',
        'CHECK (event = ''MO'' OR event = ''DLR'' OR event = ''STOP'' OR event = ''CLICKER'' OR event = ''BALANCE_ALERT'' OR event = ''JOURNEY'')')
    WHERE type = 'table' AND name = 'webhook_deliveries';
UPDATE sqlite_schema SET sql = replace(replace(sql,
        'CHECK (event IN (''MO'', ''DLR'', ''STOP'', ''CLICKER'', ''BALANCE_ALERT'', ''JOURNEY''))',
        'CHECK (event = ''MO'' OR event = ''DLR'' OR event = ''STOP'' OR event = ''CLICKER'' OR event = ''BALANCE_ALERT'' OR event = ''JOURNEY'')'),
        'CHECK (state IN (''pending'', ''delivered'', ''failed''))',
        'CHECK (state = ''pending'' OR state = ''delivered'' OR state = ''failed'')')
    WHERE type = 'table' AND name = 'outbox';
PRAGMA writable_schema = RESET;
