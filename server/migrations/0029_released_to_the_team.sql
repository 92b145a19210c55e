-- Moderation and the team's approval are two gates. `awaits_team`: a campaign held for the
-- operator that also needs the team's approval (an author's, or one over the team's
-- threshold), which the operator's release hands to the team instead of sending it.
-- `awaiting_since`: when a campaign so released began to wait for the team, from which
-- `--approval-wait` counts (its creation for the others).
ALTER TABLE campaigns ADD COLUMN awaits_team BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE campaigns ADD COLUMN awaiting_since TEXT;
