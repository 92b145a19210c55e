//! Operators in PostgreSQL (the statements shared with SQLite).

use async_trait::async_trait;
use chrono::Utc;
use texto_core::Credits;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        operators::{AccountOverview, BY_TOKEN, CREATE, OVERVIEWS, OperatorRecord, OperatorStore},
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
            })
            .collect())
    }
}
