//! Balance alert settings (`notification` root).

use serde::{Deserialize, Serialize};

use super::{Document, lenient};

/// The five settings, all strings on the wire. Every field is optional here.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationDto {
    /// Digits: the balance below which the alert fires.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub alert_trigger: Option<String>,
    /// `1` sends an email.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub alert_email: Option<String>,
    /// `1` sends an SMS.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub alert_gsm: Option<String>,
    /// Address of the email.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub email: Option<String>,
    /// Number of the SMS.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub phone_number: Option<String>,
    /// The same number again, as `GET /notification/balance` shows it.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_string")]
    pub gsm: Option<String>,
}

/// `{"notification": {...}}` request of `PUT /notification/balance`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct NotificationRequest {
    /// The settings.
    #[serde(deserialize_with = "lenient::object")]
    pub notification: NotificationDto,
}

impl Document for NotificationRequest {
    const JSON_ROOT: Option<&'static str> = Some("notification");
    const XML_ROOTS: &'static [&'static str] = &["notification"];
}

/// `{status, message, notification}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationResponse {
    /// 1.
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// `OK`.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The settings as stored.
    #[serde(deserialize_with = "lenient::object")]
    pub notification: NotificationDto,
}

impl Document for NotificationResponse {
    const JSON_ROOT: Option<&'static str> = None;
    const XML_ROOTS: &'static [&'static str] = &["response"];
}
