//! `GET /metrics/daily` (texto's addition): an account's figures per Paris day.

use serde::{Deserialize, Serialize};

use super::lenient;

/// One day's figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DayMetricsDto {
    /// The day, `Y-m-d` (Paris).
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
    /// Messages handed to the carrier.
    #[serde(default, deserialize_with = "lenient::int")]
    pub sent: i64,
    /// Receipts that said delivered.
    #[serde(default, deserialize_with = "lenient::int")]
    pub delivered: i64,
    /// Clicks on short links.
    #[serde(default, deserialize_with = "lenient::int")]
    pub clicks: i64,
    /// Replies (MO, STOP and START included).
    #[serde(default, deserialize_with = "lenient::int")]
    pub replies: i64,
    /// STOPs.
    #[serde(default, deserialize_with = "lenient::int")]
    pub stops: i64,
    /// Credits spent on the messages handed over.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub cost: f64,
}

/// The answer to `GET /metrics/daily`: every day of the period, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DailyMetricsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The days.
    #[serde(default, deserialize_with = "lenient::list")]
    pub days: Vec<DayMetricsDto>,
}
document!(DailyMetricsResponse, None, &["response"]);
