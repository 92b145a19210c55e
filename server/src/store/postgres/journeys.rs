//! Journeys in PostgreSQL: the statements shared with SQLite; claims lock the rows they take
//! and skip those another node holds.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use deadpool_postgres::GenericClient;
use texto_core::{ContactFacts, Journey, JourneyStatus, ListChange, TagChange};

use super::{PgStore, nodes, query};
use crate::{
    Error,
    store::{
        AccountId, Page,
        account_contacts::{SAVE, TAGS, with_tag},
        approval::Hand,
        journey_runs::{
            ANY_DUE, CARD, CLAIM, CLAIM_BY, CLAIM_FREE, CLAIM_LOCK, CLICKED, COUNT, ClaimedEntry, ContactEdit,
            DELIVERED, JourneyRunStore, KEYWORDS, LISTS, Moves, POST, REPLIED, SENT_BY, STARTED, Since, VERSION,
            facts_of, read_claimed, without_tag,
        },
        journeys::{
            DELETE, ENTER, ENTERED, ENTRIES, EXIT_ALL, Entering, EntryColumns, INSERT, JOURNEY_COLUMNS, JOURNEYS,
            JourneyEntry, JourneySaved, JourneyStore, ONE, REENTRY, SAVE_VERSION, SET_STATUS, STATUS, STEP_COUNTS,
            SavedJourney, StepCount, UPDATE, loaded_definition, read_count, read_entry, read_journey, reentry_cutoff,
            stored_definition,
        },
        keywords::{ADD_TO_LIST, REMOVE_FROM_LIST},
        time,
    },
};

