//! Consumption figures in SQLite.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::params_from_iter;
use texto_core::Country;

use super::SqliteStore;
use crate::{
    Error,
    store::{
        AccountId, ConsumptionStore, CountryConsumption, consumption::read_country_consumption, consumption_conditions,
        consumption_query,
    },
};

#[async_trait]
impl ConsumptionStore for SqliteStore {
    async fn consumption(
        &self,
        account: AccountId,
        from: DateTime<Utc>,
        until: DateTime<Utc>,
        countries: &[Country],
    ) -> Result<Vec<CountryConsumption>, Error> {
        let conditions = consumption_conditions(account, from, until, countries);
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&consumption_query(&conditions.sqlite()))?;
                let rows =
                    statement.query_map(params_from_iter(conditions.values()), |row| read_country_consumption(row))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }
}
