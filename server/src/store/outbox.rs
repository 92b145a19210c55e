//! The outbox seen by the webhook sender: the live webhooks with events due, each one's next
//! events in order, and each attempt's result stored before the next attempt goes.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{AccountId, columns::Columns};
use crate::Error;

/// The columns an event to post is read from (`o`: the outbox, `w`: its webhook), in the order
/// both stores read them.
pub(crate) const EVENT_COLUMNS: &str =
    "o.id, o.webhook_id, w.url, w.secret, o.event, o.body, o.delivery_id, o.attempts, o.created_at";

/// An event to post.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DueEvent {
    /// The outbox row.
    pub(crate) id: i64,
    /// Its webhook.
    pub(crate) webhook_id: i64,
    /// Where to post.
    pub(crate) url: String,
    /// The webhook's secret, if it has one.
    pub(crate) secret: Option<String>,
    /// `DLR`, `MO`, …
    pub(crate) event: String,
    /// The JSON body.
    pub(crate) body: String,
    /// `X-Service-Delivery`, the same for every attempt.
    pub(crate) delivery_id: String,
    /// Attempts made so far.
    pub(crate) attempts: i64,
    /// When the event was raised.
    pub(crate) created_at: DateTime<Utc>,
}

/// What an attempt got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AttemptResult {
    /// The HTTP code, if an answer came.
    pub(crate) http_code: Option<i64>,
    /// Milliseconds until the answer or the failure.
    pub(crate) latency_ms: i64,
    /// Why it failed, if it did.
    pub(crate) error: Option<String>,
}

/// What becomes of the event after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NextStep {
    /// A 2xx: done.
    Delivered,
    /// Try again at this time.
    RetryAt(DateTime<Utc>),
    /// Given up.
    Failed,
    /// A resend: the event keeps its state (a resend that succeeds delivers it).
    Unchanged,
}

/// An attempt to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Attempt {
    /// The event posted.
    pub(crate) event: DueEvent,
    /// What the attempt got.
    pub(crate) result: AttemptResult,
    /// What becomes of the event.
    pub(crate) next: NextStep,
    /// When the attempt ended.
    pub(crate) at: DateTime<Utc>,
}

impl NextStep {
    /// How the outbox row keeps this step: its new state (`None`: unchanged), its next attempt
    /// time (`''`: none) and whether its schedule stays as it was.
    pub(crate) fn stored(self) -> (Option<&'static str>, String, bool) {
        match self {
            NextStep::Delivered => (Some("delivered"), String::new(), false),
            NextStep::Failed => (Some("failed"), String::new(), false),
            NextStep::RetryAt(when) => (None, super::time::store(when), false),
            NextStep::Unchanged => (None, String::new(), true),
        }
    }
}

/// Storage for the webhook sender.
#[async_trait]
pub(crate) trait OutboxStore: Send + Sync {
    /// Live webhooks whose oldest pending event is due, but those in `active`; the one with the
    /// oldest such event first, at most `limit`.
    async fn due_webhooks(&self, now: DateTime<Utc>, active: Vec<i64>, limit: usize) -> Result<Vec<i64>, Error>;
    /// The webhook's oldest pending events, in order, while they are due; none unless it is
    /// live; at most `limit`.
    async fn next_events(&self, webhook_id: i64, now: DateTime<Utc>, limit: usize) -> Result<Vec<DueEvent>, Error>;
    /// Logs each attempt in order (the log's order is theirs), moves its event on, and sets its
    /// webhook's `last_http_code`, all in one transaction. Returns whether the webhook is still
    /// there and live after them; an attempt whose event is gone (its webhook was deleted
    /// meanwhile, or another node's lane ended it) is not logged.
    async fn record_attempts(&self, attempts: Vec<Attempt>) -> Result<bool, Error>;
    /// The event of a logged attempt of the account's webhook, to send again; `None` when
    /// there is no such attempt.
    async fn event_of_attempt(
        &self,
        account: AccountId,
        webhook_id: i64,
        attempt_id: i64,
    ) -> Result<Option<DueEvent>, Error>;
    /// Deletes the oldest request-log rows and finished events (delivered or given up) made
    /// before `before`, at most `limit` of each; how many rows went. Pending events stay,
    /// whatever their age.
    async fn prune(&self, before: DateTime<Utc>, limit: usize) -> Result<u64, Error>;
}

/// The oldest rows of a pruned table, by id (each with when it was made), to read with the
/// limit as the only parameter: the request log, and the finished events.
pub(crate) const OLDEST: [&str; 2] = [
    "SELECT id, created_at FROM webhook_deliveries ORDER BY id LIMIT {limit}",
    "SELECT id, created_at FROM outbox WHERE state <> 'pending' ORDER BY id LIMIT {limit}",
];

/// What deletes the rows of [`OLDEST`] up to an id (the only parameter), table by table.
pub(crate) const DELETE_UP_TO: [&str; 2] = [
    "DELETE FROM webhook_deliveries WHERE id <= {last}",
    "DELETE FROM outbox WHERE id <= {last} AND state <> 'pending'",
];

/// Of the oldest rows (`(id, created_at)` in id order), the last id of those made before
/// `before` (stored time) with none newer before them: rows go in id order, so a scan of the
/// oldest never walks a large table to find nothing.
pub(crate) fn last_to_prune(rows: impl IntoIterator<Item = (i64, String)>, before: &str) -> Option<i64> {
    rows.into_iter().take_while(|(_, made)| made.as_str() < before).last().map(|(id, _)| id)
}

pub(super) fn read_due_event<R: Columns>(row: &R) -> Result<DueEvent, R::Fault> {
    Ok(DueEvent {
        id: row.column(0)?,
        webhook_id: row.column(1)?,
        url: row.column(2)?,
        secret: row.column::<Option<String>>(3)?.filter(|s| !s.is_empty()),
        event: row.column(4)?,
        body: row.column(5)?,
        delivery_id: row.column(6)?,
        attempts: row.column(7)?,
        created_at: row.time(8)?,
    })
}
