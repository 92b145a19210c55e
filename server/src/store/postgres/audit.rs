//! The audit log in PostgreSQL.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use tokio_postgres::types::ToSql;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId, AuditEntry, AuditFilter, AuditPage, AuditStore, Page,
        audit::{AUDIT_TOTAL, read_entry},
        time,
    },
};

#[async_trait]
impl AuditStore for PgStore {
    async fn record_audit(&self, entries: Arc<Vec<AuditEntry>>) -> Result<(), Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let insert = tx
            .prepare_cached(
                "INSERT INTO audit (account_id, at, actor, address, action, object, summary)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .await?;
        for e in entries.iter() {
            tx.execute(
                &insert,
                &[&e.account, &time::store(e.at), &e.actor, &e.address, &e.action, &e.object, &e.summary],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn audit(&self, account: AccountId, filter: &AuditFilter, page: Page) -> Result<AuditPage, Error> {
        let (conditions, page) = (filter.conditions(account), page.clamped());
        let client = self.pool.get().await?;
        let values: Vec<&(dyn ToSql + Sync)> = conditions.values().iter().map(|v| v.as_postgres()).collect();
        let count = format!("SELECT COUNT(*) FROM audit WHERE {}", conditions.postgres(1));
        let kept: i64 = query(&client, &count, &values).await?[0].get(0);
        let total: i64 = query(&client, AUDIT_TOTAL, &[&account]).await?[0].get(0);
        let sql = format!(
            "SELECT account_id, at, actor, address, action, object, summary FROM audit WHERE {}
             ORDER BY at DESC, id DESC LIMIT {} OFFSET {}",
            conditions.postgres(1),
            page.length,
            page.start
        );
        let entries = query(&client, &sql, &values).await?.iter().map(read_entry).collect::<Result<_, _>>()?;
        Ok(AuditPage { entries, kept, total })
    }

    async fn prune_audit(&self, before: DateTime<Utc>, limit: i64) -> Result<u64, Error> {
        let client = self.pool.get().await?;
        let sql = "DELETE FROM audit WHERE id IN (SELECT id FROM audit WHERE at < $1 LIMIT $2)";
        Ok(client.execute(sql, &[&time::store(before), &limit]).await?)
    }
}
