//! Webhooks (docs/interface.md §7.1): the addresses an account's events go to, and their request log.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{AccountId, Page, columns::Columns};
use crate::Error;

/// The columns a webhook is read from, in the order both stores read them.
pub(crate) const WEBHOOK_FIELDS: &str = "id, type, url, secret, status, last_http_code";

/// The event a webhook receives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum WebhookType {
    /// Replies to a message.
    Mo,
    /// Delivery reports.
    Dlr,
    /// Replies that unsubscribe.
    Stop,
    /// Clicks on short links.
    Clicker,
    /// The balance fell below the alert trigger.
    BalanceAlert,
    /// A journey's webhook step reached a contact (texto's addition): the step names the
    /// webhook by its address.
    Journey,
}

impl WebhookType {
    /// Every type, in the order the interface lists them.
    pub(crate) const ALL: [WebhookType; 6] = [
        WebhookType::Mo,
        WebhookType::Dlr,
        WebhookType::Stop,
        WebhookType::Clicker,
        WebhookType::BalanceAlert,
        WebhookType::Journey,
    ];

    /// The name on the wire and in the database (`DLR`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            WebhookType::Mo => "MO",
            WebhookType::Dlr => "DLR",
            WebhookType::Stop => "STOP",
            WebhookType::Clicker => "CLICKER",
            WebhookType::BalanceAlert => "BALANCE_ALERT",
            WebhookType::Journey => "JOURNEY",
        }
    }

    /// From the name, exactly as the interface spells it.
    pub(crate) fn parse(name: &str) -> Option<WebhookType> {
        WebhookType::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

/// Whether a webhook's events go out (docs/interface.md §7.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WebhookStatus {
    /// Events are delivered.
    Live,
    /// Events wait until the webhook is live again.
    Paused,
}

impl WebhookStatus {
    /// The name on the wire and in the database.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            WebhookStatus::Live => "live",
            WebhookStatus::Paused => "paused",
        }
    }

    /// From the name.
    pub(crate) fn parse(name: &str) -> Option<WebhookStatus> {
        [WebhookStatus::Live, WebhookStatus::Paused].into_iter().find(|s| s.as_str() == name)
    }
}

/// A stored webhook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WebhookRecord {
    /// Its id, unique across accounts.
    pub(crate) id: i64,
    /// The event it receives.
    pub(crate) kind: WebhookType,
    /// Where the events are posted.
    pub(crate) url: String,
    /// The signing secret, if any.
    pub(crate) secret: Option<String>,
    /// Live or paused.
    pub(crate) status: WebhookStatus,
    /// HTTP code of the last delivery attempt; `None` before the first.
    pub(crate) last_http_code: Option<i64>,
}

/// A webhook to create: it starts `live`, never delivered.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NewWebhook<'a> {
    /// The event it receives.
    pub(crate) kind: WebhookType,
    /// Where the events are posted (already checked).
    pub(crate) url: &'a str,
    /// The signing secret, if any.
    pub(crate) secret: Option<&'a str>,
}

/// The fields an update changes; `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct WebhookChange {
    /// A new event type.
    pub(crate) kind: Option<WebhookType>,
    /// A new address (already checked).
    pub(crate) url: Option<String>,
    /// A new secret, or `Some(None)` to stop signing.
    pub(crate) secret: Option<Option<String>>,
    /// Pause or resume.
    pub(crate) status: Option<WebhookStatus>,
}

/// One delivery attempt in a webhook's request log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DeliveryRecord {
    /// The attempt's id (to resend its event).
    pub(crate) id: i64,
    /// Its event's state now: `pending`, `delivered` or `failed`.
    pub(crate) state: Option<String>,
    /// The event's delivery id (`X-Service-Delivery`), shared by its retries.
    pub(crate) delivery_id: String,
    /// The event type.
    pub(crate) event: String,
    /// The JSON body posted.
    pub(crate) body: String,
    /// 1 for the first attempt, then one more per retry.
    pub(crate) attempt: i64,
    /// HTTP code of the answer, if one came.
    pub(crate) http_code: Option<i64>,
    /// Milliseconds until the answer or the failure.
    pub(crate) latency_ms: Option<i64>,
    /// Why it failed, if it did.
    pub(crate) error: Option<String>,
    /// When the attempt was made.
    pub(crate) at: DateTime<Utc>,
}

/// An account's webhooks. Every method is scoped to the account: another account's webhook
/// is reported as not found, exactly like one that does not exist.
#[async_trait]
pub(crate) trait WebhookStore: Send + Sync {
    /// Creates a webhook, `live` and never delivered.
    async fn create_webhook(&self, account: AccountId, new: NewWebhook<'_>) -> Result<WebhookRecord, Error>;
    /// The account's webhooks, oldest first, and how many there are.
    async fn webhooks(&self, account: AccountId, page: Page) -> Result<(Vec<WebhookRecord>, i64), Error>;
    /// Applies `change` and returns the webhook after it; `NotFound` when there is none.
    async fn update_webhook(&self, account: AccountId, id: i64, change: WebhookChange) -> Result<WebhookRecord, Error>;
    /// Deletes the webhook and its request log; `NotFound` when there is none.
    async fn delete_webhook(&self, account: AccountId, id: i64) -> Result<(), Error>;
    /// The webhook's request log, newest first, and how many attempts it holds; `NotFound`
    /// when there is no such webhook.
    async fn webhook_log(&self, account: AccountId, id: i64, page: Page) -> Result<(Vec<DeliveryRecord>, i64), Error>;
}

/// A row of [`WEBHOOK_FIELDS`].
pub(super) fn read_webhook<R: Columns>(row: &R) -> Result<WebhookRecord, R::Fault> {
    Ok(WebhookRecord {
        id: row.column(0)?,
        kind: row.column(1)?,
        url: row.column(2)?,
        secret: row.column(3)?,
        status: row.column(4)?,
        last_http_code: row.column(5)?,
    })
}

/// One [`DeliveryRecord`], read from a row.
pub(super) fn read_delivery<R: Columns>(row: &R) -> Result<DeliveryRecord, R::Fault> {
    Ok(DeliveryRecord {
        delivery_id: row.column(0)?,
        event: row.column(1)?,
        body: row.column(2)?,
        attempt: row.column(3)?,
        http_code: row.column(4)?,
        latency_ms: row.column(5)?,
        error: row.column(6)?,
        at: row.time(7)?,
        id: row.column(8)?,
        state: row.column(9)?,
    })
}
