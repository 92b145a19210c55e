//! `GET /metrics/consumption`: what an account consumed over a period, by country.

use serde::{Deserialize, Serialize};

use super::{Document, lenient};

/// One country's consumption.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CountryConsumptionDto {
    /// ISO 3166 code.
    #[serde(default, deserialize_with = "lenient::string")]
    pub country: String,
    /// Messages handed to the carrier.
    #[serde(default, deserialize_with = "lenient::int")]
    pub total: i64,
    /// Credits they cost.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub cost: f64,
}

/// The caller's own line.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AccountConsumptionDto {
    /// The account's id.
    #[serde(default, deserialize_with = "lenient::int")]
    pub account_id: i64,
    /// The account's name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub company: String,
    /// Messages handed to the carrier.
    #[serde(default, deserialize_with = "lenient::int")]
    pub conso: i64,
}

/// The figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConsumptionDto {
    /// Messages handed to the carrier in the period.
    #[serde(default, deserialize_with = "lenient::int")]
    pub total: i64,
    /// The same by country, the most first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub by_country: Vec<CountryConsumptionDto>,
    /// The caller's account.
    #[serde(default, deserialize_with = "lenient::object")]
    pub my_account: AccountConsumptionDto,
    /// The caller's sub-accounts, each with its own line.
    #[serde(default, deserialize_with = "lenient::list")]
    pub by_sub_accounts: Vec<AccountConsumptionDto>,
}

/// The answer to `GET /metrics/consumption`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConsumptionResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The figures.
    #[serde(deserialize_with = "lenient::object")]
    pub data: ConsumptionDto,
}

impl Document for ConsumptionResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}