/// Writes every contact's move at once (`$1` ids, `$2` nodes, `$3` arrived, `$4` states, `$5`
/// dues, `$6` the campaigns just sent, `$7` when, `$8` notes: arrays in the same order), as
/// [`crate::store::journey_runs::MOVE`] writes one.
const MOVE_ALL: &str = "UPDATE journey_entries e SET node = m.node, arrived = m.arrived, state = m.state,
        due_at = m.due_at, claimed_until = NULL, last_ticket = COALESCE(m.sent, e.last_ticket),
        last_sent_at = COALESCE(m.sent_at, e.last_sent_at), note = m.note
     FROM unnest($1::bigint[], $2::bigint[], $3::boolean[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[])
         AS m(id, node, arrived, state, due_at, sent, sent_at, note)
     WHERE e.id = m.id";

async fn one(db: &impl GenericClient, account: AccountId, id: i64) -> Result<Option<SavedJourney>, Error> {
    let sql = format!("SELECT {JOURNEY_COLUMNS} {ONE}");
    query(db, &sql, &[&account, &id]).await?.first().map(read_journey).transpose()?.transpose()
}

/// The status and version of one of the account's journeys, its row locked until the
/// transaction ends.
async fn locked_status(db: &impl GenericClient, account: AccountId, id: i64) -> Result<Option<(String, i64)>, Error> {
    let sql = format!("{STATUS} FOR UPDATE");
    Ok(query(db, &sql, &[&account, &id]).await?.first().map(|row| (row.get(0), row.get(1))))
}

/// Writes one change to a contact.
async fn change_contact(db: &impl GenericClient, change: &ContactEdit, at: &str) -> Result<(), Error> {
    let none = None::<String>;
    match change {
        ContactEdit::Tag(account, number, change) => {
            let tags: Option<String> = query(db, TAGS, &[account, number]).await?.first().and_then(|row| row.get(0));
            let tags = match change {
                TagChange::Add(tag) => with_tag(tags.as_deref(), tag),
                TagChange::Remove(tag) => without_tag(tags.as_deref(), tag),
            };
            let statement = db.prepare_cached(SAVE).await?;
            db.execute(&statement, &[account, number, &none, &none, &none, &tags, &none, &none, &none, &none, &at])
                .await?;
        }
        ContactEdit::List(account, number, ListChange::Add(list)) => {
            let statement = db.prepare_cached(ADD_TO_LIST).await?;
            db.execute(&statement, &[account, list, number, &"", &"", &"", &"", &at]).await?;
        }
        ContactEdit::List(account, number, ListChange::Remove(list)) => {
            let statement = db.prepare_cached(REMOVE_FROM_LIST).await?;
            db.execute(&statement, &[account, list, number]).await?;
        }
    }
    Ok(())
}

#[async_trait]
impl JourneyStore for PgStore {
    async fn journeys(&self, account: AccountId) -> Result<Vec<SavedJourney>, Error> {
        let client = self.pool.get().await?;
        let sql = format!("SELECT {JOURNEY_COLUMNS} {JOURNEYS}");
        query(&client, &sql, &[&account]).await?.iter().map(|row| read_journey(row)?).collect()
    }

    async fn journey(&self, account: AccountId, id: i64) -> Result<Option<SavedJourney>, Error> {
        one(&self.pool.get().await?, account, id).await
    }

    async fn save_journey(
        &self,
        account: AccountId,
        id: Option<i64>,
        journey: Journey,
        by: Hand,
    ) -> Result<JourneySaved, Error> {
        let now = time::store(Utc::now());
        let (person, token) = by.columns();
        let EntryColumns { list, reentry, timed, keyword, campaign, segment } = EntryColumns::of(&journey);
        let definition = stored_definition(&journey);
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let (id, version) = match id {
            None => (query(&tx, INSERT, &[&account, &journey.name, &now]).await?[0].get(0), 1),
            Some(id) => match locked_status(&tx, account, id).await? {
                None => return Ok(JourneySaved::NotFound),
                Some((status, _)) if status == JourneyStatus::Archived.as_str() => return Ok(JourneySaved::Archived),
                Some((status, version)) if status == JourneyStatus::Draft.as_str() => (id, version),
                Some((_, version)) => (id, version + 1),
            },
        };
        query(&tx, SAVE_VERSION, &[&id, &version, &definition]).await?;
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 12] = [
            &id,
            &version,
            &journey.name,
            &list,
            &reentry,
            &person,
            &token,
            &now,
            &timed,
            &keyword,
            &campaign,
            &segment,
        ];
        query(&tx, UPDATE, &params).await?;
        let saved = one(&tx, account, id).await?;
        tx.commit().await?;
        Ok(saved.map_or(JourneySaved::NotFound, |saved| JourneySaved::Saved(Box::new(saved))))
    }

    async fn delete_journey(&self, account: AccountId, id: i64) -> Result<Option<JourneyStatus>, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let Some(status) = locked_status(&tx, account, id).await?.and_then(|(s, _)| JourneyStatus::parse(&s)) else {
            return Ok(None);
        };
        if matches!(status, JourneyStatus::Draft | JourneyStatus::Archived) {
            query(&tx, DELETE, &[&account, &id]).await?;
        }
        tx.commit().await?;
        Ok(Some(status))
    }

    async fn set_journey_status(
        &self,
        account: AccountId,
        id: i64,
        next: JourneyStatus,
    ) -> Result<Option<SavedJourney>, Error> {
        let now = time::store(Utc::now());
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let Some(current) = locked_status(&tx, account, id).await?.and_then(|(s, _)| JourneyStatus::parse(&s)) else {
            return Ok(None);
        };
        if current.may_become(next) {
            query(&tx, SET_STATUS, &[&account, &id, &next.as_str(), &now]).await?;
            if next == JourneyStatus::Archived {
                query(&tx, EXIT_ALL, &[&id]).await?;
            }
        }
        let saved = one(&tx, account, id).await?;
        tx.commit().await?;
        Ok(saved)
    }

    async fn enter_journey(&self, account: AccountId, id: i64, number: i64) -> Result<Entering, Error> {
        let now = Utc::now();
        let client = self.pool.get().await?;
        let Some(row) = query(&client, STATUS, &[&account, &id]).await?.into_iter().next() else {
            return Ok(Entering::NotFound);
        };
        if row.get::<_, String>(0) != JourneyStatus::Live.as_str() {
            return Ok(Entering::NotLive);
        }
        let reentry: Option<i64> = query(&client, REENTRY, &[&account, &id]).await?.first().and_then(|r| r.get(0));
        let (at, cutoff) = (time::store(now), reentry_cutoff(now, reentry));
        let statement = client.prepare_cached(ENTER).await?;
        let entered = client.execute(&statement, &[&account, &id, &number, &at, &cutoff]).await?;
        Ok(if entered > 0 { Entering::Entered } else { Entering::AlreadyIn })
    }

    async fn journey_entries(&self, account: AccountId, id: i64, page: Page) -> Result<Vec<JourneyEntry>, Error> {
        let page = page.clamped();
        let client = self.pool.get().await?;
        let rows = query(&client, ENTRIES, &[&account, &id, &page.length, &page.start]).await?;
        rows.iter().map(|row| read_entry(row)?).collect()
    }

    async fn journey_counts(&self, account: AccountId, id: i64, version: i64) -> Result<(i64, Vec<StepCount>), Error> {
        let client = self.pool.get().await?;
        let entered: i64 =
            query(&client, ENTERED, &[&account, &id, &version]).await?.first().map_or(0, |row| row.get(0));
        let counts = query(&client, STEP_COUNTS, &[&id, &version]).await?;
        Ok((entered, counts.iter().map(read_count).collect::<Result<Vec<_>, _>>()?))
    }
}

