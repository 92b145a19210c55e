//! Journeys in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use texto_core::{ContactFacts, Journey, JourneyStatus, ListChange, TagChange};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId, Page,
        account_contacts::{SAVE, TAGS, with_tag},
        approval::Hand,
        journey_runs::{
            ANY_DUE, CARD, CLAIM, CLAIM_BY, CLAIM_FREE, CLAIM_LOCK, CLICKED, COUNT, ClaimedEntry, ContactEdit,
            DELIVERED, JourneyRunStore, KEYWORDS, LISTS, MOVE, Moves, POST, RELEASE_ALL, REPLIED, SENT_BY, STARTED,
            Since, VERSION, facts_of, read_claimed, without_tag,
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

fn one(db: &Connection, account: AccountId, id: i64) -> Result<Option<SavedJourney>, Error> {
    let sql = numbered(&format!("SELECT {JOURNEY_COLUMNS} {ONE}"));
    db.prepare_cached(&sql)?.query_row(params![account, id], |row| read_journey(row)).optional()?.transpose()
}

fn status(db: &Connection, account: AccountId, id: i64) -> Result<Option<(String, i64)>, Error> {
    let mut statement = db.prepare_cached(&numbered(STATUS))?;
    Ok(statement.query_row(params![account, id], |row| Ok((row.get(0)?, row.get(1)?))).optional()?)
}

/// Writes one change to a contact.
fn change_contact(db: &Connection, change: &ContactEdit, at: &str) -> Result<(), Error> {
    let none = None::<String>;
    match change {
        ContactEdit::Tag(account, number, change) => {
            let tags: Option<String> =
                db.prepare_cached(&numbered(TAGS))?.query_row(params![account, number], |row| row.get(0)).optional()?;
            let tags = match change {
                TagChange::Add(tag) => with_tag(tags.as_deref(), tag),
                TagChange::Remove(tag) => without_tag(tags.as_deref(), tag),
            };
            db.prepare_cached(&numbered(SAVE))?
                .execute(params![account, number, none, none, none, tags, none, none, none, none, at])?;
        }
        ContactEdit::List(account, number, ListChange::Add(list)) => {
            db.prepare_cached(&numbered(ADD_TO_LIST))?.execute(params![account, list, number, "", "", "", "", at])?;
        }
        ContactEdit::List(account, number, ListChange::Remove(list)) => {
            db.prepare_cached(&numbered(REMOVE_FROM_LIST))?.execute(params![account, list, number])?;
        }
    }
    Ok(())
}

#[async_trait]
impl JourneyStore for SqliteStore {
    async fn journeys(&self, account: AccountId) -> Result<Vec<SavedJourney>, Error> {
        self.db
            .read(move |db| {
                let sql = numbered(&format!("SELECT {JOURNEY_COLUMNS} {JOURNEYS}"));
                let mut statement = db.prepare_cached(&sql)?;
                let rows = statement.query_map([account], |row| read_journey(row))?;
                rows.map(|row| row?).collect()
            })
            .await
    }

    async fn journey(&self, account: AccountId, id: i64) -> Result<Option<SavedJourney>, Error> {
        self.db.read(move |db| one(db, account, id)).await
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
        self.db
            .write(move |db| {
                let (id, version) = match id {
                    None => {
                        let insert = numbered(INSERT);
                        let id: i64 = db
                            .prepare_cached(&insert)?
                            .query_row(params![account, journey.name, now], |row| row.get(0))?;
                        (id, 1)
                    }
                    Some(id) => match status(db, account, id)? {
                        None => return Ok(JourneySaved::NotFound),
                        Some((status, _)) if status == JourneyStatus::Archived.as_str() => {
                            return Ok(JourneySaved::Archived);
                        }
                        Some((status, version)) if status == JourneyStatus::Draft.as_str() => (id, version),
                        Some((_, version)) => (id, version + 1),
                    },
                };
                db.prepare_cached(&numbered(SAVE_VERSION))?.execute(params![id, version, definition])?;
                db.prepare_cached(&numbered(UPDATE))?.execute(params![
                    id,
                    version,
                    journey.name,
                    list,
                    reentry,
                    person,
                    token,
                    now,
                    timed,
                    keyword,
                    campaign,
                    segment
                ])?;
                Ok(one(db, account, id)?.map_or(JourneySaved::NotFound, |saved| JourneySaved::Saved(Box::new(saved))))
            })
            .await
    }

    async fn delete_journey(&self, account: AccountId, id: i64) -> Result<Option<JourneyStatus>, Error> {
        self.db
            .write(move |db| {
                let Some(status) = status(db, account, id)?.and_then(|(s, _)| JourneyStatus::parse(&s)) else {
                    return Ok(None);
                };
                if matches!(status, JourneyStatus::Draft | JourneyStatus::Archived) {
                    db.prepare_cached(&numbered(DELETE))?.execute(params![account, id])?;
                }
                Ok(Some(status))
            })
            .await
    }

    async fn set_journey_status(
        &self,
        account: AccountId,
        id: i64,
        next: JourneyStatus,
    ) -> Result<Option<SavedJourney>, Error> {
        let now = time::store(Utc::now());
        self.db
            .write(move |db| {
                let Some(current) = status(db, account, id)?.and_then(|(s, _)| JourneyStatus::parse(&s)) else {
                    return Ok(None);
                };
                if current.may_become(next) {
                    db.prepare_cached(&numbered(SET_STATUS))?.execute(params![account, id, next.as_str(), now])?;
                    if next == JourneyStatus::Archived {
                        db.prepare_cached(&numbered(EXIT_ALL))?.execute([id])?;
                    }
                }
                one(db, account, id)
            })
            .await
    }

    async fn enter_journey(&self, account: AccountId, id: i64, number: i64) -> Result<Entering, Error> {
        let now = Utc::now();
        self.db
            .write(move |db| {
                let Some((status, _)) = status(db, account, id)? else { return Ok(Entering::NotFound) };
                if status != JourneyStatus::Live.as_str() {
                    return Ok(Entering::NotLive);
                }
                let reentry: Option<i64> =
                    db.prepare_cached(&numbered(REENTRY))?.query_row(params![account, id], |row| row.get(0))?;
                let (at, cutoff) = (time::store(now), reentry_cutoff(now, reentry));
                let entered = db.prepare_cached(&numbered(ENTER))?.execute(params![account, id, number, at, cutoff])?;
                Ok(if entered > 0 { Entering::Entered } else { Entering::AlreadyIn })
            })
            .await
    }

    async fn journey_entries(&self, account: AccountId, id: i64, page: Page) -> Result<Vec<JourneyEntry>, Error> {
        let page = page.clamped();
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(ENTRIES))?;
                let rows = statement.query_map(params![account, id, page.length, page.start], |row| read_entry(row))?;
                rows.map(|row| row?).collect()
            })
            .await
    }

    async fn journey_counts(&self, account: AccountId, id: i64, version: i64) -> Result<(i64, Vec<StepCount>), Error> {
        self.db
            .read(move |db| {
                let entered: Option<i64> = db
                    .prepare_cached(&numbered(ENTERED))?
                    .query_row(params![account, id, version], |row| row.get(0))
                    .optional()?;
                let entered = entered.unwrap_or(0);
                let mut statement = db.prepare_cached(&numbered(STEP_COUNTS))?;
                let counts = statement.query_map(params![id, version], |row| read_count(row))?;
                Ok((entered, counts.collect::<Result<Vec<_>, _>>()?))
            })
            .await
    }
}

