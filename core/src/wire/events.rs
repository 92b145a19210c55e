//! The bodies texto posts to webhooks (docs/interface.md §7.5). JSON on the wire.

use serde::{Deserialize, Serialize};

use super::{Document, lenient};

/// DLR: a delivery report for one message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DlrEvent {
    /// ISO-8601 with offset.
    #[serde(deserialize_with = "lenient::string")]
    pub date: String,
    /// Delivery code (3 DELIVERED, 2 NOT_DELIVERED, 5 INVALID_DESTINATION, …).
    #[serde(deserialize_with = "lenient::int")]
    pub status: i64,
    /// The number.
    #[serde(deserialize_with = "lenient::string")]
    pub destination: String,
    /// The client's gsmsmsid, or null.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub message_id: Option<String>,
    /// The ticket.
    #[serde(deserialize_with = "lenient::string")]
    pub campaign_id: String,
    /// ISO country of the number.
    #[serde(deserialize_with = "lenient::string")]
    pub country_code: String,
}

/// MO (a reply) and STOP (a reply that unsubscribed): same body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReplyEvent {
    /// ISO-8601 with offset.
    #[serde(deserialize_with = "lenient::string")]
    pub date: String,
    /// The reply's text.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The number that replied.
    #[serde(deserialize_with = "lenient::string")]
    pub from: String,
    /// The account the reply belongs to.
    #[serde(deserialize_with = "lenient::string")]
    pub account_id: String,
    /// gsmsmsid of the last message sent to that number, or null.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub last_message_id: Option<String>,
    /// texto's addition: the number's contact (names, fields, tags, consent) when the account
    /// has one; left out otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::object_or_null")]
    pub contact: Option<super::ContactCardDto>,
}

/// CLICKER: a recipient opened a short link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClickerEvent {
    /// The ticket.
    #[serde(deserialize_with = "lenient::string")]
    pub campaign_id: String,
    /// The recipient's gsmsmsid (spelled `gsmsid`, as in the public sample), or null.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub gsmsid: Option<String>,
    /// `Y-m-d H:i:s` Paris.
    #[serde(deserialize_with = "lenient::string")]
    pub date: String,
    /// The URL the link leads to.
    #[serde(deserialize_with = "lenient::string")]
    pub long_url: String,
    /// The short link.
    #[serde(deserialize_with = "lenient::string")]
    pub short_url: String,
    /// Device brand, from the User-Agent.
    #[serde(default, deserialize_with = "lenient::string")]
    pub brand: String,
    /// Device model.
    #[serde(default, deserialize_with = "lenient::string")]
    pub model: String,
    /// Operating system.
    #[serde(default, deserialize_with = "lenient::string")]
    pub os: String,
    /// The contact's info1.
    #[serde(default, deserialize_with = "lenient::string")]
    pub info1: String,
    /// info2.
    #[serde(default, deserialize_with = "lenient::string")]
    pub info2: String,
    /// info3.
    #[serde(default, deserialize_with = "lenient::string")]
    pub info3: String,
    /// info4.
    #[serde(default, deserialize_with = "lenient::string")]
    pub info4: String,
    /// Clicks on this link so far, this one included.
    #[serde(deserialize_with = "lenient::int")]
    pub clicks_on_link: i64,
}

/// BALANCE_ALERT: the balance went below the trigger. Strings, as in the public sample.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BalanceAlertEvent {
    /// Balance after the debit.
    #[serde(deserialize_with = "lenient::string")]
    pub balance: String,
    /// The `alert_trigger` crossed.
    #[serde(deserialize_with = "lenient::string")]
    pub trigger: String,
    /// `Y-m-d H:i:s` Paris.
    #[serde(deserialize_with = "lenient::string")]
    pub date: String,
}

/// JOURNEY (texto's addition): a journey's webhook step reached a contact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JourneyEvent {
    /// The journey's id.
    #[serde(deserialize_with = "lenient::string")]
    pub journey: String,
    /// The version the contact goes through.
    #[serde(deserialize_with = "lenient::int")]
    pub version: i64,
    /// The webhook step's place: `2`, `2.then.0`.
    #[serde(deserialize_with = "lenient::string")]
    pub step: String,
    /// The contact's number, international.
    #[serde(deserialize_with = "lenient::string")]
    pub number: String,
    /// When it reached the step: `Y-m-d H:i:s` Paris.
    #[serde(deserialize_with = "lenient::string")]
    pub date: String,
}

macro_rules! event_document {
    ($($event:ty),*) => {$(
        impl Document for $event {
            const JSON_ROOT: Option<&'static str> = None;
            const XML_ROOTS: &'static [&'static str] = &["event"];
        }
    )*};
}

event_document!(DlrEvent, ReplyEvent, ClickerEvent, BalanceAlertEvent, JourneyEvent);
