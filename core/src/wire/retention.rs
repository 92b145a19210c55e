//! How long data is kept (`GET` and `PUT /retention`): six periods written `2d` or `5m`; empty
//! keeps everything.

use serde::{Deserialize, Serialize};

use super::{Document, lenient};

/// The periods of `PUT /retention` (root `retention`); a field left out keeps its period, an
/// empty one (or `0`) keeps that data for good.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RetentionDto {
    /// Sent messages: their numbers and texts are masked after it (the counts stay).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub message: Option<String>,
    /// List contacts: deleted once they were added longer ago.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub list: Option<String>,
    /// Surveys (texto has none: kept as set).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub survey: Option<String>,
    /// Campaigns: their texts and senders are masked after it (the counts stay).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub campaign: Option<String>,
    /// Replies received: deleted after it.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub mo: Option<String>,
    /// HLR lookups (texto does none: kept as set).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub lookup: Option<String>,
}

/// `{"retention": {...}}`: the request of `PUT /retention`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct RetentionRequest {
    /// The periods to change.
    #[serde(deserialize_with = "lenient::object")]
    pub retention: RetentionDto,
}

impl Document for RetentionRequest {
    const JSON_ROOT: Option<&'static str> = Some("retention");
    const XML_ROOTS: &'static [&'static str] = &["retention"];
}

/// The periods as stored, under both key sets clients read: the Java SDK's (`message`,
/// `list`, …) and the documentation's (`mts_retention`, `lists_retention`, …). Empty: kept for
/// good.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RetentionPeriodsDto {
    /// Sent messages.
    #[serde(default, deserialize_with = "lenient::string")]
    pub message: String,
    /// List contacts.
    #[serde(default, deserialize_with = "lenient::string")]
    pub list: String,
    /// Surveys.
    #[serde(default, deserialize_with = "lenient::string")]
    pub survey: String,
    /// Campaigns.
    #[serde(default, deserialize_with = "lenient::string")]
    pub campaign: String,
    /// Replies.
    #[serde(default, deserialize_with = "lenient::string")]
    pub mo: String,
    /// Lookups.
    #[serde(default, deserialize_with = "lenient::string")]
    pub lookup: String,
    /// `message`, as the documentation names it.
    #[serde(default, deserialize_with = "lenient::string")]
    pub mts_retention: String,
    /// `list`, as the documentation names it.
    #[serde(default, deserialize_with = "lenient::string")]
    pub lists_retention: String,
    /// `survey`, as the documentation names it.
    #[serde(default, deserialize_with = "lenient::string")]
    pub surveys_retention: String,
    /// `campaign`, as the documentation names it.
    #[serde(default, deserialize_with = "lenient::string")]
    pub campaigns_retention: String,
    /// `mo`, as the documentation names it.
    #[serde(default, deserialize_with = "lenient::string")]
    pub mos_retention: String,
    /// `lookup`, as the documentation names it.
    #[serde(default, deserialize_with = "lenient::string")]
    pub lookups_retention: String,
}

impl RetentionPeriodsDto {
    /// Both key sets from the six periods (`message`, `list`, `survey`, `campaign`, `mo`,
    /// `lookup`).
    pub fn of(periods: [String; 6]) -> RetentionPeriodsDto {
        let [message, list, survey, campaign, mo, lookup] = periods;
        RetentionPeriodsDto {
            mts_retention: message.clone(),
            lists_retention: list.clone(),
            surveys_retention: survey.clone(),
            campaigns_retention: campaign.clone(),
            mos_retention: mo.clone(),
            lookups_retention: lookup.clone(),
            message,
            list,
            survey,
            campaign,
            mo,
            lookup,
        }
    }
}

/// The answer to `GET` and `PUT /retention`: the periods under `data_retention` (what `GET`
/// documents) and `retention` (what the Java SDK reads after `PUT`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RetentionResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The periods.
    #[serde(deserialize_with = "lenient::object")]
    pub data_retention: RetentionPeriodsDto,
    /// The same periods.
    #[serde(deserialize_with = "lenient::object")]
    pub retention: RetentionPeriodsDto,
}

impl Document for RetentionResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}
