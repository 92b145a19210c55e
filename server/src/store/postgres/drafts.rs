//! Drafts in PostgreSQL (the statements shared with SQLite but the one numbering a draft).

use async_trait::async_trait;
use chrono::Utc;
use deadpool_postgres::GenericClient;

use super::{PgStore, query};
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

/// A new draft takes its number from the campaigns' sequence (migration `0029_drafts`).
const INSERT_PREFIX: &str = "INSERT INTO drafts (id, account_id, body, author, created_at, updated_by, updated_at)
     VALUES (nextval(pg_get_serial_sequence('campaigns', 'id')), ";

async fn one(db: &impl GenericClient, account: AccountId, id: i64) -> Result<Option<SavedDraft>, Error> {
    Ok(query(db, &one_statement(), &[&account, &id]).await?.first().map(read_draft).transpose()?)
}

#[async_trait]
impl DraftStore for PgStore {
    async fn drafts(&self, account: AccountId) -> Result<Vec<SavedDraft>, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, &all_statement(), &[&account]).await?;
        Ok(rows.iter().map(read_draft).collect::<Result<_, _>>()?)
    }

    async fn draft(&self, account: AccountId, id: i64) -> Result<Option<SavedDraft>, Error> {
        one(&self.pool.get().await?, account, id).await
    }

    async fn save_draft(
        &self,
        account: AccountId,
        id: Option<i64>,
        body: String,
        actor: String,
    ) -> Result<Option<SavedDraft>, Error> {
        let client = self.pool.get().await?;
        let now = time::store(Utc::now());
        let id = match id {
            None => {
                let insert = format!("{INSERT_PREFIX}{INSERT_VALUES}");
                query(&client, &insert, &[&account, &body, &actor, &now])
                    .await?
                    .first()
                    .map(|row| row.try_get(0))
                    .transpose()?
            }
            Some(id) => (client.execute(UPDATE, &[&account, &body, &actor, &now, &id]).await? > 0).then_some(id),
        };
        match id {
            Some(id) => one(&client, account, id).await,
            None => Ok(None),
        }
    }

    async fn draft_count(&self, account: AccountId) -> Result<i64, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, COUNT, &[&account]).await?.first().map_or(Ok(0), |row| row.try_get(0))?)
    }

    async fn delete_draft(&self, account: AccountId, id: i64) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        Ok(client.execute(DELETE, &[&account, &id]).await? > 0)
    }

    async fn sent_campaign(
        &self,
        account: AccountId,
        ticket: i64,
        with_numbers: bool,
    ) -> Result<Option<SentCampaign>, Error> {
        let client = self.pool.get().await?;
        let Some(row) = query(&client, SENT_CAMPAIGN, &[&account, &ticket]).await?.into_iter().next() else {
            return Ok(None);
        };
        let mut sent = read_sent(&row)?;
        if with_numbers && sent.lists.is_empty() {
            let rows = query(&client, SENT_NUMBERS, &[&ticket, &account]).await?;
            sent.numbers =
                rows.iter().map(|row| Ok((row.try_get(0)?, row.try_get(1)?))).collect::<Result<_, Error>>()?;
        }
        Ok(Some(sent))
    }
}
