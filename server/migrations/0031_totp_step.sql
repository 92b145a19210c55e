-- The time step of the last two-factor code each person signed in with: a code, and any code
-- of an earlier step, is refused after it, on every node and after a restart.
ALTER TABLE users ADD COLUMN totp_step INTEGER;
