//! The operator's commands for price plans (`texto plan …`). Running nodes pick a change up
//! within a second.

use std::fmt::Write as _;

use texto_core::PriceTable;

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
            if name == SHIPPED || name.is_empty() || name.len() > 64 {
                return Err(Error::Command(format!(
                    "{name:?}: choose another name (1 to 64 characters, not {SHIPPED})"
                )));
            }
            let mut table = PriceTable::flat(other);
            for (country, price) in countries {
                table.set(country, price);
            }
            store.save_plan(&name, &table).await?;
            Ok(format!("plan {name} saved: {}", prices(&table)))
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

/// `FR=1 BE=1.5 other=2.5`.
fn prices(table: &PriceTable) -> String {
    let mut out = String::new();
    for (country, price) in table.countries() {
        let _ = write!(out, "{country}={price} ");
    }
    let _ = write!(out, "other={}", table.other());
    out
}
