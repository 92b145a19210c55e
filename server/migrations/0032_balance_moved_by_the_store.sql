-- The balance moves by the store, in the transaction that writes the ledger, as it does on
-- PostgreSQL: one way of moving money on both stores (server/src/store/money.rs). The trigger
-- that moved it on every ledger insert goes.
DROP TRIGGER IF EXISTS ledger_moves_balance;
