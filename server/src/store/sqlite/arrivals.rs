//! What comes back, in SQLite: final receipts, replies and clicks, each stored with the
//! effects [`effects`] gives them (NPAI, blacklist, events).

use std::{collections::HashMap, sync::LazyLock};

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use texto_core::DeliveryCode;

use super::{
    events::{Outbox, SqliteEvents},
    keyword_replies, numbered, time,
};
use crate::{
    Error,
    store::{
        Arrival,
        delivery::read_finished,
        effects::{self, Effects, Finished, Listing},
        replies_kept::{self, Incoming},
    },
};

/// Stores receipts and replies.
pub(super) fn store(
    db: &Connection,
    arrivals: &[Arrival],
    outbox: &mut Outbox,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    for arrival in arrivals {
        match arrival {
            Arrival::Receipt { smsc_id, code } => receipt(db, smsc_id, *code, outbox)?,
            Arrival::Reply { from, to, text } => reply(db, Incoming { from, to, text }, outbox, now)?,
        }
    }
    Ok(())
}

/// The columns [`read_finished`] reads before the code, which follows (the one about to be
/// stored by [`finish`]). Read first, then updated by id: a `RETURNING` clause would cost SQLite
/// a temporary b-tree per message, and this writer is the only one.
pub(super) const FINISHED_COLUMNS: &str = "campaign_id, account_id, number, country, gsmsmsid, info";

/// Stores message `id`'s final `code`, with the time it became final.
pub(super) fn finish(db: &Connection, id: i64, code: DeliveryCode) -> Result<(), Error> {
    db.prepare_cached(
        "UPDATE messages SET delivery = ?, delivered_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
    )?
    .execute(params![code.code(), id])?;
    Ok(())
}

/// A final receipt: the message's code, or kept aside until its submit's id is stored.
fn receipt(db: &Connection, smsc_id: &str, code: DeliveryCode, outbox: &mut Outbox) -> Result<(), Error> {
    let matched = db
        .prepare_cached(&format!(
            "SELECT id, {FINISHED_COLUMNS}, ?1 FROM messages WHERE smsc_id = ?2 AND delivery IN (0, 1)"
        ))?
        .query_row(params![code.code(), smsc_id], |row| Ok((row.get::<_, i64>(0)?, read_finished(row, 1)?)))
        .optional()?;
    if let Some((id, finished)) = matched {
        finish(db, id, code)?;
        return after_final(db, &finished, outbox);
    }
    let known: bool = db
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM messages WHERE smsc_id = ?)")?
        .query_row([smsc_id], |row| row.get(0))?;
    if !known {
        db.prepare_cached(
            "INSERT OR REPLACE INTO receipts_unmatched (smsc_id, delivery, received_at) VALUES (?, ?, ?)",
        )?
        .execute(params![smsc_id, code.code(), outbox.at()])?;
    }
    Ok(())
}

/// A message's final code is stored: writes what follows ([`effects::of_finished`]).
pub(super) fn after_final(db: &Connection, finished: &Finished, outbox: &mut Outbox) -> Result<(), Error> {
    if finished.code == DeliveryCode::Delivered {
        outbox.delivered(finished);
    }
    let effects = effects::of_finished(std::slice::from_ref(finished), outbox.now());
    write(db, &effects, outbox)
}

/// The owner of one number's replies, numbered for SQLite once.
static OWNER: LazyLock<String> = LazyLock::new(|| numbered(&replies_kept::owners_query("= $1")));

/// A reply: kept for the account that last sent to the number ([`replies_kept`]), with what
/// follows ([`effects::of_replies`]). A reply nobody sent to (in 30 days) is logged and dropped.
fn reply(db: &Connection, incoming: Incoming<'_>, outbox: &mut Outbox, now: DateTime<Utc>) -> Result<(), Error> {
    let incoming = [incoming];
    let since = time::store(effects::replies_owned_since(now));
    let mut owners = HashMap::new();
    for number in replies_kept::numbers_of(&incoming) {
        let owner = db
            .prepare_cached(&OWNER)?
            .query_row(params![number, since], |row| replies_kept::read_owner(row))
            .optional()?;
        owners.extend(owner.map(|owner| (number, owner)));
    }
    let kept = replies_kept::kept(&incoming, &owners);
    let mut insert = db.prepare_cached(
        "INSERT INTO replies (account_id, number, text, message_id, stop, received_at, to_number, keyword) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )?;
    for (((reply, to), stop), keyword) in kept.replies.iter().zip(&kept.tos).zip(&kept.stops).zip(&kept.keywords) {
        insert.execute(params![
            reply.account,
            reply.number,
            reply.text,
            reply.last_message,
            stop,
            outbox.at(),
            to,
            keyword.as_ref().map(|(word, _)| word.as_str())
        ])?;
    }
    drop(insert);
    for (account, (replies, stops)) in replies_kept::day_counts(&kept) {
        outbox.count(account, |day| {
            day.replies += replies;
            day.stops += stops;
        });
    }
    write(db, &effects::of_replies(&kept.replies, now), outbox)?;
    for ((reply, to), keyword) in kept.replies.iter().zip(&kept.tos).zip(&kept.keywords) {
        if let Some((word, builtin)) = keyword {
            keyword_replies::act(db, reply, to, (word, *builtin), outbox.at(), now)?;
        }
    }
    Ok(())
}

/// Writes `effects`: the list additions, then the events in order.
fn write(db: &Connection, effects: &Effects, outbox: &mut Outbox) -> Result<(), Error> {
    for (table, source, listings) in [("npai", "receipt", &effects.npai), ("blacklist", "stop", &effects.blacklist)] {
        for Listing { account, number, info: [info1, info2, info3, info4], campaign } in listings {
            db.prepare_cached(&format!(
                "INSERT OR IGNORE INTO {table} (account_id, number, info1, info2, info3, info4, campaign_id, created_at, source)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            ))?
            .execute(params![account, number, info1, info2, info3, info4, campaign, outbox.at(), source])?;
        }
    }
    for event in &effects.events {
        outbox.raise(db, event.account, event.kind, &event.body)?;
    }
    Ok(())
}
