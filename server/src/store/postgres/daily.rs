//! The daily counts in PostgreSQL.

use async_trait::async_trait;
use chrono::NaiveDate;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId,
        daily::{DAYS, DailyStore, DayCounts, stored_day},
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
            .filter_map(|row| {
                let counts = DayCounts {
                    sent: row.get(1),
                    delivered: row.get(2),
                    clicks: row.get(3),
                    replies: row.get(4),
                    stops: row.get(5),
                    cost: row.get(6),
                };
                stored_day(row.get(0)).map(|day| (day, counts))
            })
            .collect())
    }
}
