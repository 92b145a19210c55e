//! What comes back, in PostgreSQL: final receipts, replies and clicks, each stored with the
//! effects [`effects`] gives them (NPAI, blacklist, events), a batch in a few statements.
//!
//! A receipt may come before its submit's SMSC id is stored, then waits in
//! `receipts_unmatched`. With several transactions at once (the arrivals worker and the
//! dispatchers of every node), neither side may miss the other: an unmatched receipt is
//! written first and its message looked for again afterwards, and the hand-over writes a
//! marker row under the same key before looking for an early receipt (see
//! [`super::delivery`]). Whichever writes the key second waits for the first to commit, then
//! sees its work: the receipt is stored exactly once.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use deadpool_postgres::Transaction;
use texto_core::DeliveryCode;
use tokio_postgres::Row;

use super::{
    events::{Outbox, PgEvents},
    keyword_replies, time,
};
use crate::{
    Error,
    store::{
        Arrival,
        delivery::read_finished,
        effects::{self, Effects, Finished, Listing},
        replies_kept::{self, Incoming, Owner},
    },
};

/// What a statement storing final codes returns, for [`read_placed`], from the message `m`
/// and its input row `r` (with the columns `code` and `n`, the position of the outcome).
pub(super) const FINAL_COLUMNS: &str =
    "r.n, m.campaign_id, m.account_id, m.number, m.country, m.gsmsmsid, m.info, r.code";

/// A message whose final code was just stored, with where its outcome or receipt came in its
/// batch (events go out in that order).
pub(super) type Placed = (i64, Finished);

/// Reads a row of [`FINAL_COLUMNS`].
pub(super) fn read_placed(row: &Row) -> Result<Placed, Error> {
    Ok((row.try_get(0)?, read_finished(row, 1)?))
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
                run.push((smsc_id.as_str(), code.code(), position as i64));
            }
            Arrival::Reply { from, to, text } => replies.push(Incoming { from, to, text }),
        }
    }
    finished.extend(receipts(tx, &run, &at).await?);
    after_final(tx, finished, outbox).await?;
    store_replies(tx, &replies, outbox, now).await
}

/// Stores the codes of final receipts on their submitted messages (SMSC ids each once); the
/// messages finished (the others have no submit stored, or a final code already).
pub(super) async fn match_receipts(tx: &Transaction<'_>, receipts: &[Receipt<'_>]) -> Result<Vec<Placed>, Error> {
    if receipts.is_empty() {
        return Ok(Vec::new());
    }
    let (smsc_ids, codes, positions) = columns(receipts);
    let update = tx
        .prepare_cached(&format!(
            "UPDATE messages m SET delivery = r.code, delivered_at = to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS r(smsc_id, code, n)
             WHERE m.smsc_id = r.smsc_id AND m.delivery IN (0, 1) RETURNING {FINAL_COLUMNS}"
        ))
        .await?;
    tx.query(&update, &[&smsc_ids, &codes, &positions]).await?.iter().map(read_placed).collect()
}

