-- A wave reads each account's first sending campaigns in wave order (alerts first, then by
-- id) on this index, instead of every sending campaign: a backlog of one-recipient sends made
-- each wave read thousands of them, and the hand-over fell further behind as it grew.
CREATE INDEX campaigns_sending ON campaigns (account_id, (pushtype = 'marketing'), id) WHERE status = 'sending';
