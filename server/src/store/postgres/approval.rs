//! Approving and rejecting in PostgreSQL.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{PgStore, query};
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
impl ApprovalStore for PgStore {
    async fn mark_awaiting(
        &self,
        account: AccountId,
        ticket: i64,
        requested: DateTime<Utc>,
        actor: &str,
        hand: Hand,
    ) -> Result<(), Error> {
        let client = self.pool.get().await?;
        let (person, token) = hand.columns();
        client.execute(MARK_AWAITING, &[&ticket, &account, &time::store(requested), &actor, &person, &token]).await?;
        Ok(())
    }

    async fn approve(&self, account: AccountId, ticket: i64, now: DateTime<Utc>) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let approved =
            client.execute(APPROVE, &[&ticket, &account, &time::store(now), &time::store(awaiting())]).await?;
        Ok(approved == 1)
    }

    async fn note_rejection(&self, account: AccountId, ticket: i64, reason: &str) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute(NOTE_REJECTION, &[&ticket, &account, &reason]).await?;
        Ok(())
    }

    async fn stale_approvals(&self, before: DateTime<Utc>, limit: i64) -> Result<Vec<(AccountId, i64)>, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, STALE, &[&time::store(before), &time::store(awaiting()), &limit]).await?;
        Ok(rows.iter().map(|row| (row.get(0), row.get(1))).collect())
    }

    async fn campaign_sender(&self, account: AccountId, ticket: i64) -> Result<SentBy, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, SENT_BY, &[&ticket, &account]).await?;
        Ok(rows.first().map(read_sent_by).transpose()?.unwrap_or(SentBy { hand: Hand::Unknown, email: None }))
    }

    async fn rejection(&self, account: AccountId, ticket: i64) -> Result<Option<String>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, REJECTION, &[&ticket, &account]).await?.first().and_then(|row| row.get(0)))
    }
}
