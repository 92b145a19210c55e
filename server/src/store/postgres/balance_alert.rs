//! BALANCE_ALERT (docs/interface.md §7.4): raised once each time a debit takes the balance from at or
//! above the account's `alert_trigger` to below it, with the email and SMS it asks for.

use chrono::{DateTime, Utc};
use deadpool_postgres::GenericClient;
use texto_core::Credits;

use super::{
    events::{Outbox, PgEvents},
    time,
};
use crate::{
    Error,
    store::{AccountId, BalanceAlert, WebhookType},
};

/// The accounts' alert settings, read by a batch of campaigns: rows of `(account_id,` then
/// the columns [`read_alert`](crate::store::notification::read_alert) reads`)`.
pub(super) const ALERTS_OF_ACCOUNTS: &str = "SELECT account_id, alert_trigger, alert_email, alert_gsm, email, phone_number FROM balance_alerts WHERE account_id = ANY($1)";

/// Raises `alert` (its event and notices) in the debit's transaction, the debit having left
/// `after`.
pub(super) async fn raise(
    alert: &BalanceAlert,
    tx: &impl GenericClient,
    account: AccountId,
    after: Credits,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    tracing::info!(account, balance = %after, trigger = alert.trigger, "balance alert");
    Outbox::new(now).raise(tx, account, WebhookType::BalanceAlert, &alert.event(after, now)).await?;
    let (targets, text) = alert.notices(after);
    let notice = tx
        .prepare_cached(
            "INSERT INTO alert_notices (account_id, channel, target, body, created_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .await?;
    let at = time::store(now);
    for (channel, target) in targets {
        tx.execute(&notice, &[&account, &channel, &target, &text, &at]).await?;
    }
    Ok(())
}
