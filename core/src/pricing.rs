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