#[async_trait]
impl JourneyRunStore for SqliteStore {
    async fn claim_journey_steps(
        &self,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        most: i64,
    ) -> Result<Vec<ClaimedEntry>, Error> {
        let (now, until) = (time::store(now), time::store(until));
        let at = now.clone();
        let due: bool = self
            .db
            .read(move |db| {
                let sql = numbered(&ANY_DUE.replace(CLAIM_FREE, ""));
                Ok(db.prepare_cached(&sql)?.query_row([at], |row| row.get(0))?)
            })
            .await?;
        if !due {
            return Ok(Vec::new());
        }
        self.db
            .write(move |db| {
                // One writer: nothing else claims meanwhile, so no row locks.
                let sql = numbered(&CLAIM.replace(CLAIM_LOCK, "").replace(CLAIM_BY, "").replace(CLAIM_FREE, ""));
                let mut statement = db.prepare_cached(&sql)?;
                let rows = statement.query_map(params![now, until, most], |row| read_claimed(row))?;
                Ok(rows.collect::<Result<Vec<_>, _>>()?)
            })
            .await
    }

    async fn journey_started(&self, journey: i64) -> Result<i64, Error> {
        self.db.read(move |db| Ok(db.prepare_cached(&numbered(STARTED))?.query_row([journey], |row| row.get(0))?)).await
    }

