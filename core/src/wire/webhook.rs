//! Webhooks: create, update, pause/resume, list.

use serde::{Deserialize, Serialize};

use super::{Document, lenient};

/// `{"webhook": {...}}` request (create, update, status). Every field is optional here.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct WebhookRequest {
    /// The webhook; see [`WebhookDto`].
    #[serde(deserialize_with = "lenient::object")]
    pub webhook: WebhookDto,
}

impl Document for WebhookRequest {
    const JSON_ROOT: Option<&'static str> = Some("webhook");
    const XML_ROOTS: &'static [&'static str] = &["webhook"];
}

/// A webhook as it appears on the wire (requests and responses).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookDto {
    /// Assigned by the service (a string).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub webhook_id: Option<String>,
    /// `MO`, `DLR`, `STOP`, `CLICKER`, `BALANCE_ALERT` or `JOURNEY` (a journey's webhook step).
    #[serde(
        default,
        rename = "type",
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub kind: Option<String>,
    /// Where events are posted.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub url: Option<String>,
    /// `live` or `paused`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub status: Option<String>,
    /// The signing secret: absent (`None`), null (`Some(None)`: no secret) or the secret; in
    /// answers to a role that may not change webhooks, `********` stands for a secret.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::present_string")]
    pub signature: Option<Option<String>>,
    /// HTTP code of the last delivery: absent, null (`Some(None)`: not delivered yet) or the code.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::present_int")]
    pub last_http_code: Option<Option<i64>>,
}

/// `{status, message, webhook}`: the answer to create, update and status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The webhook as stored.
    #[serde(deserialize_with = "lenient::object")]
    pub webhook: WebhookDto,
}

impl Document for WebhookResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// `GET /webhook`: the account's webhooks, paged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookListResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The webhooks, under the key the SMSFactor SDKs read.
    #[serde(default, deserialize_with = "lenient::list")]
    pub webhooks: Vec<WebhookDto>,
    /// The same webhooks under `webhook`, where texto first listed them (one `webhook` element
    /// per webhook in XML), for the clients written against that.
    #[serde(default, deserialize_with = "lenient::list")]
    pub webhook: Vec<WebhookDto>,
    /// Webhooks in all.
    #[serde(rename = "totalRecords", deserialize_with = "lenient::int")]
    pub total_records: i64,
    /// Webhooks after filtering.
    #[serde(rename = "totalDisplayRecords", deserialize_with = "lenient::int")]
    pub total_display_records: i64,
}

impl Document for WebhookListResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// One attempt to deliver an event, as the request log shows it (docs/interface.md §7.7).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookLogEntryDto {
    /// The event's delivery id (`X-Service-Delivery`): the same for every attempt of one event.
    #[serde(default, deserialize_with = "lenient::string")]
    pub delivery_id: String,
    /// When the attempt was made, `Y-m-d H:i:s` Europe/Paris.
    #[serde(default, deserialize_with = "lenient::string")]
    pub date: String,
    /// The event type: `MO`, `DLR`, `STOP`, `CLICKER`, `BALANCE_ALERT` or `JOURNEY`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub event: String,
    /// 1 for the first attempt, then 2, 3, … for the retries.
    #[serde(default, deserialize_with = "lenient::int")]
    pub attempt: i64,
    /// HTTP code of the answer; null when there was none (time-out, refused connection).
    #[serde(default, deserialize_with = "lenient::opt_int")]
    pub http_code: Option<i64>,
    /// Milliseconds until the answer (or the failure); null when not measured.
    #[serde(default, deserialize_with = "lenient::opt_int")]
    pub latency_ms: Option<i64>,
    /// Why the attempt failed; null when it succeeded.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub error: Option<String>,
    /// The JSON body that was posted.
    #[serde(default, deserialize_with = "lenient::string")]
    pub body: String,
    /// The attempt's id, for `POST /webhook/:id/log/:attempt/resend` (texto).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_int")]
    pub id: Option<i64>,
    /// The event's state now: `pending`, `delivered` or `failed` (texto).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub state: Option<String>,
}

/// `GET /webhook/:id/log`: the webhook's request log, newest first, paged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookLogResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    pub message: String,
    /// One `log` element per attempt.
    #[serde(default, deserialize_with = "lenient::list")]
    pub log: Vec<WebhookLogEntryDto>,
    /// Attempts in all.
    #[serde(rename = "totalRecords", deserialize_with = "lenient::int")]
    pub total_records: i64,
    /// Attempts after filtering.
    #[serde(rename = "totalDisplayRecords", deserialize_with = "lenient::int")]
    pub total_display_records: i64,
}

impl Document for WebhookLogResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}

/// The answer to `DELETE /webhook/:id`: the id of the webhook deleted, which the PHP SDK reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookDeletedResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The webhook's id.
    #[serde(deserialize_with = "lenient::int")]
    pub deleted_id: i64,
}

impl Document for WebhookDeletedResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}
