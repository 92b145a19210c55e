//! The audit log in SQLite.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{params, params_from_iter};

use std::sync::Arc;

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId, AuditEntry, AuditFilter, AuditPage, AuditStore, Page,
        audit::{AUDIT_TOTAL, read_entry},
        time,
    },
};

#[async_trait]
impl AuditStore for SqliteStore {
    async fn record_audit(&self, entries: Arc<Vec<AuditEntry>>) -> Result<(), Error> {
        self.db
            .write(move |db| {
                let mut insert = db.prepare_cached(
                    "INSERT INTO audit (account_id, at, actor, address, action, object, summary) VALUES (?, ?, ?, ?, ?, ?, ?)",
                )?;
                for e in entries.iter() {
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

    async fn audit(&self, account: AccountId, filter: &AuditFilter, page: Page) -> Result<AuditPage, Error> {
        let (conditions, page) = (filter.conditions(account), page.clamped());
        self.db
            .read(move |db| {
                let values = conditions.values();
                let kept: i64 = db
                    .prepare_cached(&format!("SELECT COUNT(*) FROM audit WHERE {}", conditions.sqlite()))?
                    .query_row(params_from_iter(values), |row| row.get(0))?;
                let total: i64 = db.prepare_cached(&numbered(AUDIT_TOTAL))?.query_row([account], |row| row.get(0))?;
                let mut query = db.prepare_cached(&format!(
                    "SELECT account_id, at, actor, address, action, object, summary FROM audit WHERE {}
                     ORDER BY at DESC, id DESC LIMIT {} OFFSET {}",
                    conditions.sqlite(),
                    page.length,
                    page.start
                ))?;
                let entries =
                    query.query_map(params_from_iter(values), |row| read_entry(row))?.collect::<Result<_, _>>()?;
                Ok(AuditPage { entries, kept, total })
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
