//! The outbox: each event written, in the transaction of the change that raised it, once per
//! webhook (live or paused) of its type that the account has.

use rusqlite::{Connection, params};
use serde::Serialize;

use super::numbered;
use crate::{
    Error,
    store::{
        AccountId, WebhookType,
        daily::ADD_TO_DAY,
        report::{ADD_TO_HOUR, DELIVERED_IN_COUNTRY},
    },
};

pub(super) use crate::store::event_batch::Outbox;

/// SQLite's statements for an [`Outbox`]'s events and counts.
pub(super) trait SqliteEvents {
    /// Writes the counts added, at the end of the transaction that stored what they count.
    fn write_counts(&mut self, db: &Connection) -> Result<(), Error>;
    /// Writes `body` to the outbox of every webhook of `account` listening to `kind`.
    fn raise(
        &mut self,
        db: &Connection,
        account: AccountId,
        kind: WebhookType,
        body: &impl Serialize,
    ) -> Result<(), Error>;
}

impl SqliteEvents for Outbox {
    fn write_counts(&mut self, db: &Connection) -> Result<(), Error> {
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
        let (countries, hours) = self.report.take();
        for (campaign, country, delivered) in countries {
            db.prepare_cached(&numbered(DELIVERED_IN_COUNTRY))?.execute(params![campaign, country, delivered])?;
        }
        for (campaign, hour, delivered) in hours {
            db.prepare_cached(&numbered(ADD_TO_HOUR))?.execute(params![campaign, hour, delivered])?;
        }
        Ok(())
    }

    fn raise(
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
        .execute(params![event, body, self.at(), account, event])?;
        Ok(())
    }
}
