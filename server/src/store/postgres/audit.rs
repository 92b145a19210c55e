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
        // One statement for the batch, in its order (the ids order entries of the same time):
        // a statement per entry was a round trip each.
        let column = |field: fn(&AuditEntry) -> &str| entries.iter().map(field).collect::<Vec<_>>();
        let accounts: Vec<AccountId> = entries.iter().map(|e| e.account).collect();
        let times: Vec<String> = entries.iter().map(|e| time::store(e.at)).collect();
        let client = self.pool.get().await?;
        let insert = client
            .prepare_cached(
                "INSERT INTO audit (account_id, at, actor, address, action, object, summary)
                 SELECT account_id, at, actor, address, action, object, summary
                 FROM UNNEST($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
                     WITH ORDINALITY AS e (account_id, at, actor, address, action, object, summary, n)
                 ORDER BY n",
            )
            .await?;
        client
            .execute(
                &insert,
                &[
                    &accounts,
                    &times,
                    &column(|e| &e.actor),
                    &column(|e| &e.address),
                    &column(|e| &e.action),
                    &column(|e| &e.object),
                    &column(|e| &e.summary),
                ],
            )
            .await?;
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
