//! Merge fields (docs/api/send.md): a list entry's `[info1]`…`[info4]`, and a contact card's
//! `[firstname]`, `[lastname]` and custom fields (`[field:ville]`), each with an optional
//! fallback for an empty value (`[firstname|Bonjour]`). Any other text in brackets stays as
//! written (`[URGENT]`), as SMSFactor leaves it.

use std::ops::Range;

use crate::{ContactField, FieldError, is_custom_field_name};

/// The longest placeholder read as one, brackets included: a longer bracket is text.
const MOST_PLACEHOLDER_CHARS: usize = 200;

/// What a placeholder names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Named<'t> {
    /// `[infoN]`: the list entry's field N (0 to 3).
    Info(usize),
    /// `[firstname]`, `[lastname]`, `[field:name]`, and its position among the distinct card
    /// fields of the text in the order they first appear (where [`MergeValues::card`] holds
    /// its value).
    Card(&'t str, usize),
    /// `[field:…]` whose name no field may have.
    BadCustom(&'t str),
}

/// One placeholder of a text: where it is, what it names, its fallback.
#[derive(Debug, Clone)]
pub(super) struct Placeholder<'t> {
    /// Its bytes in the text, brackets included.
    pub(super) at: Range<usize>,
    /// What it names.
    pub(super) named: Named<'t>,
    /// What an empty value reads.
    pub(super) fallback: &'t str,
}

/// The placeholders of `text`, in order.
pub(super) fn placeholders(text: &str) -> impl Iterator<Item = Placeholder<'_>> {
    let mut from = 0;
    // The card fields met so far, each once: a card field's position among them.
    let mut cards: Vec<&str> = Vec::new();
    let mut card = move |name| {
        let index = cards.iter().position(|seen| *seen == name).unwrap_or(cards.len());
        if index == cards.len() {
            cards.push(name);
        }
        Named::Card(name, index)
    };
    std::iter::from_fn(move || {
        while let Some(open) = text[from..].find('[').map(|i| from + i) {
            from = open + 1;
            let close = text[open..].find(']').map(|i| open + i)?;
            let inner = &text[open + 1..close];
            if inner.contains('[') || close - open >= MOST_PLACEHOLDER_CHARS {
                continue;
            }
            let (name, fallback) = inner.split_once('|').unwrap_or((inner, ""));
            let named = match name {
                "info1" | "info2" | "info3" | "info4" => Named::Info(usize::from(name.as_bytes()[4] - b'1')),
                "firstname" | "lastname" => card(name),
                _ => match name.strip_prefix("field:") {
                    Some(custom) if is_custom_field_name(custom) => card(custom),
                    Some(custom) => Named::BadCustom(custom),
                    None => continue,
                },
            };
            from = close + 1;
            return Some(Placeholder { at: open..close + 1, named, fallback });
        }
        None
    })
}

/// What one recipient's message is merged with: its list entry's four fields, and the values
/// of the card fields the text names, in the order [`card_fields`] gives them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MergeValues<'a> {
    /// `info1`…`info4` (empty for a recipient that is no list entry).
    pub info: [&'a str; 4],
    /// The card's values, aligned with [`card_fields`] of the text.
    pub card: &'a [String],
}

impl<'a> MergeValues<'a> {
    /// The values as a message stores them: its four fields, then the card's.
    pub fn stored(values: &'a [String]) -> MergeValues<'a> {
        let info = std::array::from_fn(|i| values.get(i).map_or("", String::as_str));
        MergeValues { info, card: values.get(4..).unwrap_or_default() }
    }
}

/// The card fields `text` names (`[firstname]`, `[lastname]`, `[field:x]`), each once, in the
/// order they first appear: what the server looks up on each recipient's card.
pub fn card_fields(text: &str) -> Vec<ContactField> {
    let mut fields: Vec<ContactField> = Vec::new();
    for placeholder in placeholders(text) {
        if let Named::Card(name, index) = placeholder.named
            && index == fields.len()
        {
            fields.push(card_field(name));
        }
    }
    fields
}

fn card_field(name: &str) -> ContactField {
    match name {
        "firstname" => ContactField::FirstName,
        "lastname" => ContactField::LastName,
        custom => ContactField::Custom(custom.to_owned()),
    }
}

/// A card's values of `fields` (from [`card_fields`]), as [`MergeValues::card`] takes them;
/// `custom` reads a custom field's value.
pub fn card_values<'c>(
    fields: &[ContactField],
    firstname: &'c str,
    lastname: &'c str,
    custom: impl Fn(&str) -> Option<&'c str>,
) -> Vec<String> {
    fields.iter().map(|field| card_value(field, firstname, lastname, &custom).to_owned()).collect()
}

