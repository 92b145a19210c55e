//! BALANCE_ALERT (docs/interface.md §7.4): raised once each time a debit takes the balance from at or
//! above the account's `alert_trigger` to below it, with the email and SMS it asks for.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, params};
use texto_core::Credits;

use super::{
    events::{Outbox, SqliteEvents},
    time,
};
use crate::{
    Error,
    store::{AccountId, WebhookType},
};

/// Called in the debit's transaction with the balance before and after it.
pub(super) fn after_debit(
    db: &Connection,
    account: AccountId,
    before: Credits,
    after: Credits,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    let settings = super::notification::settings(db, account)?;
    let Some(alert) = settings.filter(|alert| alert.crossed(before, after)) else { return Ok(()) };
    tracing::info!(account, balance = %after, trigger = alert.trigger, "balance alert");
    Outbox::new(now).raise(db, account, WebhookType::BalanceAlert, &alert.event(after, now))?;
    let (targets, text) = alert.notices(after);
    let mut notice = db.prepare_cached(
        "INSERT INTO alert_notices (account_id, channel, target, body, created_at) VALUES (?, ?, ?, ?, ?)",
    )?;
    for (channel, target) in targets {
        notice.execute(params![account, channel, target, text, time::store(now)])?;
    }
    Ok(())
}
