//! The daily counts in SQLite (the statement shared with PostgreSQL).

use async_trait::async_trait;
use chrono::NaiveDate;
use rusqlite::params;

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        daily::{DAYS, DailyStore, DayCounts, read_day},
    },
};

#[async_trait]
impl DailyStore for SqliteStore {
    async fn daily_counts(
        &self,
        account: AccountId,
        first: NaiveDate,
        last: NaiveDate,
    ) -> Result<Vec<(NaiveDate, DayCounts)>, Error> {
        let (first, last) = (first.to_string(), last.to_string());
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(DAYS))?;
                let rows = statement.query_map(params![account, first, last], |row| read_day(row))?;
                Ok(rows.collect::<Result<Vec<_>, _>>()?.into_iter().flatten().collect())
            })
            .await
    }
}