/// One field's value on a card ([`card_values`]), borrowed: `custom` reads a custom field's
/// value.
pub fn card_value<'v>(
    field: &ContactField,
    firstname: &'v str,
    lastname: &'v str,
    custom: impl Fn(&str) -> Option<&'v str>,
) -> &'v str {
    match field {
        ContactField::FirstName => firstname,
        ContactField::LastName => lastname,
        ContactField::Custom(name) => custom(name).unwrap_or_default(),
    }
}

/// True when the text changes from one recipient to another (it has merge fields).
pub fn has_contact_fields(text: &str) -> bool {
    placeholders(text).next().is_some()
}

/// The first merge field of `text` that cannot be filled: a `[field:…]` whose name no field
/// may have, or (with `known`) a custom field no contact of the account has. `path` names the
/// text in the error.
pub fn unknown_field(text: &str, known: Option<&dyn Fn(&str) -> bool>, path: &str) -> Option<FieldError> {
    placeholders(text).find_map(|placeholder| match placeholder.named {
        Named::BadCustom(name) => Some(FieldError::new(
            path,
            format!(
                "[field:{}] is no field: a field's name is lower-case letters, digits and _, from a letter",
                name.chars().take(40).collect::<String>()
            ),
        )),
        Named::Card("firstname" | "lastname", _) => None,
        Named::Card(name, _) if known.is_some_and(|known| !known(name)) => Some(FieldError::new(
            path,
            format!("[field:{name}] is unknown: no contact of the account has the field {name}"),
        )),
        Named::Card(..) | Named::Info(_) => None,
    })
}

/// `text` with each merge field replaced by the recipient's value, or its fallback when the
/// value is empty (or there is no recipient).
pub fn merge(text: &str, values: Option<&MergeValues>) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut last = 0;
    for placeholder in placeholders(text) {
        out.push_str(&text[last..placeholder.at.start]);
        last = placeholder.at.end;
        let value = values.map_or("", |values| match placeholder.named {
            Named::Info(n) => values.info[n],
            Named::Card(_, index) => values.card.get(index).map_or("", String::as_str),
            Named::BadCustom(_) => "",
        });
        out.push_str(if value.trim().is_empty() { placeholder.fallback } else { value });
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(values: &[&str]) -> Vec<String> {
        values.iter().map(|v| (*v).to_owned()).collect()
    }

    #[test]
    fn card_fields_are_listed_once_in_order() {
        let names: Vec<String> =
            card_fields("[lastname] [field:ville|Paris] [firstname] [lastname|x] [info1] [URGENT]")
                .iter()
                .map(|f| f.name().to_owned())
                .collect();
        assert_eq!(names, ["lastname", "ville", "firstname"]);
        assert!(card_fields("[URGENT] [Firstname] [info5]").is_empty());
    }

    #[test]
    fn values_and_fallbacks_are_merged() {
        let values = card(&["Ada", ""]);
        let merged = merge(
            "Bonjour [firstname|client], [field:ville|à bientôt] [info2|x]!",
            Some(&MergeValues { info: ["", "Lyon", "", ""], card: &values }),
        );
        assert_eq!(merged, "Bonjour Ada, à bientôt Lyon!");
        assert_eq!(merge("Hi [firstname|there] [info1]", None), "Hi there ");
    }

    #[test]
    fn other_brackets_stay_as_written() {
        let text = "[URGENT] [info5] [firstname [x] [field:Ville]";
        assert_eq!(merge("[URGENT] [info5] a[b]c", None), "[URGENT] [info5] a[b]c");
        assert!(has_contact_fields(text));
        assert!(!has_contact_fields("[URGENT] [info5]"));
        let long = format!("[field:{}]", "a".repeat(300));
        assert_eq!(merge(&long, None), long);
    }

    #[test]
    fn a_field_no_contact_has_is_named() {
        let known = |name: &str| name == "ville";
        let error = unknown_field("[field:ville] [field:code_promo]", Some(&known), "sms.message.text").unwrap();
        assert_eq!(error.path, "sms.message.text");
        assert!(error.message.contains("[field:code_promo]"), "{}", error.message);
        assert!(unknown_field("[firstname] [field:ville]", Some(&known), "t").is_none());
        assert!(unknown_field("[field:Ville]", None, "t").unwrap().message.contains("lower-case"));
        assert!(unknown_field("[field:anything]", None, "t").is_none());
    }

    #[test]
    fn a_card_gives_the_values_the_text_names() {
        let fields = card_fields("[field:ville] [lastname] [field:code]");
        let custom = |name: &str| (name == "ville").then_some("Lyon");
        assert_eq!(card_values(&fields, "Ada", "Lovelace", custom), ["Lyon", "Lovelace", ""]);
    }

    #[test]
    fn stored_values_split_into_info_and_card() {
        let stored = card(&["a", "b", "c", "d", "Ada"]);
        let values = MergeValues::stored(&stored);
        assert_eq!(values.info, ["a", "b", "c", "d"]);
        assert_eq!(values.card, &stored[4..]);
        assert_eq!(MergeValues::stored(&[]).card, &[] as &[String]);
    }
}
