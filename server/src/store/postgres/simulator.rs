//! Whose the simulator's traffic is, in PostgreSQL.

use std::collections::HashSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId,
        simulator::{REPLY_OWNER, SimulatorStore, owned_since},
    },
};

#[async_trait]
impl SimulatorStore for PgStore {
    async fn own_smsc_ids(&self, account: AccountId, smsc_ids: Vec<String>) -> Result<HashSet<String>, Error> {
        let client = self.pool.get().await?;
        let rows = query(
            &client,
            "SELECT smsc_id FROM messages WHERE smsc_id = ANY($1) AND account_id = $2",
            &[&smsc_ids, &account],
        )
        .await?;
        Ok(rows.iter().map(|row| row.get(0)).collect())
    }

    async fn reply_owner(&self, number: i64, now: DateTime<Utc>) -> Result<Option<AccountId>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, REPLY_OWNER, &[&number, &owned_since(now)]).await?.first().map(|row| row.get(0)))
    }
}
