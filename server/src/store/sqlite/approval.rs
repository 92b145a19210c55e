//! Approving and rejecting in SQLite: the statements shared with PostgreSQL.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        approval::{
            APPROVE, ApprovalStore, Hand, MARK_AWAITING, NOTE_REJECTION, REJECTION, SENT_BY, STALE, SentBy, awaiting,
            read_sent_by,
        },
        time,
    },
};

#[async_trait]
impl ApprovalStore for SqliteStore {
    async fn mark_awaiting(
        &self,
        account: AccountId,
        ticket: i64,
        requested: DateTime<Utc>,
        actor: &str,
        hand: Hand,
    ) -> Result<(), Error> {
        let actor = actor.to_owned();
        let (person, token) = hand.columns();
        self.db
            .write(move |db| {
                let requested = time::store(requested);
                db.execute(&numbered(MARK_AWAITING), params![ticket, account, requested, actor, person, token])?;
                Ok(())
            })
            .await
    }

    async fn approve(&self, account: AccountId, ticket: i64, now: DateTime<Utc>) -> Result<bool, Error> {
        self.db
            .write(move |db| {
                let approved = db
                    .execute(&numbered(APPROVE), params![ticket, account, time::store(now), time::store(awaiting())])?;
                Ok(approved == 1)
            })
            .await
    }

    async fn note_rejection(&self, account: AccountId, ticket: i64, reason: &str) -> Result<(), Error> {
        let reason = reason.to_owned();
        self.db
            .write(move |db| {
                db.execute(&numbered(NOTE_REJECTION), params![ticket, account, reason])?;
                Ok(())
            })
            .await
    }

    async fn stale_approvals(&self, before: DateTime<Utc>, limit: i64) -> Result<Vec<(AccountId, i64)>, Error> {
        self.db
            .read(move |db| {
                let mut query = db.prepare_cached(&numbered(STALE))?;
                let rows = query.query_map(params![time::store(before), time::store(awaiting()), limit], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn campaign_sender(&self, account: AccountId, ticket: i64) -> Result<SentBy, Error> {
        self.db
            .read(move |db| {
                let sent_by =
                    db.query_row(&numbered(SENT_BY), [ticket, account], |row| read_sent_by(row)).optional()?;
                Ok(sent_by.unwrap_or(SentBy { hand: Hand::Unknown, email: None }))
            })
            .await
    }

    async fn rejection(&self, account: AccountId, ticket: i64) -> Result<Option<String>, Error> {
        self.db
            .read(move |db| {
                let note: Option<Option<String>> =
                    db.query_row(&numbered(REJECTION), [ticket, account], |row| row.get(0)).optional()?;
                Ok(note.flatten())
            })
            .await
    }
}
