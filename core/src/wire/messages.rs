//! Messages and replies (`GET /messages`, `GET /messages/mo`, `GET /campaign/:id/mo`), and
//! what a campaign caused (`GET /campaign/:id/blacklist`, `GET /campaign/:id/npai`).

use serde::{Deserialize, Serialize};

use super::{Document, NumberEntryDto, lenient};

/// One message sent, as `GET /messages` lists it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SentMessageDto {
    /// The message's id.
    #[serde(default, deserialize_with = "lenient::int")]
    pub message_id: i64,
    /// Its campaign's ticket.
    #[serde(default, deserialize_with = "lenient::int")]
    pub campaign_id: i64,
    /// The client's own id of the message (`gsmsmsid` of the send); empty when none.
    #[serde(default, deserialize_with = "lenient::string")]
    pub client_message_id: String,
    /// The text as sent (empty once the retention period masked it).
    #[serde(default, deserialize_with = "lenient::string")]
    pub message: String,
    /// Credits it cost.
    #[serde(default, deserialize_with = "lenient::decimal")]
    pub cost: f64,
    /// ISO 3166 country of the number.
    #[serde(default, deserialize_with = "lenient::string")]
    pub country: String,
    /// The number (empty once the retention period masked it).
    #[serde(default, deserialize_with = "lenient::string")]
    pub destination: String,
    /// The sender shown on the phone (empty: the default one).
    #[serde(default, deserialize_with = "lenient::string")]
    pub sender: String,
    /// When texto accepted it (`Y-m-d H:i:s`, Paris).
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
    /// When its final status came (empty while it has none).
    #[serde(default, deserialize_with = "lenient::string")]
    pub dlr_date: String,
    /// Its status: `pending`, `sent`, `delivered`, `not_delivered`, `npai`, `expired`, …
    #[serde(default, deserialize_with = "lenient::string")]
    pub status: String,
    /// The status in words.
    #[serde(default, deserialize_with = "lenient::string")]
    pub status_details: String,
    /// `alert` or `marketing`.
    #[serde(default, deserialize_with = "lenient::string", rename = "type")]
    pub kind: String,
}

/// The answer to `GET /messages`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessagesResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The page of messages.
    #[serde(default, deserialize_with = "lenient::list")]
    pub messages: Vec<SentMessageDto>,
    /// Messages in the period.
    #[serde(rename = "totalRecords", deserialize_with = "lenient::int")]
    pub total_records: i64,
    /// Messages the filters keep.
    #[serde(rename = "totalDisplayRecords", deserialize_with = "lenient::int")]
    pub total_display_records: i64,
}

impl Document for MessagesResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// A reply received (an MO).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReplyDto {
    /// The reply's id.
    #[serde(default, deserialize_with = "lenient::int")]
    pub message_id: i64,
    /// The campaign of the last message the account sent to the number (0: none).
    #[serde(default, deserialize_with = "lenient::int")]
    pub campaign_id: i64,
    /// The number that replied (empty once the retention period masked it).
    #[serde(default, deserialize_with = "lenient::string")]
    pub destination: String,
    /// The reply's text.
    #[serde(default, deserialize_with = "lenient::string")]
    pub message: String,
    /// The contact's information field 1, from the message replied to.
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
    /// When it arrived (`Y-m-d H:i:s`, Paris).
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
}

/// The answer to `GET /messages/mo` and `GET /campaign/:id/mo`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RepliesResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The page of replies.
    #[serde(default, deserialize_with = "lenient::list")]
    pub replies: Vec<ReplyDto>,
    /// Replies in the period.
    #[serde(rename = "totalRecords", deserialize_with = "lenient::int")]
    pub total_records: i64,
    /// The same (replies take no other filter).
    #[serde(rename = "totalDisplayRecords", deserialize_with = "lenient::int")]
    pub total_display_records: i64,
}

impl Document for RepliesResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// A STOP a campaign caused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StopDto {
    /// The number that opted out.
    #[serde(default, deserialize_with = "lenient::string")]
    pub destination: String,
    /// Information field 1 of the number's blacklist entry.
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
    /// When the STOP arrived (`Y-m-d H:i:s`, Paris).
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
}

/// The answer to `GET /campaign/:id/blacklist`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CampaignStopsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The campaign's STOPs, oldest first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub stops: Vec<StopDto>,
}

impl Document for CampaignStopsResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// The answer to `GET /campaign/:id/npai`: the numbers the carrier found unknown, in the shape
/// of `GET /npai`'s entries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CampaignNpaiResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The campaign's NPAI numbers.
    #[serde(default, deserialize_with = "lenient::list")]
    pub npai: Vec<NumberEntryDto>,
}

impl Document for CampaignNpaiResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}