    async fn journey_version(&self, journey: i64, version: i64) -> Result<Option<Journey>, Error> {
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(VERSION))?;
                let stored: Option<String> =
                    statement.query_row(params![journey, version], |row| row.get(0)).optional()?;
                stored.as_deref().map(loaded_definition).transpose()
            })
            .await
    }

    async fn contact_facts(&self, entry: &ClaimedEntry) -> Result<ContactFacts, Error> {
        let (account, number, ticket) = (entry.account, entry.number, entry.last_ticket.unwrap_or(0));
        let since = time::store(entry.replies_since());
        self.db
            .read(move |db| {
                let card = db
                    .prepare_cached(&numbered(CARD))?
                    .query_row(params![account, number], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))
                    .optional()?;
                let mut statement = db.prepare_cached(&numbered(LISTS))?;
                let lists = statement.query_map(params![account, number], |row| row.get(0))?;
                let lists = lists.collect::<Result<Vec<i64>, _>>()?;
                let count = |sql: &str, third: &dyn rusqlite::ToSql| -> Result<i64, Error> {
                    Ok(db
                        .prepare_cached(&numbered(sql))?
                        .query_row(params![account, number, third], |row| row.get(0))?)
                };
                let mut statement = db.prepare_cached(&numbered(KEYWORDS))?;
                let keywords = statement.query_map(params![account, number, since], |row| row.get(0))?;
                let done = Since {
                    clicked: count(CLICKED, &ticket)? > 0,
                    replied: count(REPLIED, &since)? > 0,
                    keywords: keywords.collect::<Result<Vec<String>, _>>()?,
                    delivered: count(DELIVERED, &ticket)? > 0,
                };
                Ok(facts_of(card, lists, done))
            })
            .await
    }

    async fn move_journey_entries(&self, moves: Moves) -> Result<(), Error> {
        let now = time::store(Utc::now());
        self.db
            .write(move |db| {
                for change in &moves.changes {
                    change_contact(db, change, &now)?;
                }
                for (campaign, journey, step) in &moves.campaigns {
                    db.prepare_cached(&numbered(SENT_BY))?.execute(params![campaign, journey, step])?;
                }
                for post in &moves.posts {
                    db.prepare_cached(&numbered(POST))?.execute(params![post.body, now, post.account, post.url])?;
                }
                for (key, (entered, left)) in &moves.counts {
                    db.prepare_cached(&numbered(COUNT))?.execute(params![
                        key.journey,
                        key.version,
                        key.node,
                        entered,
                        left
                    ])?;
                }
                let mut statement = db.prepare_cached(&numbered(MOVE))?;
                for entry in &moves.entries {
                    let sent_at = entry.sent.map(|_| now.clone());
                    statement.execute(params![
                        entry.id,
                        entry.node,
                        entry.arrived,
                        entry.state.as_str(),
                        time::store(entry.due_at),
                        entry.sent,
                        sent_at,
                        entry.note
                    ])?;
                }
                Ok(())
            })
            .await
    }

    async fn release_journey_claims(&self) -> Result<u64, Error> {
        self.db.write(|db| Ok(db.execute(RELEASE_ALL, [])? as u64)).await
    }
}
