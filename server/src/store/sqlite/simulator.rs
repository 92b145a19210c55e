//! Whose the simulator's traffic is, in SQLite.

use std::collections::HashSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params, params_from_iter};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    db::placeholders,
    store::{
        AccountId,
        simulator::{REPLY_OWNER, SimulatorStore, owned_since},
    },
};

/// Ids looked up per statement, well under SQLite's limit on parameters.
const IDS_PER_STATEMENT: usize = 500;

#[async_trait]
impl SimulatorStore for SqliteStore {
    async fn own_smsc_ids(&self, account: AccountId, smsc_ids: Vec<String>) -> Result<HashSet<String>, Error> {
        self.db
            .read(move |db| {
                let mut own = HashSet::new();
                for ids in smsc_ids.chunks(IDS_PER_STATEMENT) {
                    let sql = format!(
                        "SELECT smsc_id FROM messages WHERE smsc_id IN ({}) AND account_id = ?",
                        placeholders(ids.len())
                    );
                    let values = ids.iter().map(|id| rusqlite::types::Value::Text(id.clone()));
                    let mut statement = db.prepare(&sql)?;
                    let rows = statement.query_map(
                        params_from_iter(values.chain([rusqlite::types::Value::Integer(account)])),
                        |row| row.get::<_, String>(0),
                    )?;
                    for id in rows {
                        own.insert(id?);
                    }
                }
                Ok(own)
            })
            .await
    }

    async fn reply_owner(&self, number: i64, now: DateTime<Utc>) -> Result<Option<AccountId>, Error> {
        let since = owned_since(now);
        self.db
            .read(move |db| {
                Ok(db
                    .prepare_cached(&numbered(REPLY_OWNER))?
                    .query_row(params![number, since], |row| row.get(0))
                    .optional()?)
            })
            .await
    }
}
