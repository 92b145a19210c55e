//! Consumption figures in PostgreSQL.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::Country;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId, ConsumptionStore, CountryConsumption, SqlValue, consumption::read_country_consumption,
        consumption_conditions, consumption_query,
    },
};

#[async_trait]
impl ConsumptionStore for PgStore {
    async fn consumption(
        &self,
        account: AccountId,
        from: DateTime<Utc>,
        until: DateTime<Utc>,
        countries: &[Country],
    ) -> Result<Vec<CountryConsumption>, Error> {
        let conditions = consumption_conditions(account, from, until, countries);
        let client = self.pool.get().await?;
        let params: Vec<_> = conditions.values().iter().map(SqlValue::as_postgres).collect();
        let rows = query(&client, &consumption_query(&conditions.postgres(1)), &params).await?;
        Ok(rows.iter().map(read_country_consumption).collect::<Result<_, _>>()?)
    }
}
