-- The frequency cap of marketing sends: {"messages": N, "days": D} (JSON, NULL: none).
ALTER TABLE account_settings ADD COLUMN marketing_cap TEXT;
