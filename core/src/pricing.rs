//! What one SMS part costs, per destination country.

use std::collections::HashMap;

use crate::{Country, Credits};

/// Credits per SMS part by country, with a default for the others. The shipped table
/// ([`PriceTable::default`]) can be replaced by the server's configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceTable {
    per_country: HashMap<&'static str, Credits>,
    other: Credits,
}

/// The shipped prices: metropolitan France 1 credit per part (docs/interface.md §4.3); French overseas
/// departments 2; the rest of the EU/EEA, Switzerland and the UK 1.5; everywhere else 2.5.
const SHIPPED: &[(&[&str], i64)] = &[
    (&["FR", "MC"], 100),
    (&["RE", "YT", "GP", "MQ", "GF", "PM", "BL", "MF", "NC", "PF", "WF"], 200),
    (
        &[
            "BE", "LU", "DE", "NL", "AT", "CH", "IT", "ES", "PT", "IE", "GB", "DK", "SE", "FI", "NO", "IS", "PL", "CZ",
            "SK", "HU", "SI", "HR", "RO", "BG", "GR", "CY", "MT", "EE", "LV", "LT", "LI",
        ],
        150,
    ),
];

impl Default for PriceTable {
    fn default() -> PriceTable {
        let mut per_country = HashMap::new();
        for (countries, hundredths) in SHIPPED {
            for iso2 in *countries {
                per_country.insert(*iso2, Credits::from_hundredths(*hundredths));
            }
        }
        PriceTable { per_country, other: Credits::from_hundredths(250) }
    }
}

impl PriceTable {
    /// A table where every country costs `other`, except those set with [`PriceTable::set`].
    pub fn flat(other: Credits) -> PriceTable {
        PriceTable { per_country: HashMap::new(), other }
    }

    /// Sets the price of one part to `country`.
    pub fn set(&mut self, country: Country, price: Credits) {
        self.per_country.insert(country.iso2(), price);
    }

    /// Sets the price of countries not listed.
    pub fn set_other(&mut self, price: Credits) {
        self.other = price;
    }

    /// Credits for one part to `country`.
    pub fn part_price(&self, country: Country) -> Credits {
        self.per_country.get(country.iso2()).copied().unwrap_or(self.other)
    }

    /// The countries with a price of their own, by ISO code.
    pub fn countries(&self) -> Vec<(&'static str, Credits)> {
        let mut countries: Vec<_> = self.per_country.iter().map(|(iso2, price)| (*iso2, *price)).collect();
        countries.sort_unstable();
        countries
    }

    /// The price of countries not listed.
    pub fn other(&self) -> Credits {
        self.other
    }
}

/// A price per part: credits, at least 0, to the hundredth.
pub fn part_price(value: f64) -> Result<Credits, String> {
    Credits::from_f64(value)
        .filter(|c| *c >= Credits::ZERO)
        .ok_or_else(|| format!("{value} is not a price (0 or more credits)"))
}

/// A price per part written out (`1.5`).
pub fn part_price_text(text: &str) -> Result<Credits, String> {
    let text = text.trim();
    text.parse::<f64>().map_err(|_| format!("{text:?} is not an amount of credits")).and_then(part_price)
}

/// `FR=1.5`: a country and its price per part.
pub fn country_price(text: &str) -> Result<(Country, Credits), String> {
    let (code, price) = text.split_once('=').ok_or_else(|| format!("{text:?}: expected COUNTRY=CREDITS (FR=1)"))?;
    let code = code.trim();
    let country = Country::from_iso2(code).ok_or_else(|| format!("{code:?} is not a country code"))?;
    Ok((country, part_price_text(price)?))
}

/// `FR=0.5, BE=0.75` (commas or spaces between): the countries' prices, in the order written.
pub fn country_prices(text: &str) -> Result<Vec<(Country, Credits)>, String> {
    text.split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(country_price)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_are_read_as_an_operator_writes_them() {
        let fr = Country::from_iso2("FR").unwrap();
        let be = Country::from_iso2("BE").unwrap();
        assert_eq!(country_price("FR=1.5"), Ok((fr, Credits::from_hundredths(150))));
        assert_eq!(
            country_prices(" FR=0.5, BE=0.75;fr=1 "),
            Ok(vec![(fr, Credits::from_hundredths(50)), (be, Credits::from_hundredths(75)), (fr, Credits::whole(1))])
        );
        assert_eq!(country_prices(""), Ok(vec![]));
        assert!(country_prices("FR=0.5 XX=1").unwrap_err().contains("\"XX\" is not a country code"));
        assert!(country_price("FR").unwrap_err().contains("COUNTRY=CREDITS"));
        assert!(country_price("FR=-1").is_err());
        assert!(part_price_text("abc").is_err());
        assert!(part_price(f64::NAN).is_err());
        assert_eq!(part_price(0.0), Ok(Credits::ZERO));
    }
}
