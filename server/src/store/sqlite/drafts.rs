//! Drafts in SQLite (the statements shared with PostgreSQL but the one numbering a draft).

use async_trait::async_trait;
use chrono::Utc;
use rusqlite::{Connection, OptionalExtension, params};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        drafts::{
            COUNT, DELETE, DraftStore, INSERT_VALUES, SENT_CAMPAIGN, SENT_NUMBERS, SavedDraft, SentCampaign, UPDATE,
            all_statement, one_statement, read_draft, read_sent,
        },
        time,
    },
};

/// A new draft takes the number after every campaign and every draft ever made (migration
/// `0034_drafts`).
const INSERT_PREFIX: &str = "INSERT INTO drafts (id, account_id, body, author, created_at, updated_by, updated_at)
     VALUES ((SELECT max(coalesce((SELECT max(id) FROM campaigns), 0),
                         coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'drafts'), 0)) + 1), ";

fn one(db: &Connection, account: AccountId, id: i64) -> Result<Option<SavedDraft>, Error> {
    Ok(db
        .prepare_cached(&numbered(&one_statement()))?
        .query_row(params![account, id], |row| read_draft(row))
        .optional()?)
}

#[async_trait]
impl DraftStore for SqliteStore {
    async fn drafts(&self, account: AccountId) -> Result<Vec<SavedDraft>, Error> {
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(&all_statement()))?;
                let rows = statement.query_map([account], |row| read_draft(row))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn draft(&self, account: AccountId, id: i64) -> Result<Option<SavedDraft>, Error> {
        self.db.read(move |db| one(db, account, id)).await
    }

    async fn save_draft(
        &self,
        account: AccountId,
        id: Option<i64>,
        body: String,
        actor: String,
    ) -> Result<Option<SavedDraft>, Error> {
        let now = time::store(Utc::now());
        self.db
            .write(move |db| {
                let id = match id {
                    None => db
                        .prepare_cached(&numbered(&format!("{INSERT_PREFIX}{INSERT_VALUES}")))?
                        .query_row(params![account, body, actor, now], |row| row.get(0))?,
                    Some(id) => {
                        if db.prepare_cached(&numbered(UPDATE))?.execute(params![account, body, actor, now, id])? == 0 {
                            return Ok(None);
                        }
                        id
                    }
                };
                one(db, account, id)
            })
            .await
    }

    async fn draft_count(&self, account: AccountId) -> Result<i64, Error> {
        self.db.read(move |db| Ok(db.prepare_cached(&numbered(COUNT))?.query_row([account], |row| row.get(0))?)).await
    }

    async fn delete_draft(&self, account: AccountId, id: i64) -> Result<bool, Error> {
        self.db.write(move |db| Ok(db.prepare_cached(&numbered(DELETE))?.execute(params![account, id])? > 0)).await
    }

    async fn sent_campaign(
        &self,
        account: AccountId,
        ticket: i64,
        with_numbers: bool,
    ) -> Result<Option<SentCampaign>, Error> {
        self.db
            .read(move |db| {
                let sent = db
                    .prepare_cached(&numbered(SENT_CAMPAIGN))?
                    .query_row(params![account, ticket], |row| read_sent(row))
                    .optional()?;
                let Some(mut sent) = sent else { return Ok(None) };
                if with_numbers && sent.lists.is_empty() {
                    let mut statement = db.prepare_cached(&numbered(SENT_NUMBERS))?;
                    let rows = statement.query_map(params![ticket, account], |row| Ok((row.get(0)?, row.get(1)?)))?;
                    sent.numbers = rows.collect::<Result<_, _>>()?;
                }
                Ok(Some(sent))
            })
            .await
    }
}
