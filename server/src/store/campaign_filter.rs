//! Which of an account's campaigns `GET /campaigns` lists: the filter, and the one place that
//! turns it into SQL for both stores.

use chrono::{DateTime, Utc};

use super::{
    AccountId, Page,
    conditions::{Conditions, SqlValue, contains_pattern},
    time,
};

/// The order of a listing by time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum SortOrder {
    /// Oldest first (`sort=asc`).
    Asc,
    /// Newest first (`sort=desc`, the default).
    #[default]
    Desc,
}

impl SortOrder {
    /// `ASC` or `DESC`.
    pub(crate) fn sql(self) -> &'static str {
        match self {
            SortOrder::Asc => "ASC",
            SortOrder::Desc => "DESC",
        }
    }
}

/// The campaigns asked for; `None` fields do not narrow.
#[derive(Debug, Clone, Default)]
pub(crate) struct CampaignFilter {
    /// The window of the answer.
    pub(crate) page: Page,
    /// Sent (or to be sent) at or after this time.
    pub(crate) sent_from: Option<DateTime<Utc>>,
    /// Sent (or to be sent) at or before this time.
    pub(crate) sent_until: Option<DateTime<Utc>>,
    /// At least this many recipients.
    pub(crate) recipients_min: Option<i64>,
    /// At most this many recipients.
    pub(crate) recipients_max: Option<i64>,
    /// Sent to this number.
    pub(crate) destination: Option<u64>,
    /// With this text in its message, whatever the case.
    pub(crate) text: Option<String>,
    /// Newest or oldest first.
    pub(crate) order: SortOrder,
    /// Only the campaigns that await approval (texto's `approval=awaiting`).
    pub(crate) awaiting_approval: bool,
}

impl CampaignFilter {
    /// The conditions on `campaigns` (with its columns unqualified) for the account's
    /// campaigns this filter keeps.
    pub(crate) fn conditions(&self, account: AccountId) -> Conditions {
        let mut conditions = Conditions::default();
        conditions.require("account_id = ?", [SqlValue::Int(account)]);
        if let Some(from) = self.sent_from {
            conditions.require("send_at >= ?", [SqlValue::Text(time::store(from))]);
        }
        if let Some(until) = self.sent_until {
            conditions.require("send_at <= ?", [SqlValue::Text(time::store(until))]);
        }
        if let Some(min) = self.recipients_min {
            conditions.require("total >= ?", [SqlValue::Int(min)]);
        }
        if let Some(max) = self.recipients_max {
            conditions.require("total <= ?", [SqlValue::Int(max)]);
        }
        if let Some(number) = self.destination {
            conditions.require(
                "id IN (SELECT campaign_id FROM messages WHERE account_id = ? AND number = ?)",
                [SqlValue::Int(account), SqlValue::Int(number as i64)],
            );
        }
        if let Some(text) = self.text.as_deref().filter(|text| !text.is_empty()) {
            conditions.require("lower(text) LIKE ? ESCAPE '\\'", [contains_pattern(text)]);
        }
        if self.awaiting_approval {
            conditions.require("approval = 'awaiting'", []);
        }
        conditions
    }
}
