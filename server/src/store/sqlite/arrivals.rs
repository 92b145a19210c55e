//! What comes back, in SQLite: final receipts (NPAI on code 5, DLR), replies (MO, and for a
//! stop word the blacklist and STOP) and clicks (CLICKER), each with its events.

use chrono::{DateTime, Duration, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use texto_core::{
    is_stop_word,
    wire::{DlrEvent, ReplyEvent},
};

use super::{events::Outbox, time};
use crate::{
    Error,
    store::{
        Arrival, Click,
        event_bodies::{Clicked, info_of},
    },
};

/// How long after its last message a number's replies still belong to the account.
const REPLIES_WITHIN_DAYS: i64 = 30;

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
            Arrival::Reply { from, text } => reply(db, from, text, outbox, now)?,
        }
    }
    Ok(())
}

/// The columns [`after_final`] needs, as `RETURNING` or `SELECT` lists them.
pub(super) const FINAL_COLUMNS: &str = "campaign_id, account_id, number, country, gsmsmsid, info";

/// A message whose final code was just stored (read through [`FINAL_COLUMNS`]).
pub(super) struct Finished {
    campaign: i64,
    account: i64,
    number: i64,
    country: String,
    gsmsmsid: Option<String>,
    info: Option<String>,
}

impl Finished {
    /// Reads a row of [`FINAL_COLUMNS`].
    pub(super) fn read(row: &rusqlite::Row<'_>) -> rusqlite::Result<Finished> {
        Ok(Finished {
            campaign: row.get(0)?,
            account: row.get(1)?,
            number: row.get(2)?,
            country: row.get(3)?,
            gsmsmsid: row.get(4)?,
            info: row.get(5)?,
        })
    }
}

/// A final receipt: the message's code, or kept aside until its submit's id is stored.
fn receipt(db: &Connection, smsc_id: &str, code: i64, outbox: &mut Outbox) -> Result<(), Error> {
    let matched = db
        .prepare_cached(&format!(
            "UPDATE messages SET delivery = ? WHERE smsc_id = ? AND delivery IN (0, 1) RETURNING {FINAL_COLUMNS}"
        ))?
        .query_row(params![code, smsc_id], Finished::read)
        .optional()?;
    if let Some(finished) = matched {
        return after_final(db, &finished, code, outbox);
    }
    let known: bool = db
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM messages WHERE smsc_id = ?)")?
        .query_row([smsc_id], |row| row.get(0))?;
    if !known {
        db.prepare_cached(
            "INSERT OR REPLACE INTO receipts_unmatched (smsc_id, delivery, received_at) VALUES (?, ?, ?)",
        )?
        .execute(params![smsc_id, code, outbox.at()])?;
    }
    Ok(())
}

/// A message's final code is stored: an unknown subscriber joins the NPAI list, and DLR goes
/// out.
pub(super) fn after_final(db: &Connection, finished: &Finished, code: i64, outbox: &mut Outbox) -> Result<(), Error> {
    let Finished { campaign, account, number, country, gsmsmsid, info } = finished;
    let (campaign, account, number) = (*campaign, *account, *number);
    if code == 5 {
        let [info1, info2, info3, info4] = info_of(info.as_deref());
        db.prepare_cached(
            "INSERT OR IGNORE INTO npai (account_id, number, info1, info2, info3, info4, campaign_id, created_at, source)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'receipt')",
        )?
        .execute(params![account, number, info1, info2, info3, info4, campaign, outbox.at()])?;
    }
    let event = DlrEvent {
        date: outbox.now().to_rfc3339(),
        status: code,
        destination: number.to_string(),
        message_id: gsmsmsid.clone(),
        campaign_id: campaign.to_string(),
        country_code: country.clone(),
    };
    outbox.raise(db, account, "DLR", &event)
}

