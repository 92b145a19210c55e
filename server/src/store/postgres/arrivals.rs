//! What comes back, in PostgreSQL: final receipts (NPAI on code 5, DLR), replies (MO, and for
//! a stop word the blacklist and STOP) and clicks (CLICKER), each with its events, a batch in
//! a few statements.
//!
//! A receipt may come before its submit's SMSC id is stored, then waits in
//! `receipts_unmatched`. With several transactions at once (the arrivals worker and the
//! dispatchers of every node), neither side may miss the other: an unmatched receipt is
//! written first and its message looked for again afterwards, and the hand-over writes a
//! marker row under the same key before looking for an early receipt (see
//! [`super::delivery`]). Whichever writes the key second waits for the first to commit, then
//! sees its work: the receipt is stored exactly once.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Duration, Utc};
use deadpool_postgres::Transaction;
use texto_core::{
    is_stop_word,
    wire::{DlrEvent, ReplyEvent},
};
use tokio_postgres::Row;

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

/// What a statement storing final codes returns, for [`Finished::read`], from the message `m`
/// and its input row `r` (with the columns `code` and `n`, the position of the outcome).
pub(super) const FINAL_COLUMNS: &str =
    "r.n, r.code, m.campaign_id, m.account_id, m.number, m.country, m.gsmsmsid, m.info";

/// A message whose final code was just stored (read through [`FINAL_COLUMNS`]).
pub(super) struct Finished {
    /// Where the outcome or receipt came in its batch: events go out in that order.
    position: i64,
    code: i64,
    campaign: i64,
    account: i64,
    number: i64,
    country: String,
    gsmsmsid: Option<String>,
    info: Option<String>,
}

impl Finished {
    /// Reads a row of [`FINAL_COLUMNS`].
    pub(super) fn read(row: &Row) -> Finished {
        Finished {
            position: row.get(0),
            code: row.get(1),
            campaign: row.get(2),
            account: row.get(3),
            number: row.get(4),
            country: row.get(5),
            gsmsmsid: row.get(6),
            info: row.get(7),
        }
    }
}

/// A receipt to store: the SMSC id, the code, and its position in the batch.
pub(super) type Receipt<'a> = (&'a str, i64, i64);

/// Stores receipts and replies. Receipts go in runs without a repeated SMSC id (a repeat sees
/// what the receipt before it did, as row by row), replies after them (they touch none of the
/// same rows); the events of each kind keep the order of the batch.
pub(super) async fn store(
    tx: &Transaction<'_>,
    arrivals: &[Arrival],
    outbox: &mut Outbox,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    let at = outbox.at().to_owned();
    let mut finished = Vec::new();
    let mut run: Vec<Receipt<'_>> = Vec::new();
    let mut in_run = HashSet::new();
    let mut replies = Vec::new();
    for (position, arrival) in arrivals.iter().enumerate() {
        match arrival {
            Arrival::Receipt { smsc_id, code } => {
                if !in_run.insert(smsc_id.as_str()) {
                    finished.extend(receipts(tx, &run, &at).await?);
                    run.clear();
                    in_run.clear();
                    in_run.insert(smsc_id.as_str());
                }
                run.push((smsc_id.as_str(), *code, position as i64));
            }
            Arrival::Reply { from, text } => replies.push((from.as_str(), text.as_str())),
        }
    }
    finished.extend(receipts(tx, &run, &at).await?);
    after_final(tx, finished, outbox).await?;
    store_replies(tx, &replies, outbox, now).await
}

/// Stores the codes of final receipts on their submitted messages (SMSC ids each once); the
/// messages finished (the others have no submit stored, or a final code already).
pub(super) async fn match_receipts(tx: &Transaction<'_>, receipts: &[Receipt<'_>]) -> Result<Vec<Finished>, Error> {
    if receipts.is_empty() {
        return Ok(Vec::new());
    }
    let (smsc_ids, codes, positions) = columns(receipts);
    let update = tx
        .prepare_cached(&format!(
            "UPDATE messages m SET delivery = r.code FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS r(smsc_id, code, n)
             WHERE m.smsc_id = r.smsc_id AND m.delivery IN (0, 1) RETURNING {FINAL_COLUMNS}"
        ))
        .await?;
    Ok(tx.query(&update, &[&smsc_ids, &codes, &positions]).await?.iter().map(Finished::read).collect())
}

