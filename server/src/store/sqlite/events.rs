//! The outbox: each event written, in the transaction of the change that raised it, once per
//! webhook (live or paused) of its type that the account has.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use rusqlite::{Connection, params};
use serde::Serialize;

use super::{numbered, time};
use crate::{
    Error,
    store::{
        AccountId, WebhookType,
        daily::{ADD_TO_DAY, DayCounts, Tally},
    },
};

/// Writes events for one write job: knows the time once, and which accounts listen to what.
pub(super) struct Outbox {
    now: DateTime<Utc>,
    at: String,
    listening: HashMap<(AccountId, WebhookType), bool>,
    /// What the transaction adds to the daily counts, written by [`Outbox::write_counts`].
    tally: Tally,
}

impl Outbox {
    /// An outbox for events raised at `now`.
    pub(super) fn new(now: DateTime<Utc>) -> Outbox {
        Outbox { now, at: time::store(now), listening: HashMap::new(), tally: Tally::default() }
    }

    /// The time the events are raised.
    pub(super) fn now(&self) -> DateTime<Utc> {
        self.now
    }

    /// The stored form of the time the events are raised.
    pub(super) fn at(&self) -> &str {
        &self.at
    }

    /// Adds to `account`'s counts of the day (Paris) of the events.
    pub(super) fn count(&mut self, account: AccountId, change: impl FnOnce(&mut DayCounts)) {
        self.tally.add(account, self.now, change);
    }

    /// Writes the counts added, at the end of the transaction that stored what they count.
    pub(super) fn write_counts(&mut self, db: &Connection) -> Result<(), Error> {
        for ((account, day), c) in self.tally.take() {
            db.prepare_cached(&numbered(ADD_TO_DAY))?.execute(params![
                account,
                day,
                c.sent,
                c.delivered,
                c.clicks,
                c.replies,
                c.stops,
                c.cost
            ])?;
        }
        Ok(())
    }

    /// Writes `body` to the outbox of every webhook of `account` listening to `kind`.
    pub(super) fn raise(
        &mut self,
        db: &Connection,
        account: AccountId,
        kind: WebhookType,
        body: &impl Serialize,
    ) -> Result<(), Error> {
        let event = kind.as_str();
        let listening = match self.listening.get(&(account, kind)) {
            Some(listening) => *listening,
            None => {
                let listening = db
                    .prepare_cached("SELECT EXISTS (SELECT 1 FROM webhooks WHERE account_id = ? AND type = ?)")?
                    .query_row(params![account, event], |row| row.get::<_, bool>(0))?;
                self.listening.insert((account, kind), listening);
                listening
            }
        };
        if !listening {
            return Ok(());
        }
        let body = serde_json::to_string(body).map_err(|_| Error::Unavailable("an event body could not be written"))?;
        db.prepare_cached(
            "INSERT INTO outbox (webhook_id, event, body, created_at)
             SELECT id, ?, ?, ? FROM webhooks WHERE account_id = ? AND type = ? ORDER BY id",
        )?
        .execute(params![event, body, self.at, account, event])?;
        Ok(())
    }
}
