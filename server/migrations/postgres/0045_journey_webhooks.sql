-- A journey's webhook step posts to one of the account's webhooks of the new type JOURNEY
-- (texto's addition): the three tables that name the types take it.
ALTER TABLE webhooks DROP CONSTRAINT webhooks_type_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_type_check
    CHECK (type IN ('MO', 'DLR', 'STOP', 'CLICKER', 'BALANCE_ALERT', 'JOURNEY'));
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_check
    CHECK (event IN ('MO', 'DLR', 'STOP', 'CLICKER', 'BALANCE_ALERT', 'JOURNEY'));
ALTER TABLE outbox DROP CONSTRAINT outbox_event_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_event_check
    CHECK (event IN ('MO', 'DLR', 'STOP', 'CLICKER', 'BALANCE_ALERT', 'JOURNEY'));
