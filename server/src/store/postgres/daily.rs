//! The daily counts in PostgreSQL.

use async_trait::async_trait;
use chrono::NaiveDate;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId,
        daily::{DAYS, DailyStore, DayCounts, read_day},
    },
};

#[async_trait]
impl DailyStore for PgStore {
    async fn daily_counts(
        &self,
        account: AccountId,
        first: NaiveDate,
        last: NaiveDate,
    ) -> Result<Vec<(NaiveDate, DayCounts)>, Error> {
        let client = self.pool.get().await?;
        let (first, last) = (first.to_string(), last.to_string());
        Ok(query(&client, DAYS, &[&account, &first, &last])
            .await?
            .iter()
            .map(read_day)
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .flatten()
            .collect())
    }
}