/// A run of receipts with distinct SMSC ids: each stored on its message, or kept aside until
/// its submit's id is stored (unless its message already has a final code); the messages
/// finished.
async fn receipts(tx: &Transaction<'_>, run: &[Receipt<'_>], at: &str) -> Result<Vec<Finished>, Error> {
    let mut finished = match_receipts(tx, run).await?;
    let matched: HashSet<i64> = finished.iter().map(|f| f.position).collect();
    let mut misses: Vec<Receipt<'_>> =
        run.iter().filter(|(_, _, position)| !matched.contains(position)).copied().collect();
    if misses.is_empty() {
        return Ok(finished);
    }
    // In key order, as the hand-over writes its markers: two writers never wait on each other.
    misses.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let (smsc_ids, codes, _) = columns(&misses);
    let keep = tx
        .prepare_cached(
            "INSERT INTO receipts_unmatched (smsc_id, delivery, received_at)
             SELECT r.smsc_id, r.code, $3 FROM unnest($1::text[], $2::bigint[]) AS r(smsc_id, code)
             WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.smsc_id = r.smsc_id)
             ORDER BY r.smsc_id
             ON CONFLICT (smsc_id) DO UPDATE SET delivery = excluded.delivery, received_at = excluded.received_at",
        )
        .await?;
    tx.execute(&keep, &[&smsc_ids, &codes, &at]).await?;
    // A hand-over that stored one of these ids meanwhile has committed without seeing the
    // receipt: either writing the key waited for it, or (the keep's own snapshot being newer
    // than the first look) its message now shows and the key was not written. Look again at
    // every miss, then drop the keys whose message is known.
    finished.extend(match_receipts(tx, &misses).await?);
    let known = tx
        .prepare_cached(
            "DELETE FROM receipts_unmatched u WHERE u.smsc_id = ANY($1)
             AND EXISTS (SELECT 1 FROM messages m WHERE m.smsc_id = u.smsc_id)",
        )
        .await?;
    tx.execute(&known, &[&smsc_ids]).await?;
    Ok(finished)
}

/// The SMSC ids, codes and positions of `receipts`, as arrays to bind.
fn columns<'a>(receipts: &[Receipt<'a>]) -> (Vec<&'a str>, Vec<i64>, Vec<i64>) {
    let mut columns =
        (Vec::with_capacity(receipts.len()), Vec::with_capacity(receipts.len()), Vec::with_capacity(receipts.len()));
    for &(smsc_id, code, position) in receipts {
        columns.0.push(smsc_id);
        columns.1.push(code);
        columns.2.push(position);
    }
    columns
}

/// Messages' final codes are stored: unknown subscribers (code 5) join the NPAI list, and DLR
/// goes out for each, in the order of their positions.
pub(super) async fn after_final(
    tx: &Transaction<'_>,
    mut finished: Vec<Finished>,
    outbox: &mut Outbox,
) -> Result<(), Error> {
    if finished.is_empty() {
        return Ok(());
    }
    finished.sort_by_key(|f| f.position);
    let mut unknown = Listing::default();
    for f in finished.iter().filter(|f| f.code == 5) {
        unknown.push(f.account, f.number, info_of(f.info.as_deref()), Some(f.campaign));
    }
    unknown.insert(tx, "npai", "receipt", outbox.at()).await?;
    let date = outbox.now().to_rfc3339();
    let events = finished.iter().map(|f| {
        let event = DlrEvent {
            date: date.clone(),
            status: f.code,
            destination: f.number.to_string(),
            message_id: f.gsmsmsid.clone(),
            campaign_id: f.campaign.to_string(),
            country_code: f.country.clone(),
        };
        (f.account, event)
    });
    outbox.raise_each(tx, "DLR", events).await
}

