//! The NPAI list and the blacklist in SQLite (tables `npai` and `blacklist`, same shape).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use sqlx::{QueryBuilder, Row, Sqlite};

use super::{SqliteStore, time};
use crate::{
    Error,
    store::{AccountId, NewContact, NumberEntry, NumberList, NumberListStore, NumberPage, Page},
};

/// Rows per INSERT statement (8 values each, under SQLite's 32,766 parameters).
const ROWS_PER_INSERT: usize = 4_000;

#[async_trait]
impl NumberListStore for SqliteStore {
    async fn number_entries(&self, account: AccountId, list: NumberList, destination: Option<u64>, page: Page) -> Result<NumberPage, Error> {
        let page = page.clamped();
        let table = list.table();
        let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table} WHERE account_id = ?"))
            .bind(account)
            .fetch_one(&self.read)
            .await?;
        let filter = if destination.is_some() { " AND number = ?" } else { "" };
        let count_sql = format!("SELECT COUNT(*) FROM {table} WHERE account_id = ?{filter}");
        let mut count = sqlx::query_scalar(&count_sql).bind(account);
        if let Some(number) = destination {
            count = count.bind(number as i64);
        }
        let matching: i64 = count.fetch_one(&self.read).await?;
        let sql = format!(
            "SELECT id, number, info1, info2, info3, info4, campaign_id, created_at FROM {table}
             WHERE account_id = ?{filter} ORDER BY id LIMIT ? OFFSET ?"
        );
        let mut query = sqlx::query(&sql).bind(account);
        if let Some(number) = destination {
            query = query.bind(number as i64);
        }
        let rows = query.bind(page.length).bind(page.start).fetch_all(&self.read).await?;
        let entries = rows
            .iter()
            .map(|row| {
                Ok(NumberEntry {
                    id: row.try_get(0)?,
                    number: row.try_get::<i64, _>(1)? as u64,
                    info: [row.try_get(2)?, row.try_get(3)?, row.try_get(4)?, row.try_get(5)?],
                    campaign_id: row.try_get(6)?,
                    created_at: time::load(row.try_get(7)?),
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok(NumberPage { entries, total, matching })
    }

    async fn add_numbers(
        &self,
        account: AccountId,
        list: NumberList,
        contacts: &[NewContact],
        campaign: Option<i64>,
        now: DateTime<Utc>,
    ) -> Result<u64, Error> {
        let now = time::store(now);
        let mut added = 0;
        let mut tx = self.write.begin().await?;
        for batch in contacts.chunks(ROWS_PER_INSERT) {
            let mut insert = QueryBuilder::<Sqlite>::new(format!(
                "INSERT OR IGNORE INTO {} (account_id, number, info1, info2, info3, info4, campaign_id, created_at) ",
                list.table()
            ));
            insert.push_values(batch, |mut values, contact| {
                values.push_bind(account).push_bind(contact.number as i64);
                for info in &contact.info {
                    values.push_bind(info.as_str());
                }
                values.push_bind(campaign).push_bind(now.as_str());
            });
            added += insert.build().execute(&mut *tx).await?.rows_affected();
        }
        tx.commit().await?;
        Ok(added)
    }

    async fn remove_number(&self, account: AccountId, list: NumberList, number: u64) -> Result<bool, Error> {
        let done = sqlx::query(&format!("DELETE FROM {} WHERE account_id = ? AND number = ?", list.table()))
            .bind(account)
            .bind(number as i64)
            .execute(&self.write)
            .await?;
        Ok(done.rows_affected() > 0)
    }
}
