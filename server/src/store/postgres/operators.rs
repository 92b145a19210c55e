//! Operators in PostgreSQL (the statements shared with SQLite).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::Credits;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId,
        operators::{
            AccountOverview, BY_TOKEN, CREATE, LEDGER, LedgerLine, OVERVIEWS, OperatorRecord, OperatorStore,
            SET_SUSPENDED,
        },
        time,
    },
};

#[async_trait]
impl OperatorStore for PgStore {
    async fn create_operator(&self, name: &str, token_hash: &[u8; 32]) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let hash = token_hash.as_slice();
        Ok(client.execute(CREATE, &[&name, &hash, &time::store(Utc::now())]).await? > 0)
    }

    async fn operator_by_token(&self, token_hash: &[u8; 32]) -> Result<Option<OperatorRecord>, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, BY_TOKEN, &[&token_hash.as_slice()]).await?;
        Ok(rows.first().map(|row| OperatorRecord { id: row.get(0), name: row.get(1) }))
    }

    async fn account_overviews(&self) -> Result<Vec<AccountOverview>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, OVERVIEWS, &[])
            .await?
            .iter()
            .map(|row| AccountOverview {
                id: row.get(0),
                name: row.get(1),
                balance: Credits::from_hundredths(row.get(2)),
                plan: row.get(3),
                parent: row.get(4),
                moderated: row.get(5),
                per_second: row.get(6),
                suspended: row.get(7),
            })
            .collect())
    }

    async fn set_suspended(&self, account: AccountId, at: Option<DateTime<Utc>>) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute(SET_SUSPENDED, &[&account, &at.map(time::store)]).await?;
        Ok(())
    }

    async fn ledger(&self, account: AccountId, limit: i64) -> Result<Vec<LedgerLine>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, LEDGER, &[&account, &limit])
            .await?
            .iter()
            .map(|row| LedgerLine {
                at: time::load(row.get(0)),
                amount: Credits::from_hundredths(row.get(1)),
                kind: row.get(2),
                campaign: row.get(3),
            })
            .collect())
    }
}
