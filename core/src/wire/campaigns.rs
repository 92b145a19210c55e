//! Campaign history (`GET /campaigns`), detail (`GET /campaign/:ticket`) and credits.

use serde::{Deserialize, Serialize};

use super::{Document, lenient};

/// One campaign in the history.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CampaignSummaryDto {
    /// The ticket.
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: String,
    /// Sender shown to recipients (empty for the default).
    #[serde(default, deserialize_with = "lenient::string")]
    pub sender: String,
    /// The message text.
    #[serde(default, deserialize_with = "lenient::string")]
    pub text: String,
    /// Sending date, `Y-m-d H:i:s` Paris.
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
    /// Credits spent.
    #[serde(default, deserialize_with = "lenient::decimal", serialize_with = "super::envelope::decimal")]
    pub cost: f64,
    /// Percentage of sent messages delivered.
    #[serde(default, deserialize_with = "lenient::int")]
    pub delivery_rate: i64,
    /// `Scheduled`, `Sending`, `Sent` or `Cancelled`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub status: String,
    /// Recipients before filtering (texto; not in the public sample).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub total: Option<i64>,
    /// Messages after filtering (texto; not in the public sample).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub sent: Option<i64>,
    /// `alert` or `marketing` (texto; not in the public sample).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub pushtype: Option<String>,
    /// Creation date, `Y-m-d H:i:s` Paris, as `GET /campaign/:id` gives it (this and the
    /// fields below: what the SDKs read; not in the public sample of the listing).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub creation_date: Option<String>,
    /// The lists it was sent to.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_list")]
    pub lists: Option<Vec<CampaignListDto>>,
    /// Messages delivered.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub delivered: Option<i64>,
    /// Messages refused by operators.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub error: Option<i64>,
    /// Messages expired.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub expired: Option<i64>,
    /// Messages lost to network errors.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub network_error: Option<i64>,
    /// STOP replies.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub stop: Option<i64>,
    /// Numbers found NPAI.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub npai: Option<i64>,
    /// The journey whose step sent it, for a journey's campaign (texto's addition).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub journey: Option<String>,
}

/// `GET /campaigns`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CampaignsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// Newest first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub campaigns: Vec<CampaignSummaryDto>,
    /// Campaigns in all.
    #[serde(rename = "totalRecords", deserialize_with = "lenient::int")]
    pub total_records: i64,
    /// Campaigns matching the filter.
    #[serde(rename = "totalDisplayRecords", deserialize_with = "lenient::int")]
    pub total_display_records: i64,
}

impl Document for CampaignsResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// A stored list a campaign went to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CampaignListDto {
    /// List id.
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: String,
}

/// One campaign with its delivery statistics.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CampaignDetailDto {
    /// The ticket.
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: String,
    /// Sender.
    #[serde(default, deserialize_with = "lenient::string")]
    pub sender: String,
    /// The message text.
    #[serde(default, deserialize_with = "lenient::string")]
    pub text: String,
    /// When it was created, `Y-m-d H:i:s` Paris.
    #[serde(default, deserialize_with = "lenient::string")]
    pub creation_date: String,
    /// When it is (or was) sent.
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
    /// Credits spent.
    #[serde(default, deserialize_with = "lenient::decimal", serialize_with = "super::envelope::decimal")]
    pub cost: f64,
    /// Lists it went to (empty for a send to numbers).
    #[serde(default, deserialize_with = "lenient::list")]
    pub lists: Vec<CampaignListDto>,
    /// `Scheduled`, `Sending`, `Sent` or `Cancelled` (missing from the XML sample).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub status: Option<String>,
    /// Percentage of messages delivered.
    #[serde(default, deserialize_with = "lenient::int")]
    pub delivery_rate: i64,
    /// Messages delivered.
    #[serde(default, deserialize_with = "lenient::int")]
    pub delivered: i64,
    /// Messages refused by operators.
    #[serde(default, deserialize_with = "lenient::int")]
    pub error: i64,
    /// Messages expired.
    #[serde(default, deserialize_with = "lenient::int")]
    pub expired: i64,
    /// Messages lost to network errors.
    #[serde(default, deserialize_with = "lenient::int")]
    pub network_error: i64,
    /// STOP replies.
    #[serde(default, deserialize_with = "lenient::int")]
    pub stop: i64,
    /// Numbers found NPAI.
    #[serde(default, deserialize_with = "lenient::int")]
    pub npai: i64,
    /// Messages before filtering.
    #[serde(default, deserialize_with = "lenient::int")]
    pub total: i64,
    /// Messages after filtering (texto; not in the public samples).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub sent: Option<i64>,
    /// `alert` or `marketing` (texto; not in the public samples).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub pushtype: Option<String>,
    /// Messages sent without a final delivery code yet (texto; not in the public samples).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub pending: Option<i64>,
    /// The campaign's short links with their clicks, in the order of the text (texto; only
    /// for a campaign with links).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_list")]
    pub short_links: Option<Vec<super::LinkClicksDto>>,
    /// Why it was rejected, for a campaign that waited for approval and was refused (texto;
    /// its status is `Cancelled`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub rejection: Option<String>,
    /// When its queued messages wait because no connector of their route can take them (no
    /// bind up, or resting), those connectors: `A, B` (texto; as the node that
    /// answers saw its last wave).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub waiting: Option<String>,
    /// Minutes the carrier keeps trying its messages, when the send said (texto's addition).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub validity: Option<i64>,
    /// The id of the template it started from, when the send named one (texto's addition).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub template: Option<String>,
    /// The journey whose step sent it, for a journey's campaign (texto's addition).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub journey: Option<String>,
}

/// `GET /campaign/:ticket`: `campaign` is a one-element array, as in the public sample.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CampaignDetailResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The campaign.
    #[serde(default, deserialize_with = "lenient::list")]
    pub campaign: Vec<CampaignDetailDto>,
}

impl Document for CampaignDetailResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// `GET /credits`. `credits` is a string, as in the public sample.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreditsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The balance.
    #[serde(deserialize_with = "lenient::string")]
    pub credits: String,
    /// `0`: texto accounts are prepaid.
    #[serde(default, deserialize_with = "lenient::string")]
    pub postpaid: String,
    /// No postpaid limit.
    #[serde(default, deserialize_with = "lenient::opt_flag")]
    pub postpaid_limit: Option<bool>,
    /// Not an unlimited sub-account.
    #[serde(default, deserialize_with = "lenient::opt_flag")]
    pub unlimited: Option<bool>,
}

impl Document for CreditsResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// `DELETE /send/:id`: a scheduled campaign cancelled and refunded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CancelledResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The balance after the refund, as `GET /credits` writes it.
    #[serde(deserialize_with = "lenient::string")]
    pub credits: String,
}

impl Document for CancelledResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}
