//! Retention settings and the retention pass's batches in PostgreSQL.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId, Cursor, Expiry, RetentionSettings, RetentionStore, expiry_statement, retention::read_settings, time,
    },
};

const COLUMNS: &str = "message, list, survey, campaign, mo, lookup";

#[async_trait]
impl RetentionStore for PgStore {
    async fn retention(&self, account: AccountId) -> Result<RetentionSettings, Error> {
        let client = self.pool.get().await?;
        let sql = format!("SELECT {COLUMNS} FROM retention WHERE account_id = $1");
        Ok(query(&client, &sql, &[&account])
            .await?
            .first()
            .map(|row| read_settings(row, 0))
            .transpose()?
            .unwrap_or_default())
    }

    async fn set_retention(&self, account: AccountId, settings: RetentionSettings) -> Result<(), Error> {
        let client = self.pool.get().await?;
        let [a, b, c, d, e, f] = settings.periods().map(|p| p.map(|p| p.to_string()));
        client
            .execute(
                &format!(
                    "INSERT INTO retention (account_id, {COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
                     ON CONFLICT (account_id) DO UPDATE SET message = $2, list = $3, survey = $4, campaign = $5, mo = $6, lookup = $7"
                ),
                &[&account, &a, &b, &c, &d, &e, &f],
            )
            .await?;
        Ok(())
    }

    async fn retained_accounts(&self) -> Result<Vec<(AccountId, RetentionSettings)>, Error> {
        let client = self.pool.get().await?;
        let sql = format!("SELECT account_id, {COLUMNS} FROM retention");
        Ok(query(&client, &sql, &[])
            .await?
            .iter()
            .map(|row| Ok((row.try_get(0)?, read_settings(row, 1)?)))
            .collect::<Result<_, tokio_postgres::Error>>()?)
    }

    async fn expire(
        &self,
        account: AccountId,
        expiry: Expiry,
        before: DateTime<Utc>,
        batch: i64,
        after: &Cursor,
    ) -> Result<(i64, Cursor), Error> {
        let client = self.pool.get().await?;
        let sql = expiry_statement(expiry);
        let before = time::store(before);
        match expiry {
            Expiry::MessageNumbers | Expiry::CampaignTexts => {
                let rows = match expiry {
                    Expiry::MessageNumbers => {
                        query(&client, sql, &[&account, &before, &batch, &after.at, &after.id]).await?
                    }
                    _ => query(&client, sql, &[&account, &before, &batch, &after.id]).await?,
                };
                let last = rows
                    .iter()
                    .map(|row| Cursor { at: row.get(0), id: row.get(1) })
                    .max_by(|a, b| (&a.at, a.id).cmp(&(&b.at, b.id)))
                    .filter(|last| (&last.at, last.id) > (&after.at, after.id))
                    .unwrap_or_else(|| after.clone());
                Ok((rows.len() as i64, last))
            }
            Expiry::Replies | Expiry::ListContacts | Expiry::EmptyContacts => {
                Ok((client.execute(sql, &[&account, &before, &batch]).await? as i64, after.clone()))
            }
        }
    }
}
