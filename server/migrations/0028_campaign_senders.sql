-- Whose hand sent a campaign that waits (for the team or for the operator): the person who
-- answers for it (signed in, or through a token they made), else the token it was sent with.
-- The four eyes of an approval compare these, not names. Campaigns already waiting get the
-- person whose email, or the one token whose name, they were sent under.
ALTER TABLE campaigns ADD COLUMN sent_by_person INTEGER;
ALTER TABLE campaigns ADD COLUMN sent_by_token INTEGER;
UPDATE campaigns SET sent_by_person = (SELECT u.id FROM users u WHERE u.email = campaigns.created_by)
    WHERE approval = 'awaiting';
UPDATE campaigns SET sent_by_token = (
        SELECT min(t.id) FROM api_tokens t
        WHERE t.account_id = campaigns.account_id AND t.name = campaigns.created_by HAVING count(*) = 1)
    WHERE approval = 'awaiting' AND sent_by_person IS NULL;