/// A reply: MO for the account that last sent to the number, and for a stop word the
/// blacklist and STOP. A reply nobody sent to (in 30 days) is logged and dropped.
fn reply(db: &Connection, from: &str, text: &str, outbox: &mut Outbox, now: DateTime<Utc>) -> Result<(), Error> {
    let Ok(number) = from.trim_start_matches('+').parse::<i64>() else {
        tracing::info!(from, "a reply from an address that is not a number: dropped");
        return Ok(());
    };
    let since = time::store(now - Duration::days(REPLIES_WITHIN_DAYS));
    let owner: Option<(i64, i64)> = db
        .prepare_cached("SELECT account_id, message_id FROM last_sent WHERE number = ? AND sent_at >= ?")?
        .query_row(params![number, since], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    let Some((account, last_message)) = owner else {
        tracing::info!(from, "a reply to no message sent in the last 30 days: dropped");
        return Ok(());
    };
    let stop = is_stop_word(text);
    db.prepare_cached(
        "INSERT INTO replies (account_id, number, text, message_id, stop, received_at) VALUES (?, ?, ?, ?, ?, ?)",
    )?
    .execute(params![account, number, text, last_message, stop, outbox.at()])?;
    let event = ReplyEvent {
        date: now.to_rfc3339(),
        message: text.to_owned(),
        from: number.to_string(),
        account_id: account.to_string(),
        last_message_id: Some(last_message.to_string()),
    };
    outbox.raise(db, account, "MO", &event)?;
    if stop {
        let (campaign, info): (i64, Option<String>) = db
            .prepare_cached("SELECT campaign_id, info FROM messages WHERE id = ?")?
            .query_row([last_message], |row| Ok((row.get(0)?, row.get(1)?)))?;
        let [info1, info2, info3, info4] = info_of(info.as_deref());
        db.prepare_cached(
            "INSERT OR IGNORE INTO blacklist (account_id, number, info1, info2, info3, info4, campaign_id, created_at, source)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'stop')",
        )?
        .execute(params![account, number, info1, info2, info3, info4, campaign, outbox.at()])?;
        outbox.raise(db, account, "STOP", &event)?;
    }
    Ok(())
}

/// Counts a click and raises CLICKER; the long URL, or `None` when the code names no link
/// of a message handed over.
pub(super) fn click(db: &Connection, click: &Click, now: DateTime<Utc>) -> Result<Option<String>, Error> {
    let mut outbox = Outbox::new(now);
    let row = db
        .prepare_cached(
            "SELECT m.campaign_id, m.account_id, m.gsmsmsid, m.info, c.links FROM messages m JOIN campaigns c ON c.id = m.campaign_id
             WHERE m.id = ? AND m.delivery <> 0",
        )?
        .query_row([click.message_id], |row| {
            Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?, row.get::<_, Option<String>>(2)?, row.get::<_, Option<String>>(3)?, row.get::<_, String>(4)?))
        })
        .optional()?;
    let Some((campaign, account, gsmsmsid, info, links)) = row else { return Ok(None) };
    let links: Vec<String> = serde_json::from_str(&links).unwrap_or_default();
    let Some(long_url) = links.get(click.link).cloned() else { return Ok(None) };
    let [brand, model, os] = &click.device;
    db.prepare_cached(
        "INSERT INTO clicks (campaign_id, message_id, link, brand, model, os, clicked_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )?
    .execute(params![campaign, click.message_id, click.link as i64, brand, model, os, outbox.at()])?;
    let clicks: i64 = db
        .prepare_cached("SELECT COUNT(*) FROM clicks WHERE campaign_id = ? AND message_id = ? AND link = ?")?
        .query_row(params![campaign, click.message_id, click.link as i64], |row| row.get(0))?;
    let event = Clicked { campaign, gsmsmsid, info: info.as_deref(), long_url: &long_url, click, clicks }.event(now);
    outbox.raise(db, account, "CLICKER", &event)?;
    Ok(Some(long_url))
}
