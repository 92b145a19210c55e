-- Routes that match the accounts of a price plan (issue 25; `shipped`: accounts on no plan).
ALTER TABLE routes ADD COLUMN plan TEXT;
