-- The template a campaign started from (sms.message.template), when the send named one.
ALTER TABLE campaigns ADD COLUMN template_id INTEGER;
