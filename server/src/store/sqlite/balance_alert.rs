//! BALANCE_ALERT (REFERENCE §7): raised once each time a debit takes the balance from at or
//! above the account's `alert_trigger` to below it, with the email and SMS it asks for.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use texto_core::{Credits, format_paris, wire::BalanceAlertEvent};

use super::{events::Outbox, time};
use crate::{Error, store::AccountId};

/// Called in the debit's transaction with the balance before and after it.
pub(super) fn after_debit(db: &Connection, account: AccountId, before: Credits, after: Credits, now: DateTime<Utc>) -> Result<(), Error> {
    let settings = db
        .prepare_cached("SELECT alert_trigger, alert_email, alert_gsm, email, phone_number FROM balance_alerts WHERE account_id = ?")?
        .query_row([account], |row| {
            Ok((row.get::<_, i64>(0)?, row.get::<_, bool>(1)?, row.get::<_, bool>(2)?, row.get::<_, String>(3)?, row.get::<_, String>(4)?))
        })
        .optional()?;
    let Some((trigger, email_on, sms_on, email, phone)) = settings else { return Ok(()) };
    let threshold = Credits::from_hundredths(trigger.saturating_mul(100));
    if !(before >= threshold && after < threshold) {
        return Ok(());
    }
    tracing::info!(account, balance = %after, trigger, "balance alert");
    let event = BalanceAlertEvent { balance: after.to_string(), trigger: trigger.to_string(), date: format_paris(now) };
    Outbox::new(now).raise(db, account, "BALANCE_ALERT", &event)?;
    let body = format!("texto: your balance is {after} credits, below your alert threshold of {trigger} credits.");
    let mut notice = db.prepare_cached("INSERT INTO alert_notices (account_id, channel, target, body, created_at) VALUES (?, ?, ?, ?, ?)")?;
    if email_on && !email.trim().is_empty() {
        notice.execute(params![account, "email", email.trim(), body, time::store(now)])?;
    }
    if sms_on && !phone.trim().is_empty() {
        notice.execute(params![account, "sms", phone.trim(), body, time::store(now)])?;
    }
    Ok(())
}
