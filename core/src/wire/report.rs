//! A campaign's report (texto's addition): `GET /campaign/:id/report` and its CSV.

use serde::{Deserialize, Serialize};

use super::lenient;

/// The answer to `GET /campaign/:id/report`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The report.
    #[serde(default, deserialize_with = "lenient::object")]
    pub report: ReportDto,
}
document!(ReportResponse, None, &["response"]);

/// What became of a campaign: the funnel with its rates, the first 48 hours, and per country.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportDto {
    /// The campaign's ticket.
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: String,
    /// Messages sent (handed over or to be).
    #[serde(default, deserialize_with = "lenient::int")]
    pub sent: i64,
    /// Delivered.
    #[serde(default, deserialize_with = "lenient::int")]
    pub delivered: i64,
    /// Recipients who clicked a link.
    #[serde(default, deserialize_with = "lenient::int")]
    pub clicked: i64,
    /// Numbers that replied (not with a stop word).
    #[serde(default, deserialize_with = "lenient::int")]
    pub replied: i64,
    /// Numbers that replied with a stop word.
    #[serde(default, deserialize_with = "lenient::int")]
    pub stopped: i64,
    /// Recipients whose click converted (`POST /conversion`, the pixel).
    #[serde(default, deserialize_with = "lenient::int")]
    pub converted: i64,
    /// What their conversions were worth.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub conversion_value: f64,
    /// Delivered, in % of sent.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub delivered_rate: f64,
    /// Clicked, in % of delivered.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub clicked_rate: f64,
    /// Replied, in % of delivered.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub replied_rate: f64,
    /// Stopped, in % of delivered.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub stopped_rate: f64,
    /// Converted, in % of delivered.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub converted_rate: f64,
    /// Deliveries and clicks in each of the first 48 hours after it went out.
    #[serde(default, deserialize_with = "lenient::list")]
    pub hours: Vec<ReportHourDto>,
    /// Per country, the most messages first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub countries: Vec<ReportCountryDto>,
    /// The A/B test, when the campaign has one: each text's sample and the winner.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_object")]
    pub ab: Option<ReportAbDto>,
}

/// A campaign's A/B test in its report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportAbDto {
    /// The sample's share of the recipients, in percent.
    #[serde(default, deserialize_with = "lenient::int")]
    pub share: i64,
    /// How long the sample ran before the winner was chosen (`2h`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub wait: String,
    /// `clicks`, `replies` or `delivered`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub criterion: String,
    /// When the winner is (was) due, Paris time.
    #[serde(default, deserialize_with = "lenient::string")]
    pub decide_at: String,
    /// The winning text's number (1 is the campaign's own text); absent while the rest waits.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub winner: Option<i64>,
    /// The text leading by the criterion so far (1 is the campaign's own text).
    #[serde(default, deserialize_with = "lenient::int")]
    pub leading: i64,
    /// Each text and what its sample did, in order.
    #[serde(default, deserialize_with = "lenient::list")]
    pub variants: Vec<ReportVariantDto>,
}

/// One text of an A/B test and what its sample did (rates as the funnel's).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportVariantDto {
    /// Its number: 1 is the campaign's own text, 2 to 4 its variants.
    #[serde(default, deserialize_with = "lenient::int")]
    pub variant: i64,
    /// The text.
    #[serde(default, deserialize_with = "lenient::string")]
    pub text: String,
    /// Messages of the sample with it.
    #[serde(default, deserialize_with = "lenient::int")]
    pub sent: i64,
    /// Of them, delivered.
    #[serde(default, deserialize_with = "lenient::int")]
    pub delivered: i64,
    /// Of them, clicked.
    #[serde(default, deserialize_with = "lenient::int")]
    pub clicked: i64,
    /// Of them, replied to.
    #[serde(default, deserialize_with = "lenient::int")]
    pub replied: i64,
    /// Delivered, in % of sent.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub delivered_rate: f64,
    /// Clicked, in % of delivered.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub clicked_rate: f64,
    /// Replied, in % of delivered.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub replied_rate: f64,
    /// Its sample's deliveries and clicks in each of the first 48 hours.
    #[serde(default, deserialize_with = "lenient::list")]
    pub hours: Vec<ReportHourDto>,
}

/// One hour of a report: `hour` 0 is the hour the campaign went out in.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportHourDto {
    /// Hours after the campaign went out (0 to 47).
    #[serde(default, deserialize_with = "lenient::int")]
    pub hour: i64,
    /// Messages delivered in that hour.
    #[serde(default, deserialize_with = "lenient::int")]
    pub delivered: i64,
    /// Clicks in that hour.
    #[serde(default, deserialize_with = "lenient::int")]
    pub clicks: i64,
}

/// One country of a report.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportCountryDto {
    /// ISO 3166-1 alpha-2.
    #[serde(default, deserialize_with = "lenient::string")]
    pub country: String,
    /// Messages sent there.
    #[serde(default, deserialize_with = "lenient::int")]
    pub sent: i64,
    /// Delivered there.
    #[serde(default, deserialize_with = "lenient::int")]
    pub delivered: i64,
    /// Recipients there who clicked.
    #[serde(default, deserialize_with = "lenient::int")]
    pub clicked: i64,
}

/// `{"ab": {"winner": 2}}`: the request of `PUT /campaign/{id}/winner`, which sends text 2 to
/// an A/B test's rest without waiting for the test's end.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct WinnerRequest {
    /// The choice.
    #[serde(deserialize_with = "lenient::object")]
    pub ab: WinnerDto,
}
document!(WinnerRequest, Some("ab"), &["ab"]);

/// The text an A/B test's rest gets.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WinnerDto {
    /// Its number: 1 is the campaign's own text, 2 to 4 its variants.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub winner: Option<i64>,
}
