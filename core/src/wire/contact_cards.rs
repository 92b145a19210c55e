//! Contacts (texto's additions): `GET /contacts`, `GET`, `PUT` and `DELETE
//! /contact/:number`. A contact card is one per account and number; the lists' entries
//! (`ContactDto`) keep their shapes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{ReplyDto, SentMessageDto, lenient};

/// A contact's consent: its opt-in and opt-out, when and how.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConsentDto {
    /// When it opted in (`Y-m-d H:i:s`, Paris).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub opt_in_date: Option<String>,
    /// How: `import`, `api`, `keyword` or `form`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub source: Option<String>,
    /// The proof: the text agreed to, the keyword sent …
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub proof: Option<String>,
    /// The web form's address, for a form.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub address: Option<String>,
    /// When it opted out (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub opt_out_date: Option<String>,
    /// How it opted out (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub opt_out_source: Option<String>,
}

/// A contact card.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContactCardDto {
    /// The number, international digits (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub number: Option<String>,
    /// First name.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub firstname: Option<String>,
    /// Last name.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub lastname: Option<String>,
    /// Custom fields: a name (lower-case letters, digits, `_`) and a text, number or date value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<BTreeMap<String, String>>,
    /// Tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// Consent.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::object_or_null")]
    pub consent: Option<ConsentDto>,
    /// When it was created (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub created_at: Option<String>,
    /// When it was last changed (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub updated_at: Option<String>,
}

/// `{"contact": {...}}`: the request of `PUT /contact/:number`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct ContactCardRequest {
    /// The contact's changes.
    #[serde(deserialize_with = "lenient::object")]
    pub contact: ContactCardDto,
}
document!(ContactCardRequest, Some("contact"), &["contact"]);

/// The answer to `GET /contacts`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContactCardsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The page of contacts, by number.
    #[serde(default, deserialize_with = "lenient::list")]
    pub contacts: Vec<ContactCardDto>,
    /// How many the filters keep.
    #[serde(rename = "totalRecords", default, deserialize_with = "lenient::int")]
    pub total_records: i64,
}
document!(ContactCardsResponse, None, &["response"]);

/// The answer to `GET /contacts/numbers`: the numbers alone, for a page that needs no more
/// (the web app's in-page simulation of a segment, or of consent).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContactNumbersResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The page of numbers, in order.
    #[serde(default, deserialize_with = "lenient::list")]
    pub numbers: Vec<String>,
    /// How many the filters keep.
    #[serde(rename = "totalRecords", default, deserialize_with = "lenient::int")]
    pub total_records: i64,
}
document!(ContactNumbersResponse, None, &["response"]);

/// A list holding the contact's number, with the entry's info fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContactMembershipDto {
    /// The list's id.
    #[serde(default, deserialize_with = "lenient::string")]
    pub list_id: String,
    /// Its name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    /// info1…info4 of the entry.
    #[serde(default, deserialize_with = "lenient::list")]
    pub info: Vec<String>,
}

/// A click on a link sent to the contact.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContactClickDto {
    /// The campaign.
    #[serde(default, deserialize_with = "lenient::string")]
    pub campaign_id: String,
    /// When (`Y-m-d H:i:s`, Paris).
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
}

/// The answer to `GET /contact/:number`: everything texto holds about the number.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContactExportResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The contact card.
    #[serde(default, deserialize_with = "lenient::object")]
    pub contact: ContactCardDto,
    /// The lists holding it.
    #[serde(default, deserialize_with = "lenient::list")]
    pub lists: Vec<ContactMembershipDto>,
    /// Whether it is blacklisted (`1`) and NPAI (`1`).
    #[serde(default, deserialize_with = "lenient::int")]
    pub blacklisted: i64,
    /// Whether its number was found not to exist.
    #[serde(default, deserialize_with = "lenient::int")]
    pub npai: i64,
    /// The messages sent to it, newest first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub messages: Vec<SentMessageDto>,
    /// Its replies, newest first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub replies: Vec<ReplyDto>,
    /// Its clicks, oldest first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub clicks: Vec<ContactClickDto>,
}
document!(ContactExportResponse, None, &["response"]);
