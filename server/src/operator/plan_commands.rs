//! The operator's commands for price plans (`texto plan …`). Running nodes pick a change up
//! within a second.

use std::fmt::Write as _;

use texto_core::{Country, Credits, FieldError, PriceTable, part_price, wire::CountryPriceDto};

use crate::{
    Error,
    cli::args::PlanAction,
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
fn price_table(countries: impl IntoIterator<Item = (Country, Credits)>, other: Credits) -> PriceTable {
    let mut table = PriceTable::flat(other);
    for (country, price) in countries {
        table.set(country, price);
    }
    table
}

/// The table a request's `countries` and `other` describe, or each field's problem
/// (`countries[0].country`, `countries[0].price`, `other`).
pub(crate) fn wire_prices(countries: &[CountryPriceDto], other: Option<f64>) -> Result<PriceTable, Vec<FieldError>> {
    let mut problems = Vec::new();
    let mut prices = Vec::new();
    for (at, entry) in countries.iter().enumerate() {
        let country = Country::from_iso2(entry.country.trim()).ok_or_else(|| {
            let why = format!("{:?} is not a country code", entry.country);
            FieldError::new(format!("countries[{at}].country"), why)
        });
        let price = part_price(entry.price).map_err(|why| FieldError::new(format!("countries[{at}].price"), why));
        match (country, price) {
            (Ok(country), Ok(price)) => prices.push((country, price)),
            (country, price) => problems.extend(country.err().into_iter().chain(price.err())),
        }
    }
    let other = other
        .ok_or_else(|| "required: the price to the countries not listed".to_owned())
        .and_then(part_price)
        .map_err(|why| problems.push(FieldError::new("other", why)));
    match (other, problems.is_empty()) {
        (Ok(other), true) => Ok(price_table(prices, other)),
        _ => Err(problems),
    }
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
