//! Keeping a list clean: `PUT /list/contact/:id` (edit a contact), `PUT /list/deduplicate/:id`
//! and `PUT /list/:id/npai/clear` (each answering how many contacts went).

use serde::{Deserialize, Serialize};

use super::{ContactDto, Document, lenient};

/// `PUT /list/contact/:id`: the contact's new number and fields, at the top of the body or
/// under `contact`; a field left out keeps its value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContactUpdateRequest {
    /// The new number, in international form; absent or empty keeps it.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub value: Option<String>,
    /// New information field 1.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub info1: Option<String>,
    /// New information field 2.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub info2: Option<String>,
    /// New information field 3.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub info3: Option<String>,
    /// New information field 4.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub info4: Option<String>,
    /// The same fields one level down, as `{"contact": {...}}`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::object_or_null")]
    pub contact: Option<ContactDto>,
}

impl ContactUpdateRequest {
    /// The change asked for, wherever the body put it: `(value, [info1, …, info4])`.
    pub fn change(self) -> (Option<String>, [Option<String>; 4]) {
        match self.contact {
            Some(c) => ((!c.value.is_empty()).then_some(c.value), [c.info1, c.info2, c.info3, c.info4]),
            None => (self.value.filter(|v| !v.trim().is_empty()), [self.info1, self.info2, self.info3, self.info4]),
        }
    }
}

impl Document for ContactUpdateRequest {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["contact", "request"];
}

/// The answer to `PUT /list/deduplicate/:id` and `PUT /list/:id/npai/clear`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RemovedResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// Contacts taken out of the list.
    #[serde(deserialize_with = "lenient::int")]
    pub removed: i64,
}

impl Document for RemovedResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{Format, decode};

    #[test]
    fn a_contact_change_reads_flat_or_under_contact() {
        let flat: ContactUpdateRequest = decode(r#"{"value": "33612345678", "info2": "Lyon"}"#, Format::Json).unwrap();
        assert_eq!(flat.change(), (Some("33612345678".into()), [None, Some("Lyon".into()), None, None]));
        let nested: ContactUpdateRequest =
            decode(r#"{"contact": {"value": "", "info1": "Marie"}}"#, Format::Json).unwrap();
        assert_eq!(nested.change(), (None, [Some("Marie".into()), None, None, None]));
    }
}
