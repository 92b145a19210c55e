//! `GET /prices` (texto's addition): the caller's price plan, which its sends and
//! simulations are charged by, for pages and clients that simulate on their side.

use serde::{Deserialize, Serialize};

use super::lenient;
use crate::{Country, Credits, PriceTable};

/// The price of one SMS part to one country.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CountryPriceDto {
    /// ISO 3166 code (`FR`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub country: String,
    /// Credits per part.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub price: f64,
}

/// The answer to `GET /prices`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PricesResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The plan's name (`shipped`: the prices texto ships with).
    #[serde(default, deserialize_with = "lenient::string")]
    pub plan: String,
    /// The countries with a price of their own.
    #[serde(default, deserialize_with = "lenient::list")]
    pub countries: Vec<CountryPriceDto>,
    /// Credits per part to any other country.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub other: f64,
}
document!(PricesResponse, None, &["response"]);

/// A price plan's prices (`GET /operator/plans`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlanPricesDto {
    /// Its name (`shipped`: the prices texto ships with).
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    /// The countries with a price of their own.
    #[serde(default, deserialize_with = "lenient::list")]
    pub countries: Vec<CountryPriceDto>,
    /// Credits per part to any other country.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub other: f64,
}

impl PlanPricesDto {
    /// `table`, named `name`.
    pub fn new(name: &str, table: &PriceTable) -> PlanPricesDto {
        let countries = table
            .countries()
            .into_iter()
            .map(|(country, price)| CountryPriceDto { country: country.to_owned(), price: price.as_f64() })
            .collect();
        PlanPricesDto { name: name.to_owned(), countries, other: table.other().as_f64() }
    }
}

impl PricesResponse {
    /// The answer for `table`, named `plan`.
    pub fn new(plan: &str, table: &PriceTable) -> PricesResponse {
        let PlanPricesDto { name, countries, other } = PlanPricesDto::new(plan, table);
        PricesResponse { status: 1, message: "OK".into(), plan: name, countries, other }
    }

    /// The table it describes (unknown countries and prices that are not amounts are left out).
    pub fn table(&self) -> PriceTable {
        let mut table = PriceTable::flat(Credits::from_f64(self.other).unwrap_or(PriceTable::default().other()));
        for entry in &self.countries {
            if let (Some(country), Some(price)) = (Country::from_iso2(&entry.country), Credits::from_f64(entry.price)) {
                table.set(country, price);
            }
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_goes_through_the_answer_unchanged() {
        let mut table = PriceTable::flat(Credits::from_hundredths(250));
        table.set(Country::from_iso2("FR").unwrap(), Credits::whole(1));
        table.set(Country::from_iso2("BE").unwrap(), Credits::from_hundredths(175));
        let answer = PricesResponse::new("gold", &table);
        assert_eq!(answer.countries.len(), 2);
        assert_eq!(answer.table(), table);
        // The shipped table prices every country of the numbering data the same once read back.
        let shipped = PricesResponse::new("shipped", &PriceTable::default()).table();
        for country in Country::all() {
            assert_eq!(shipped.part_price(country), PriceTable::default().part_price(country), "{country}");
        }
    }
}
