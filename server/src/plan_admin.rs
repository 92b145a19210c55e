//! The operator's commands for price plans (`texto plan …`). Running nodes pick a change up
//! within a second.

use std::fmt::Write as _;

use texto_core::{Country, Credits, PriceTable};

use crate::{
    Error,
    cli::PlanAction,
    store::{DbLocation, plans::SHIPPED},
};

/// `texto plan …`; returns what to print.
pub async fn plan(db: impl Into<DbLocation>, action: PlanAction) -> Result<String, Error> {
    let store = crate::store::for_commands(&db.into()).await?;
    match action {
        PlanAction::Set { name, countries, other } => {
            plan_name(&name).map_err(Error::Command)?;
            let table = price_table(countries, other);
            store.save_plan(&name, &table).await?;
            Ok(plan_saved(&name, &table))
        }
        PlanAction::List => {
            let mut out = format!("{SHIPPED}: {}", prices(&PriceTable::default()));
            for (name, table) in store.plans().await? {
                let _ = write!(out, "\n{name}: {}", prices(&table));
            }
            Ok(out)
        }
    }
}

/// Whether `name` may be a plan's: 1 to 64 characters, not `shipped`.
pub(crate) fn plan_name(name: &str) -> Result<(), String> {
    match name == SHIPPED || name.trim().is_empty() || name.len() > 64 || name.trim() != name {
        true => Err(format!("{name:?}: choose another name (1 to 64 characters, not {SHIPPED})")),
        false => Ok(()),
    }
}

/// The table of `countries`' prices, and `other` for the rest.
pub(crate) fn price_table(countries: impl IntoIterator<Item = (Country, Credits)>, other: Credits) -> PriceTable {
    let mut table = PriceTable::flat(other);
    for (country, price) in countries {
        table.set(country, price);
    }
    table
}

/// What saving plan `name` with `table` did, for the command line and the operators' log.
pub(crate) fn plan_saved(name: &str, table: &PriceTable) -> String {
    format!("plan {name} saved: {}", prices(table))
}

/// `FR=1 BE=1.5 other=2.5`.
fn prices(table: &PriceTable) -> String {
    let mut out = String::new();
    for (country, price) in table.countries() {
        let _ = write!(out, "{country}={price} ");
    }
    let _ = write!(out, "other={}", table.other());
    out
}
