//! The outbox: each event written, in the transaction of the change that raised it, once per
//! webhook (live or paused) of its type that the account has.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, params};
use serde::Serialize;

use super::time;
use crate::{Error, store::AccountId};

/// Writes `body` to the outbox of every webhook of `account` listening to `event`.
pub(super) fn raise(db: &Connection, account: AccountId, event: &str, body: &impl Serialize, now: DateTime<Utc>) -> Result<(), Error> {
    let mut listeners = db.prepare_cached("SELECT EXISTS (SELECT 1 FROM webhooks WHERE account_id = ? AND type = ?)")?;
    if !listeners.query_row(params![account, event], |row| row.get::<_, bool>(0))? {
        return Ok(());
    }
    let body = serde_json::to_string(body).map_err(|_| Error::Unavailable("an event body could not be written"))?;
    db.prepare_cached(
        "INSERT INTO outbox (webhook_id, event, body, created_at)
         SELECT id, ?, ?, ? FROM webhooks WHERE account_id = ? AND type = ? ORDER BY id",
    )?
    .execute(params![event, body, time::store(now), account, event])?;
    Ok(())
}
