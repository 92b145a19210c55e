//! The balance alert settings of an account (`/notification/balance`).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::{Credits, format_paris, wire::BalanceAlertEvent};

use super::{AccountId, columns::Columns};
use crate::Error;

/// When and how an account is told that its balance is low (docs/interface.md §7.4, BALANCE_ALERT).
/// The default is what an account has before it saves any: trigger 0, nothing enabled.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct BalanceAlert {
    /// The balance, in whole credits, below which the alert fires.
    pub(crate) trigger: i64,
    /// Send an email to [`BalanceAlert::email`].
    pub(crate) email_enabled: bool,
    /// Send an SMS to [`BalanceAlert::phone_number`].
    pub(crate) gsm_enabled: bool,
    /// The email address (empty when none).
    pub(crate) email: String,
    /// The number, international digits (empty when none).
    pub(crate) phone_number: String,
}

impl BalanceAlert {
    /// Whether a debit from `before` to `after` takes the balance from at or above the
    /// trigger to below it (docs/interface.md §7.4: the alert fires once per crossing).
    pub(crate) fn crossed(&self, before: Credits, after: Credits) -> bool {
        let threshold = Credits::from_hundredths(self.trigger.saturating_mul(100));
        before >= threshold && after < threshold
    }

    /// The BALANCE_ALERT body for a balance left at `after` at `now`.
    pub(crate) fn event(&self, after: Credits, now: DateTime<Utc>) -> BalanceAlertEvent {
        BalanceAlertEvent { balance: after.to_string(), trigger: self.trigger.to_string(), date: format_paris(now) }
    }

    /// The email and SMS asked for, as (channel, address or number), and their text.
    pub(crate) fn notices(&self, after: Credits) -> (Vec<(&'static str, &str)>, String) {
        let mut targets = Vec::new();
        if self.email_enabled && !self.email.trim().is_empty() {
            targets.push(("email", self.email.trim()));
        }
        if self.gsm_enabled && !self.phone_number.trim().is_empty() {
            targets.push(("sms", self.phone_number.trim()));
        }
        let text =
            format!("texto: your balance is {after} credits, below your alert threshold of {} credits.", self.trigger);
        (targets, text)
    }
}

/// Balance alert settings, one per account.
#[async_trait]
pub(crate) trait NotificationStore: Send + Sync {
    /// The account's settings; `None` before it saved any.
    async fn balance_alert(&self, account: AccountId) -> Result<Option<BalanceAlert>, Error>;
    /// Replaces the account's settings.
    async fn set_balance_alert(&self, account: AccountId, alert: &BalanceAlert) -> Result<(), Error>;
}

/// An account's alert settings from column `at` on: the trigger, whether email and SMS are
/// on, the email and the phone number.
pub(super) fn read_alert<R: Columns>(row: &R, at: usize) -> Result<BalanceAlert, R::Fault> {
    Ok(BalanceAlert {
        trigger: row.column(at)?,
        email_enabled: row.column(at + 1)?,
        gsm_enabled: row.column(at + 2)?,
        email: row.column(at + 3)?,
        phone_number: row.column(at + 4)?,
    })
}
