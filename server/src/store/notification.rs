//! The balance alert settings of an account (`/notification/balance`).

use async_trait::async_trait;

use super::AccountId;
use crate::Error;

/// When and how an account is told that its balance is low (REFERENCE §7, BALANCE_ALERT).
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

/// Balance alert settings, one per account.
#[async_trait]
pub(crate) trait NotificationStore: Send + Sync {
    /// The account's settings; `None` before it saved any.
    async fn balance_alert(&self, account: AccountId) -> Result<Option<BalanceAlert>, Error>;
    /// Replaces the account's settings.
    async fn set_balance_alert(&self, account: AccountId, alert: &BalanceAlert) -> Result<(), Error>;
}
