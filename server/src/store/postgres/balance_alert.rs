//! BALANCE_ALERT (REFERENCE §7): raised once each time a debit takes the balance from at or
//! above the account's `alert_trigger` to below it, with the email and SMS it asks for.

use chrono::{DateTime, Utc};
use deadpool_postgres::GenericClient;
use texto_core::{Credits, format_paris, wire::BalanceAlertEvent};
use tokio_postgres::Row;

use super::{events::Outbox, time};
use crate::{Error, store::AccountId};

/// The accounts' alert settings, read by a batch of campaigns: rows of `(account_id,` then
/// the columns [`Alert::from_row`] reads`)`.
pub(super) const ALERTS_OF_ACCOUNTS: &str =
    "SELECT account_id, alert_trigger, alert_email, alert_gsm, email, phone_number FROM balance_alerts WHERE account_id = ANY($1)";

/// An account's balance alert.
pub(super) struct Alert {
    /// The trigger, in whole credits.
    trigger: i64,
    /// Whether an email is asked for.
    email_on: bool,
    /// Whether an SMS is asked for.
    sms_on: bool,
    /// Where the email goes.
    email: String,
    /// Where the SMS goes.
    phone: String,
}

impl Alert {
    /// A row of [`ALERTS_OF_ACCOUNTS`].
    pub(super) fn from_row(row: &Row) -> Alert {
        Alert { trigger: row.get(1), email_on: row.get(2), sms_on: row.get(3), email: row.get(4), phone: row.get(5) }
    }

    /// Whether a debit from `before` to `after` crosses the trigger.
    pub(super) fn crossed(&self, before: Credits, after: Credits) -> bool {
        let threshold = Credits::from_hundredths(self.trigger.saturating_mul(100));
        before >= threshold && after < threshold
    }

    /// Raises the alert (its event and notices) in the debit's transaction, the debit having
    /// left `after`.
    pub(super) async fn raise(&self, tx: &impl GenericClient, account: AccountId, after: Credits, now: DateTime<Utc>) -> Result<(), Error> {
        let trigger = self.trigger;
        tracing::info!(account, balance = %after, trigger, "balance alert");
        let event = BalanceAlertEvent { balance: after.to_string(), trigger: trigger.to_string(), date: format_paris(now) };
        Outbox::new(now).raise(tx, account, "BALANCE_ALERT", &event).await?;
        let body = format!("texto: your balance is {after} credits, below your alert threshold of {trigger} credits.");
        let notice = tx.prepare_cached("INSERT INTO alert_notices (account_id, channel, target, body, created_at) VALUES ($1, $2, $3, $4, $5)").await?;
        let at = time::store(now);
        if self.email_on && !self.email.trim().is_empty() {
            tx.execute(&notice, &[&account, &"email", &self.email.trim(), &body, &at]).await?;
        }
        if self.sms_on && !self.phone.trim().is_empty() {
            tx.execute(&notice, &[&account, &"sms", &self.phone.trim(), &body, &at]).await?;
        }
        Ok(())
    }
}