#[async_trait]
impl JourneyRunStore for PgStore {
    async fn claim_journey_steps(
        &self,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        most: i64,
    ) -> Result<Vec<ClaimedEntry>, Error> {
        let (now, until) = (time::store(now), time::store(until));
        let mut client = self.pool.get().await?;
        // A claim of a node that stopped beating is free, whenever it was to run out.
        let free = format!("OR {}", nodes::not_alive("e.claimed_by"));
        let any_due = ANY_DUE.replace(CLAIM_FREE, &free);
        if !query(&client, &any_due, &[&now]).await?.first().is_some_and(|row| row.get::<_, bool>(0)) {
            return Ok(Vec::new());
        }
        // Several nodes claim at once: each locks the rows it takes and skips those another holds.
        let sql = CLAIM
            .replace(CLAIM_LOCK, "FOR UPDATE OF e SKIP LOCKED")
            .replace(CLAIM_BY, &format!(", claimed_by = {}", self.node))
            .replace(CLAIM_FREE, &free);
        // Without statistics on the due contacts (a table filled since PostgreSQL last analysed
        // it, as after a first large import), the planner read every due contact of a live
        // journey and sorted them at each claim: 100–250 ms a claim at 100,000 due, against
        // 1.5 ms walking the (due_at, id) index. No sort for this claim leaves it that index.
        // Nor does it wait for its commit to reach the disk: a claim lost with PostgreSQL
        // itself only leaves its contacts free to claim again, and the batch's send, which
        // does wait, writes the log up to it first.
        let tx = client.transaction().await?;
        tx.batch_execute("SET LOCAL enable_sort = off; SET LOCAL synchronous_commit = off").await?;
        let claimed = query(&tx, &sql, &[&now, &until, &most]).await?;
        tx.commit().await?;
        claimed.iter().map(|row| Ok(read_claimed(row)?)).collect()
    }

    async fn journey_started(&self, journey: i64) -> Result<i64, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, STARTED, &[&journey]).await?.first().map_or(0, |row| row.get(0)))
    }

    async fn journey_version(&self, journey: i64, version: i64) -> Result<Option<Journey>, Error> {
        let client = self.pool.get().await?;
        let stored: Option<String> = query(&client, VERSION, &[&journey, &version]).await?.first().map(|r| r.get(0));
        stored.as_deref().map(loaded_definition).transpose()
    }

    async fn contact_facts(&self, entry: &ClaimedEntry) -> Result<ContactFacts, Error> {
        let (account, number, ticket) = (entry.account, entry.number, entry.last_ticket.unwrap_or(0));
        let since = time::store(entry.replies_since());
        let client = self.pool.get().await?;
        let card = query(&client, CARD, &[&account, &number])
            .await?
            .first()
            .map(|row| (row.get(0), row.get(1), row.get(2), row.get(3)));
        let lists = query(&client, LISTS, &[&account, &number]).await?.iter().map(|row| row.get(0)).collect();
        let count = async |sql: &str, third: &(dyn tokio_postgres::types::ToSql + Sync)| -> Result<bool, Error> {
            Ok(query(&client, sql, &[&account, &number, third]).await?[0].get::<_, i64>(0) > 0)
        };
        let keywords = query(&client, KEYWORDS, &[&account, &number, &since]).await?;
        let done = Since {
            clicked: count(CLICKED, &ticket).await?,
            replied: count(REPLIED, &since).await?,
            keywords: keywords.iter().map(|row| row.get(0)).collect(),
            delivered: count(DELIVERED, &ticket).await?,
        };
        Ok(facts_of(card, lists, done))
    }

    async fn move_journey_entries(&self, moves: Moves) -> Result<(), Error> {
        let now = time::store(Utc::now());
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        for change in &moves.changes {
            change_contact(&tx, change, &now).await?;
        }
        for (campaign, journey, step) in &moves.campaigns {
            query(&tx, SENT_BY, &[campaign, journey, step]).await?;
        }
        for post in &moves.posts {
            query(&tx, POST, &[&post.body, &now, &post.account, &post.url]).await?;
        }
        // Counts in key order, so that two nodes writing the same ones lock them in one order.
        for (key, (entered, left)) in &moves.counts {
            query(&tx, COUNT, &[&key.journey, &key.version, &key.node, entered, left]).await?;
        }
        // Every move in one statement: a batch's 500 updates one at a time cost 500 round trips.
        let entries = &moves.entries;
        let ids: Vec<i64> = entries.iter().map(|e| e.id).collect();
        let nodes: Vec<i64> = entries.iter().map(|e| e.node).collect();
        let arrived: Vec<bool> = entries.iter().map(|e| e.arrived).collect();
        let states: Vec<&str> = entries.iter().map(|e| e.state.as_str()).collect();
        let dues: Vec<String> = entries.iter().map(|e| time::store(e.due_at)).collect();
        let sent: Vec<Option<i64>> = entries.iter().map(|e| e.sent).collect();
        let sent_at: Vec<Option<&str>> = entries.iter().map(|e| e.sent.map(|_| now.as_str())).collect();
        let notes: Vec<Option<&str>> = entries.iter().map(|e| e.note.as_deref()).collect();
        query(&tx, MOVE_ALL, &[&ids, &nodes, &arrived, &states, &dues, &sent, &sent_at, &notes]).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn release_journey_claims(&self) -> Result<u64, Error> {
        Ok(0)
    }
}
