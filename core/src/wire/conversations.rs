//! The inbox (texto's additions): conversations with the numbers that wrote, their
//! timelines, and answers.

use serde::{Deserialize, Serialize};

use super::lenient;

/// One conversation of `GET /conversations`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConversationDto {
    /// The number that wrote (international digits).
    #[serde(default, deserialize_with = "lenient::string")]
    pub number: String,
    /// Its last reply.
    #[serde(default, deserialize_with = "lenient::string")]
    pub last_message: String,
    /// When that came (`Y-m-d H:i:s`, Paris).
    #[serde(default, deserialize_with = "lenient::string")]
    pub last_date: String,
    /// Its replies nobody read yet.
    #[serde(default, deserialize_with = "lenient::int")]
    pub unread: i64,
}

/// The answer to `GET /conversations`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConversationsResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The page, the most recent first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub conversations: Vec<ConversationDto>,
    /// The conversations the filters keep.
    #[serde(rename = "totalDisplayRecords", default, deserialize_with = "lenient::int")]
    pub total_display_records: i64,
    /// The account's conversations with unread replies.
    #[serde(default, deserialize_with = "lenient::int")]
    pub unread_conversations: i64,
}
document!(ConversationsResponse, None, &["response"]);

/// One entry of a conversation's timeline: a message sent to the number, or a reply from it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConversationEntryDto {
    /// `sent` (to the number) or `received` (from it).
    #[serde(default, deserialize_with = "lenient::string")]
    pub direction: String,
    /// The message's or the reply's id.
    #[serde(default, deserialize_with = "lenient::int")]
    pub message_id: i64,
    /// The campaign it belongs to (or answers); 0 when unknown.
    #[serde(default, deserialize_with = "lenient::int")]
    pub campaign_id: i64,
    /// The text.
    #[serde(default, deserialize_with = "lenient::string")]
    pub message: String,
    /// When it was sent or received (`Y-m-d H:i:s`, Paris).
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
    /// For a message sent: its delivery status, as `GET /messages` writes it; empty for a reply.
    #[serde(default, deserialize_with = "lenient::string")]
    pub status: String,
    /// For a message sent: what its status means.
    #[serde(default, deserialize_with = "lenient::string")]
    pub status_details: String,
}

/// The answer to `GET /conversation/:number`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConversationResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The number.
    #[serde(default, deserialize_with = "lenient::string")]
    pub number: String,
    /// Its last 200 messages sent and 200 replies, oldest first.
    #[serde(default, deserialize_with = "lenient::list")]
    pub timeline: Vec<ConversationEntryDto>,
}
document!(ConversationResponse, None, &["response"]);

/// The fields of `POST /conversation/:number/reply` (root `reply`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConversationReplyDto {
    /// The answer's text.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub text: Option<String>,
}

/// `{"reply": {...}}`: the request of `POST /conversation/:number/reply`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct ConversationReplyRequest {
    /// The answer.
    #[serde(deserialize_with = "lenient::object")]
    pub reply: ConversationReplyDto,
}
document!(ConversationReplyRequest, Some("reply"), &["reply"]);
