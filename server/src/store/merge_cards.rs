//! What merge fields read of the account's contacts: each card's first name, last name and
//! custom fields, for the fields a text names. The custom fields are read from their stored
//! JSON here rather than by the database (SQLite's `json_extract` took 275 ms a million cards,
//! more than the scan), and a JSON many contacts share is read once.

use rustc_hash::FxHashMap;
use texto_core::{CardValues, CardsBuilder, ContactField, card_value};

use super::{columns::Columns, segment_sql::Dialect};

/// How many distinct custom-field JSONs a read keeps parsed (beyond that, each is parsed as it
/// comes).
const KEPT_JSONS: usize = 65_536;

/// The account's (`$1`) contacts with a value in one of `fields`: number, first name, last
/// name and custom fields' JSON (`''` for a column `fields` does not need).
pub(crate) fn merge_cards_sql(fields: &[ContactField], dialect: Dialect) -> String {
    let account = match dialect {
        Dialect::Sqlite => "?1",
        Dialect::Postgres => "$1",
    };
    let asks = |wanted: fn(&ContactField) -> bool| fields.iter().any(wanted);
    let column = |asked: bool, name: &str| match asked {
        true => format!("a.{name}"),
        false => "''".to_owned(),
    };
    let (first, last, custom) = (
        asks(|field| *field == ContactField::FirstName),
        asks(|field| *field == ContactField::LastName),
        asks(|field| matches!(field, ContactField::Custom(_))),
    );
    // Cards with nothing recorded in the asked columns are skipped.
    let any: Vec<&str> = [(first, "a.firstname <> ''"), (last, "a.lastname <> ''"), (custom, "a.fields <> '{}'")]
        .into_iter()
        .filter_map(|(asked, clause)| asked.then_some(clause))
        .collect();
    let any = if any.is_empty() { "FALSE".to_owned() } else { any.join(" OR ") };
    format!(
        "SELECT a.number, {}, {}, {} FROM account_contacts a WHERE a.account_id = {account} AND ({any})",
        column(first, "firstname"),
        column(last, "lastname"),
        column(custom, "fields"),
    )
}

/// A card's values of `fields`, its custom fields read from their stored JSON: text as
/// written, a number or a boolean as JSON writes it, nothing for null or a field it lacks.
pub(crate) fn card_values_of(fields: &[ContactField], firstname: &str, lastname: &str, custom: &str) -> Vec<String> {
    let custom = custom_values(fields, custom);
    fields
        .iter()
        .zip(&custom)
        .map(|(field, value)| card_value(field, firstname, lastname, |_| Some(value)).to_owned())
        .collect()
}

/// The values of the custom fields among `fields` in the stored JSON `custom` (empty for the
/// other fields, and for all of them when the JSON is no object).
fn custom_values(fields: &[ContactField], custom: &str) -> Vec<String> {
    if custom.is_empty() {
        return vec![String::new(); fields.len()];
    }
    let object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(custom).unwrap_or_default();
    let text = |value: &serde_json::Value| -> String {
        match value {
            serde_json::Value::String(text) => text.clone(),
            serde_json::Value::Null => String::new(),
            other => other.to_string(),
        }
    };
    fields
        .iter()
        .map(|field| match field {
            ContactField::Custom(name) => object.get(name).map(text).unwrap_or_default(),
            _ => String::new(),
        })
        .collect()
}

/// Reads the rows of [`merge_cards_sql`] into [`CardValues`].
pub(crate) struct CardReader<'f> {
    fields: &'f [ContactField],
    cards: CardsBuilder,
    /// The custom values of each JSON already read (contacts imported together often share
    /// theirs, and [`CardValues`] keeps each distinct value once anyway).
    parsed: FxHashMap<Box<str>, Vec<String>>,
}

impl<'f> CardReader<'f> {
    /// A reader of the values of `fields`.
    pub(crate) fn new(fields: &'f [ContactField]) -> CardReader<'f> {
        CardReader { fields, cards: CardsBuilder::new(fields.len()), parsed: FxHashMap::default() }
    }

    /// Adds the card of one row.
    pub(crate) fn add<R: Columns>(&mut self, row: &R) -> Result<(), R::Fault> {
        let number = u64::try_from(row.column::<i64>(0)?).unwrap_or_default();
        let (first, last) = (row.text(1)?.unwrap_or_default(), row.text(2)?.unwrap_or_default());
        let json = row.text(3)?.unwrap_or_default();
        let fresh;
        let custom = match self.parsed.get(json) {
            Some(custom) => custom,
            None if self.parsed.len() < KEPT_JSONS => {
                self.parsed.entry(json.into()).or_insert_with(|| custom_values(self.fields, json))
            }
            None => {
                fresh = custom_values(self.fields, json);
                &fresh
            }
        };
        let values =
            self.fields.iter().zip(custom).map(|(field, value)| card_value(field, first, last, |_| Some(value)));
        self.cards.insert(number, values);
        Ok(())
    }

    /// The cards read.
    pub(crate) fn finish(self) -> CardValues {
        self.cards.build()
    }
}
