//! Price plans and the accounts on them (in migrations `0022_operator` and
//! PostgreSQL's `0019`). A plan is stored as hundredths of credits per part, by country (JSON),
//! and for the rest; an account on no plan pays the shipped prices.

use std::collections::BTreeMap;

use async_trait::async_trait;
use texto_core::{Country, Credits, PriceTable};

use super::AccountId;
use crate::Error;

/// The name of the shipped prices, which no stored plan may take.
pub(crate) const SHIPPED: &str = "shipped";

/// Where price plans live.
#[async_trait]
pub(crate) trait PlanStore: Send + Sync {
    /// Creates the plan, or replaces the prices of the one of that name.
    async fn save_plan(&self, name: &str, prices: &PriceTable) -> Result<(), Error>;
    /// Every plan, by name.
    async fn plans(&self) -> Result<Vec<(String, PriceTable)>, Error>;
    /// Puts the account on `plan` (`None`: the shipped prices); `false` when there is no such plan.
    async fn set_account_plan(&self, account: AccountId, plan: Option<&str>) -> Result<bool, Error>;
    /// The accounts on a plan, with its name.
    async fn account_plans(&self) -> Result<Vec<(AccountId, String)>, Error>;
}

/// Creates or replaces a plan (`$1` name, `$2` prices, `$3` other, `$4` now).
pub(crate) const SAVE_PLAN: &str = "INSERT INTO price_plans (name, prices, other, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (name) DO UPDATE SET prices = excluded.prices, other = excluded.other, updated_at = excluded.updated_at";
/// Every plan.
pub(crate) const PLANS: &str = "SELECT name, prices, other FROM price_plans ORDER BY name";
/// Whether a plan exists (`$1` name).
pub(crate) const PLAN_EXISTS: &str = "SELECT COUNT(*) FROM price_plans WHERE name = $1";
/// Puts an account on a plan (`$1` account, `$2` plan, `$3` now).
pub(crate) const SET_ACCOUNT_PLAN: &str = "INSERT INTO account_plans (account_id, plan, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (account_id) DO UPDATE SET plan = excluded.plan, updated_at = excluded.updated_at";
/// Puts an account back on the shipped prices (`$1` account).
pub(crate) const CLEAR_ACCOUNT_PLAN: &str = "DELETE FROM account_plans WHERE account_id = $1";
/// The accounts on a plan.
pub(crate) const ACCOUNT_PLANS: &str = "SELECT account_id, plan FROM account_plans";

/// The stored columns of `prices`: the countries' hundredths as JSON, and the rest's.
pub(crate) fn plan_columns(prices: &PriceTable) -> (String, i64) {
    let countries: BTreeMap<&str, i64> = prices.countries().into_iter().map(|(c, p)| (c, p.hundredths())).collect();
    (serde_json::to_string(&countries).unwrap_or_else(|_| "{}".into()), prices.other().hundredths())
}

/// A plan read back from its columns.
pub(crate) fn plan_from_columns(name: &str, countries: &str, other: i64) -> Result<PriceTable, Error> {
    let bad = |why: String| Error::Stored(format!("price plan {name:?}: {why}"));
    let countries: BTreeMap<String, i64> = serde_json::from_str(countries).map_err(|e| bad(e.to_string()))?;
    let mut table = PriceTable::flat(Credits::from_hundredths(other));
    for (code, hundredths) in countries {
        let country = Country::from_iso2(&code).ok_or_else(|| bad(format!("unknown country {code}")))?;
        table.set(country, Credits::from_hundredths(hundredths));
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_reads_back_as_written() {
        let mut table = PriceTable::flat(Credits::from_hundredths(250));
        table.set(Country::from_iso2("BE").unwrap(), Credits::from_hundredths(150));
        let (countries, other) = plan_columns(&table);
        assert_eq!(countries, r#"{"BE":150}"#);
        assert_eq!(plan_from_columns("gold", &countries, other).unwrap(), table);
        assert!(plan_from_columns("gold", r#"{"XX":1}"#, 1).is_err());
    }
}