/// Numbers to add to the NPAI list or the blacklist, column by column, in order.
#[derive(Default)]
struct Listing {
    accounts: Vec<i64>,
    numbers: Vec<i64>,
    info: [Vec<String>; 4],
    campaigns: Vec<Option<i64>>,
}

impl Listing {
    /// Adds a number with its contact fields and the campaign it came from.
    fn push(&mut self, account: i64, number: i64, info: [String; 4], campaign: Option<i64>) {
        self.accounts.push(account);
        self.numbers.push(number);
        for (column, field) in self.info.iter_mut().zip(info) {
            column.push(field);
        }
        self.campaigns.push(campaign);
    }

    /// Writes the numbers to `table` (`npai` or `blacklist`), each unless the account has it
    /// already.
    async fn insert(
        self,
        tx: &Transaction<'_>,
        table: &'static str,
        source: &'static str,
        at: &str,
    ) -> Result<(), Error> {
        if self.numbers.is_empty() {
            return Ok(());
        }
        let insert = tx
            .prepare_cached(&format!(
                "INSERT INTO {table} (account_id, number, info1, info2, info3, info4, campaign_id, created_at, source)
                 SELECT r.a, r.n, r.i1, r.i2, r.i3, r.i4, r.c, $8, $9
                 FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[]) AS r(a, n, i1, i2, i3, i4, c)
                 ON CONFLICT DO NOTHING"
            ))
            .await?;
        let [info1, info2, info3, info4] = &self.info;
        tx.execute(
            &insert,
            &[&self.accounts, &self.numbers, info1, info2, info3, info4, &self.campaigns, &at, &source],
        )
        .await?;
        Ok(())
    }
}

/// A reply kept: the account that last sent to the number owns it.
struct Reply<'a> {
    account: i64,
    number: i64,
    text: &'a str,
    last_message: i64,
    stop: bool,
}

/// Replies (`from`, `text`): MO for the account that last sent to the number, and for a stop
/// word the blacklist and STOP. A reply nobody sent to (in 30 days) is logged and dropped.
async fn store_replies(
    tx: &Transaction<'_>,
    replies: &[(&str, &str)],
    outbox: &mut Outbox,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    let parsed: Vec<(&str, i64, &str)> = replies
        .iter()
        .filter_map(|&(from, text)| match from.trim_start_matches('+').parse::<i64>() {
            Ok(number) => Some((from, number, text)),
            Err(_) => {
                tracing::info!(from, "a reply from an address that is not a number: dropped");
                None
            }
        })
        .collect();
    if parsed.is_empty() {
        return Ok(());
    }
    let numbers: Vec<i64> = parsed.iter().map(|&(_, number, _)| number).collect();
    let since = time::store(now - Duration::days(REPLIES_WITHIN_DAYS));
    let owners_query = tx
        .prepare_cached("SELECT number, account_id, message_id FROM last_sent WHERE number = ANY($1) AND sent_at >= $2")
        .await?;
    let owners: HashMap<i64, (i64, i64)> = tx
        .query(&owners_query, &[&numbers, &since])
        .await?
        .iter()
        .map(|row| (row.get(0), (row.get(1), row.get(2))))
        .collect();
    let kept: Vec<Reply<'_>> = parsed
        .into_iter()
        .filter_map(|(from, number, text)| match owners.get(&number) {
            Some(&(account, last_message)) => {
                Some(Reply { account, number, text, last_message, stop: is_stop_word(text) })
            }
            None => {
                tracing::info!(from, "a reply to no message sent in the last 30 days: dropped");
                None
            }
        })
        .collect();
    if kept.is_empty() {
        return Ok(());
    }
    let insert = tx
        .prepare_cached(
            "INSERT INTO replies (account_id, number, text, message_id, stop, received_at)
             SELECT r.a, r.n, r.t, r.m, r.s, $6 FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::boolean[]) AS r(a, n, t, m, s)",
        )
        .await?;
    let accounts: Vec<i64> = kept.iter().map(|r| r.account).collect();
    let numbers: Vec<i64> = kept.iter().map(|r| r.number).collect();
    let texts: Vec<&str> = kept.iter().map(|r| r.text).collect();
    let messages: Vec<i64> = kept.iter().map(|r| r.last_message).collect();
    let stops: Vec<bool> = kept.iter().map(|r| r.stop).collect();
    tx.execute(&insert, &[&accounts, &numbers, &texts, &messages, &stops, &outbox.at()]).await?;
    blacklist_stops(tx, &kept, outbox.at()).await?;
    for reply in &kept {
        let event = ReplyEvent {
            date: now.to_rfc3339(),
            message: reply.text.to_owned(),
            from: reply.number.to_string(),
            account_id: reply.account.to_string(),
            last_message_id: Some(reply.last_message.to_string()),
        };
        outbox.raise(tx, reply.account, "MO", &event).await?;
        if reply.stop {
            outbox.raise(tx, reply.account, "STOP", &event).await?;
        }
    }
    Ok(())
}

