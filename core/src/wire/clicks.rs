//! Clicks on a campaign's short links (texto's addition to the interface): per link (in the
//! campaign's detail), and who clicked (`GET /campaign/:ticket/clickers`).

use serde::{Deserialize, Serialize};

use super::{Document, lenient};

/// One short link of a campaign and its clicks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LinkClicksDto {
    /// The long URL.
    #[serde(default, deserialize_with = "lenient::string")]
    pub url: String,
    /// Clicks in all.
    #[serde(default, deserialize_with = "lenient::int")]
    pub clicks: i64,
    /// Recipients who clicked it at least once.
    #[serde(default, deserialize_with = "lenient::int")]
    pub clickers: i64,
}

/// A recipient who clicked a link, with the contact's fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClickerDto {
    /// The recipient's number.
    #[serde(default, deserialize_with = "lenient::string")]
    pub destination: String,
    /// The long URL clicked.
    #[serde(default, deserialize_with = "lenient::string")]
    pub url: String,
    /// How many times.
    #[serde(default, deserialize_with = "lenient::int")]
    pub clicks: i64,
    /// The last click, `Y-m-d H:i:s` Paris.
    #[serde(default, deserialize_with = "lenient::string")]
    pub last_click: String,
    /// The phone's brand (empty when unknown).
    #[serde(default, deserialize_with = "lenient::string")]
    pub brand: String,
    /// The phone's model.
    #[serde(default, deserialize_with = "lenient::string")]
    pub model: String,
    /// The phone's operating system.
    #[serde(default, deserialize_with = "lenient::string")]
    pub os: String,
    /// Information field 1 of the contact.
    #[serde(default, deserialize_with = "lenient::string")]
    pub info1: String,
    /// Information field 2.
    #[serde(default, deserialize_with = "lenient::string")]
    pub info2: String,
    /// Information field 3.
    #[serde(default, deserialize_with = "lenient::string")]
    pub info3: String,
    /// Information field 4.
    #[serde(default, deserialize_with = "lenient::string")]
    pub info4: String,
}

/// `GET /campaign/:ticket/clickers`: one row per recipient and link, by first click.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClickersResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// This page.
    #[serde(default, deserialize_with = "lenient::list")]
    pub clickers: Vec<ClickerDto>,
    /// Rows in all.
    #[serde(rename = "totalRecords", deserialize_with = "lenient::int")]
    pub total_records: i64,
}

impl Document for ClickersResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}
