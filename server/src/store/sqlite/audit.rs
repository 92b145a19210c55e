//! The audit log in SQLite.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{params, params_from_iter};

use super::SqliteStore;
use crate::{
    Error,
    store::{AccountId, AuditEntry, AuditFilter, AuditStore, Page, time},
};

#[async_trait]
impl AuditStore for SqliteStore {
    async fn record_audit(&self, entries: Vec<AuditEntry>) -> Result<(), Error> {
        self.db
            .write(move |db| {
                let mut insert = db.prepare_cached(
                    "INSERT INTO audit (account_id, at, actor, address, action, object, summary) VALUES (?, ?, ?, ?, ?, ?, ?)",
                )?;
                for e in &entries {
                    insert.execute(params![
                        e.account,
                        time::store(e.at),
                        e.actor,
                        e.address,
                        e.action,
                        e.object,
                        e.summary
                    ])?;
                }
                Ok(())
            })
            .await
    }

    async fn audit(
        &self,
        account: AccountId,
        filter: &AuditFilter,
        page: Page,
    ) -> Result<(Vec<AuditEntry>, i64), Error> {
        let (conditions, page) = (filter.conditions(account), page.clamped());
        self.db
            .read(move |db| {
                let values = conditions.values();
                let total: i64 = db
                    .prepare_cached(&format!("SELECT COUNT(*) FROM audit WHERE {}", conditions.sqlite()))?
                    .query_row(params_from_iter(values), |row| row.get(0))?;
                let mut query = db.prepare_cached(&format!(
                    "SELECT account_id, at, actor, address, action, object, summary FROM audit WHERE {}
                     ORDER BY at DESC, id DESC LIMIT {} OFFSET {}",
                    conditions.sqlite(),
                    page.length,
                    page.start
                ))?;
                let entries = query
                    .query_map(params_from_iter(values), |row| {
                        Ok(AuditEntry {
                            account: row.get(0)?,
                            at: time::load(&row.get::<_, String>(1)?),
                            actor: row.get(2)?,
                            address: row.get(3)?,
                            action: row.get(4)?,
                            object: row.get(5)?,
                            summary: row.get(6)?,
                        })
                    })?
                    .collect::<Result<_, _>>()?;
                Ok((entries, total))
            })
            .await
    }

    async fn prune_audit(&self, before: DateTime<Utc>, limit: i64) -> Result<u64, Error> {
        self.db
            .write(move |db| {
                Ok(db.execute(
                    "DELETE FROM audit WHERE id IN (SELECT id FROM audit WHERE at < ? LIMIT ?)",
                    params![time::store(before), limit],
                )? as u64)
            })
            .await
    }
}