/// The numbers that replied a stop word join their account's blacklist, with the campaign and
/// contact fields of the message they answered.
async fn blacklist_stops(tx: &Transaction<'_>, replies: &[Reply<'_>], at: &str) -> Result<(), Error> {
    let ids: Vec<i64> = replies.iter().filter(|r| r.stop).map(|r| r.last_message).collect();
    if ids.is_empty() {
        return Ok(());
    }
    let answered = tx.prepare_cached("SELECT id, campaign_id, info FROM messages WHERE id = ANY($1)").await?;
    let answered: HashMap<i64, (i64, Option<String>)> =
        tx.query(&answered, &[&ids]).await?.iter().map(|row| (row.get(0), (row.get(1), row.get(2)))).collect();
    let mut stops = Listing::default();
    for reply in replies.iter().filter(|r| r.stop) {
        let (campaign, info) = answered
            .get(&reply.last_message)
            .map_or((None, None), |(campaign, info)| (Some(*campaign), info.as_deref()));
        stops.push(reply.account, reply.number, info_of(info), campaign);
    }
    stops.insert(tx, "blacklist", "stop", at).await
}

/// Counts a click and raises CLICKER; the long URL, or `None` when the code names no link
/// of a message handed over. The message's row is locked first, so that clicks on it from
/// several nodes count one after the other.
pub(super) async fn click(tx: &Transaction<'_>, click: &Click, now: DateTime<Utc>) -> Result<Option<String>, Error> {
    let mut outbox = Outbox::new(now);
    let query = tx
        .prepare_cached(
            "SELECT m.campaign_id, m.account_id, m.gsmsmsid, m.info, c.links FROM messages m JOIN campaigns c ON c.id = m.campaign_id
             WHERE m.id = $1 AND m.delivery <> 0 FOR NO KEY UPDATE OF m",
        )
        .await?;
    let Some(row) = tx.query_opt(&query, &[&click.message_id]).await? else { return Ok(None) };
    let (campaign, account, gsmsmsid, info, links): (i64, i64, Option<String>, Option<String>, String) =
        (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4));
    let links: Vec<String> = serde_json::from_str(&links).unwrap_or_default();
    let Some(long_url) = links.get(click.link).cloned() else { return Ok(None) };
    let [brand, model, os] = &click.device;
    let link = click.link as i64;
    let insert = tx
        .prepare_cached("INSERT INTO clicks (campaign_id, message_id, link, brand, model, os, clicked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .await?;
    tx.execute(&insert, &[&campaign, &click.message_id, &link, brand, model, os, &outbox.at()]).await?;
    let count = tx
        .prepare_cached("SELECT COUNT(*) FROM clicks WHERE campaign_id = $1 AND message_id = $2 AND link = $3")
        .await?;
    let clicks: i64 = tx.query_one(&count, &[&campaign, &click.message_id, &link]).await?.get(0);
    let event = Clicked { campaign, gsmsmsid, info: info.as_deref(), long_url: &long_url, click, clicks }.event(now);
    outbox.raise(tx, account, "CLICKER", &event).await?;
    Ok(Some(long_url))
}
