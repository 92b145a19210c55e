//! What an account consumed over a period (`GET /metrics/consumption`): the messages handed to
//! the carrier, by country, on the index by account and time.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::{Country, Credits};

use super::{
    AccountId,
    columns::Columns,
    conditions::{Conditions, SqlValue},
    time,
};
use crate::Error;

/// One country's consumption.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CountryConsumption {
    /// ISO 3166 code.
    pub(crate) country: String,
    /// Messages handed to the carrier.
    pub(crate) messages: i64,
    /// What they cost.
    pub(crate) cost: Credits,
}

/// The conditions of a consumption query on `messages m`: the account's messages accepted in
/// the period, handed over (not those still waiting, or never sent as their campaign was
/// cancelled), to `countries` when some are given.
pub(crate) fn consumption_conditions(
    account: AccountId,
    from: DateTime<Utc>,
    until: DateTime<Utc>,
    countries: &[Country],
) -> Conditions {
    let mut conditions = Conditions::default();
    conditions.require("m.account_id = ?", [SqlValue::Int(account)]);
    conditions.require("m.created_at >= ?", [SqlValue::Text(time::store(from))]);
    conditions.require("m.created_at <= ?", [SqlValue::Text(time::store(until))]);
    conditions.require("m.delivery <> 0", []);
    if !countries.is_empty() {
        let marks = vec!["?"; countries.len()].join(", ");
        conditions
            .require(&format!("m.country IN ({marks})"), countries.iter().map(|c| SqlValue::Text(c.iso2().to_owned())));
    }
    conditions
}

/// Consumption figures.
#[async_trait]
pub(crate) trait ConsumptionStore: Send + Sync {
    /// The account's consumption in the period, by country, the most first.
    async fn consumption(
        &self,
        account: AccountId,
        from: DateTime<Utc>,
        until: DateTime<Utc>,
        countries: &[Country],
    ) -> Result<Vec<CountryConsumption>, Error>;
}

/// The query, for either store's clause.
pub(crate) fn consumption_query(clause: &str) -> String {
    format!(
        "SELECT m.country, COUNT(*), CAST(COALESCE(SUM(m.cost), 0) AS BIGINT) FROM messages m WHERE {clause}
         GROUP BY m.country ORDER BY COUNT(*) DESC, m.country"
    )
}

/// One [`CountryConsumption`], read from a row.
pub(super) fn read_country_consumption<R: Columns>(row: &R) -> Result<CountryConsumption, R::Fault> {
    Ok(CountryConsumption {
        country: row.column(0)?,
        messages: row.column(1)?,
        cost: Credits::from_hundredths(row.column(2)?),
    })
}
