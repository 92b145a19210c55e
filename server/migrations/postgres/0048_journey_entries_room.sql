-- Half of each new page of journey_entries is left free, so that a claim (which writes only
-- claimed_until and claimed_by, neither indexed) rewrites a contact's row in its own page and
-- touches none of the table's five indexes. A claim takes 500 contacts, every row of the
-- pages it reads: at the default (pages full) each new version went to another page, with an
-- entry in every index. Two nodes, 100,000 due: a claim 58.7 ms, 23.3 ms with this; 3,796
-- contacts a second, 4,726 with it (scripts/load/journeys-nodes). At 70 no better than full,
-- as a claim rewrites every row of a page at once.
ALTER TABLE journey_entries SET (fillfactor = 50);