/// A run of receipts with distinct SMSC ids: each stored on its message, or kept aside until
/// its submit's id is stored (unless its message already has a final code); the messages
/// finished.
async fn receipts(tx: &Transaction<'_>, run: &[Receipt<'_>], at: &str) -> Result<Vec<Placed>, Error> {
    let mut finished = match_receipts(tx, run).await?;
    let matched: HashSet<i64> = finished.iter().map(|(position, _)| *position).collect();
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

/// Messages' final codes are stored: writes what follows ([`effects::of_finished`]), in the
/// order of their positions.
pub(super) async fn after_final(
    tx: &Transaction<'_>,
    mut finished: Vec<Placed>,
    outbox: &mut Outbox,
) -> Result<(), Error> {
    if finished.is_empty() {
        return Ok(());
    }
    finished.sort_by_key(|(position, _)| *position);
    let finished: Vec<Finished> = finished.into_iter().map(|(_, finished)| finished).collect();
    for delivered in finished.iter().filter(|f| f.code == DeliveryCode::Delivered) {
        outbox.delivered(delivered);
    }
    write(tx, &effects::of_finished(&finished, outbox.now()), outbox).await
}

/// Writes `effects`: the list additions (a statement per list), then the events in order.
async fn write(tx: &Transaction<'_>, effects: &Effects, outbox: &mut Outbox) -> Result<(), Error> {
    insert_listings(tx, "npai", "receipt", &effects.npai, outbox.at()).await?;
    insert_listings(tx, "blacklist", "stop", &effects.blacklist, outbox.at()).await?;
    outbox.raise_all(tx, &effects.events).await
}

/// Writes `listings` to `table` (`npai` or `blacklist`) with `source`, each unless the account
/// has the number already.
async fn insert_listings(
    tx: &Transaction<'_>,
    table: &'static str,
    source: &'static str,
    listings: &[Listing],
    at: &str,
) -> Result<(), Error> {
    if listings.is_empty() {
        return Ok(());
    }
    let accounts: Vec<i64> = listings.iter().map(|l| l.account).collect();
    let numbers: Vec<i64> = listings.iter().map(|l| l.number).collect();
    let campaigns: Vec<i64> = listings.iter().map(|l| l.campaign).collect();
    let info: [Vec<&str>; 4] = std::array::from_fn(|i| listings.iter().map(|l| l.info[i].as_str()).collect());
    let insert = tx
        .prepare_cached(&format!(
            "INSERT INTO {table} (account_id, number, info1, info2, info3, info4, campaign_id, created_at, source)
             SELECT r.a, r.n, r.i1, r.i2, r.i3, r.i4, r.c, $8, $9
             FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[]) AS r(a, n, i1, i2, i3, i4, c)
             ON CONFLICT DO NOTHING"
        ))
        .await?;
    let [info1, info2, info3, info4] = &info;
    tx.execute(&insert, &[&accounts, &numbers, info1, info2, info3, info4, &campaigns, &at, &source]).await?;
    Ok(())
}

/// Replies: each kept for the account that last sent to the number ([`replies_kept`]), with
/// what follows ([`effects::of_replies`]). A reply nobody sent to (in 30 days) is logged and
/// dropped.
async fn store_replies(
    tx: &Transaction<'_>,
    incoming: &[Incoming<'_>],
    outbox: &mut Outbox,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    let numbers = replies_kept::numbers_of(incoming);
    if numbers.is_empty() {
        return Ok(());
    }
    let since = time::store(effects::replies_owned_since(now));
    let owners_query = tx.prepare_cached(&replies_kept::owners_query("= ANY($1)")).await?;
    let owners: HashMap<i64, Owner> = tx
        .query(&owners_query, &[&numbers, &since])
        .await?
        .iter()
        .map(|row| Ok((row.try_get(0)?, replies_kept::read_owner(row)?)))
        .collect::<Result<_, tokio_postgres::Error>>()?;
    let kept = replies_kept::kept(incoming, &owners);
    if kept.replies.is_empty() {
        return Ok(());
    }
    let insert = tx
        .prepare_cached(
            "INSERT INTO replies (account_id, number, text, message_id, stop, received_at, to_number, keyword)
             SELECT r.a, r.n, r.t, r.m, r.s, $6, r.o, r.k
             FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::boolean[], $7::text[], $8::text[]) WITH ORDINALITY AS r(a, n, t, m, s, o, k, i)
             ORDER BY r.i",
        )
        .await?;
    let accounts: Vec<i64> = kept.replies.iter().map(|r| r.account).collect();
    let numbers: Vec<i64> = kept.replies.iter().map(|r| r.number).collect();
    let texts: Vec<&str> = kept.replies.iter().map(|r| r.text).collect();
    let messages: Vec<i64> = kept.replies.iter().map(|r| r.last_message).collect();
    let words: Vec<Option<&str>> = kept.keywords.iter().map(|k| k.as_ref().map(|(word, _)| word.as_str())).collect();
    tx.execute(&insert, &[&accounts, &numbers, &texts, &messages, &kept.stops, &outbox.at(), &kept.tos, &words])
        .await?;
    for (account, (replies, stops)) in replies_kept::day_counts(&kept) {
        outbox.count(account, |day| {
            day.replies += replies;
            day.stops += stops;
        });
    }
    write(tx, &effects::of_replies(&kept.replies, now), outbox).await?;
    keyword_replies::act(tx, &kept.replies, &kept.tos, &kept.keywords, outbox.at(), now).await
}
