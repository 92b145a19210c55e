//! BALANCE_ALERT (REFERENCE §7): raised once each time a debit takes the balance from at or
//! above the account's `alert_trigger` to below it, with the email and SMS it asks for.

use chrono::{DateTime, Utc};
use deadpool_postgres::Transaction;
use texto_core::{Credits, format_paris, wire::BalanceAlertEvent};

use super::{events::Outbox, time};
use crate::{Error, store::AccountId};

/// Called in the debit's transaction with the balance before and after it.
pub(super) async fn after_debit(tx: &Transaction<'_>, account: AccountId, before: Credits, after: Credits, now: DateTime<Utc>) -> Result<(), Error> {
    let query = tx.prepare_cached("SELECT alert_trigger, alert_email, alert_gsm, email, phone_number FROM balance_alerts WHERE account_id = $1").await?;
    let Some(row) = tx.query_opt(&query, &[&account]).await? else { return Ok(()) };
    let (trigger, email_on, sms_on, email, phone): (i64, bool, bool, String, String) = (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4));
    let threshold = Credits::from_hundredths(trigger.saturating_mul(100));
    if !(before >= threshold && after < threshold) {
        return Ok(());
    }
    tracing::info!(account, balance = %after, trigger, "balance alert");
    let event = BalanceAlertEvent { balance: after.to_string(), trigger: trigger.to_string(), date: format_paris(now) };
    Outbox::new(now).raise(tx, account, "BALANCE_ALERT", &event).await?;
    let body = format!("texto: your balance is {after} credits, below your alert threshold of {trigger} credits.");
    let notice = tx.prepare_cached("INSERT INTO alert_notices (account_id, channel, target, body, created_at) VALUES ($1, $2, $3, $4, $5)").await?;
    let at = time::store(now);
    if email_on && !email.trim().is_empty() {
        tx.execute(&notice, &[&account, &"email", &email.trim(), &body, &at]).await?;
    }
    if sms_on && !phone.trim().is_empty() {
        tx.execute(&notice, &[&account, &"sms", &phone.trim(), &body, &at]).await?;
    }
    Ok(())
}
