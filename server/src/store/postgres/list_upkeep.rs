//! List upkeep in PostgreSQL.

use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tokio_postgres::error::SqlState;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId, ContactChange, ContactUpdate, ListUpkeep,
        list_upkeep::{CLEAR_NPAI, DEDUPLICATE, UPDATE_CONTACT},
    },
};

async fn owns_list(db: &impl GenericClient, account: AccountId, list: i64) -> Result<bool, Error> {
    Ok(!query(db, "SELECT 1 FROM lists WHERE id = $1 AND account_id = $2", &[&list, &account]).await?.is_empty())
}

#[async_trait]
impl ListUpkeep for PgStore {
    async fn update_contact(
        &self,
        account: AccountId,
        contact: i64,
        change: ContactChange,
    ) -> Result<ContactUpdate, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let [info1, info2, info3, info4] = change.info;
        let number = change.number.map(|n| n as i64);
        match tx.query_opt(UPDATE_CONTACT, &[&contact, &account, &number, &info1, &info2, &info3, &info4]).await {
            Ok(None) => Ok(ContactUpdate::NotFound),
            Ok(Some(row)) => {
                if let Some(card) = &change.card {
                    let now = crate::store::time::store(chrono::Utc::now());
                    super::account_contacts::save_card(&tx, account, row.get(0), card, &now).await?;
                }
                tx.commit().await?;
                Ok(ContactUpdate::Updated)
            }
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => Ok(ContactUpdate::NumberTaken),
            Err(e) => Err(e.into()),
        }
    }

    async fn deduplicate_list(&self, account: AccountId, list: i64) -> Result<Option<i64>, Error> {
        let client = self.pool.get().await?;
        if !owns_list(&client, account, list).await? {
            return Ok(None);
        }
        Ok(Some(client.execute(DEDUPLICATE, &[&list]).await? as i64))
    }

    async fn clear_list_npai(&self, account: AccountId, list: i64) -> Result<Option<i64>, Error> {
        let client = self.pool.get().await?;
        if !owns_list(&client, account, list).await? {
            return Ok(None);
        }
        Ok(Some(client.execute(CLEAR_NPAI, &[&list, &account]).await? as i64))
    }
}
