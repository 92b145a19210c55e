//! The campaign result: the answer to send and simulate.

use serde::{Deserialize, Serialize};

use super::{Document, lenient};

/// Counters of a send or a simulation. `ticket` only on a real send.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CampaignResultDto {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The campaign id (a JSON string).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub ticket: Option<String>,
    /// Credits the campaign costs.
    #[serde(deserialize_with = "lenient::decimal", serialize_with = "super::envelope::decimal")]
    pub cost: f64,
    /// Credits left after it.
    #[serde(deserialize_with = "lenient::decimal", serialize_with = "super::envelope::decimal")]
    pub credits: f64,
    /// Messages before filtering.
    #[serde(deserialize_with = "lenient::int")]
    pub total: i64,
    /// Messages after filtering.
    #[serde(deserialize_with = "lenient::int")]
    pub sent: i64,
    /// Filtered: on the blacklist.
    #[serde(deserialize_with = "lenient::int")]
    pub blacklisted: i64,
    /// Filtered: same number earlier in the request.
    #[serde(deserialize_with = "lenient::int")]
    pub duplicated: i64,
    /// Filtered: not a valid mobile number.
    #[serde(deserialize_with = "lenient::int")]
    pub invalid: i64,
    /// Filtered: on the NPAI list.
    #[serde(deserialize_with = "lenient::int")]
    pub npai: i64,
    /// Filtered: country not allowed (absent from older samples).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub not_allowed: Option<i64>,
    /// Filtered: anti-flood (absent from older samples).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub flood: Option<i64>,
    /// Filtered: monthly country limit (absent from older samples).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub country_limit: Option<i64>,
    /// Filtered: a marketing send to a contact without an opt-in, when the account asks for
    /// consent (texto's addition; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub no_consent: Option<i64>,
    /// Filtered: a marketing send to a number that reached the account's frequency cap
    /// (texto's addition; absent while no cap is set).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub capped: Option<i64>,
    /// Characters smart encoding replaced in the text (texto's addition; only with
    /// `encoding: gsm`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub replaced: Option<i64>,
    /// SMS parts each message saves by it (texto's addition; only with `encoding: gsm`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub parts_saved: Option<i64>,
    /// Messages of an A/B test's sample, split evenly between its texts (texto's addition;
    /// only with `variants`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub ab_sample: Option<i64>,
    /// Messages that wait for the A/B test's winner (texto's addition; only with `variants`).
    /// `cost` holds them at the dearest text until then.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub ab_remainder: Option<i64>,
    /// Marketing's recipients in the overseas territories, each territory's when its own
    /// window lets them go (texto's addition; only when there are some).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_list")]
    pub overseas: Option<Vec<OverseasDto>>,
}

/// A campaign's recipients in one overseas territory, who get marketing in their own time.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OverseasDto {
    /// The territory (ISO 3166-1 alpha-2: `RE`, `YT`, `GP`, `BL`, `MF`, `MQ`, `GF`, `PM`, `NC`,
    /// `PF`, `WF`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub territory: String,
    /// Its recipients.
    #[serde(default, deserialize_with = "lenient::int")]
    pub recipients: i64,
    /// When they get it (`Y-m-d H:i:s`, Paris time, as `delay`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub send_at: String,
}

impl Document for CampaignResultDto {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}
