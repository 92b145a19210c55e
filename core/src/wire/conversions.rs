//! Conversions (texto's addition): `POST /conversion` credits a sale or a sign-up to the click
//! on a short link that led to it, with its value; a campaign's report counts them.

use serde::{Deserialize, Serialize};

use super::lenient;

/// A conversion: the click it is credited to and what it was worth.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConversionDto {
    /// Its id (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub id: Option<String>,
    /// The short link's code the recipient followed (`AbC123` of `/s/AbC123`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub click: Option<String>,
    /// What it was worth (0 to 1,000,000, two decimals at most); 0 when not given.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_decimal")]
    pub value: Option<f64>,
    /// The campaign credited (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub campaign_id: Option<String>,
    /// When it was recorded, Paris time (in answers).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub created_at: Option<String>,
}

/// `{"conversion": {"click": "AbC123", "value": 49.9}}`: the request of `POST /conversion`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct ConversionRequest {
    /// The conversion.
    #[serde(deserialize_with = "lenient::object")]
    pub conversion: ConversionDto,
}
document!(ConversionRequest, Some("conversion"), &["conversion"]);

/// The answer to `POST /conversion`: the conversion recorded (the first one, for a click that
/// had converted already).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConversionResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The conversion.
    #[serde(default, deserialize_with = "lenient::object")]
    pub conversion: ConversionDto,
}
document!(ConversionResponse, None, &["response"]);
