//! Idempotency keys in SQLite, read and written on the writer thread with the campaign they
//! answer for (the one writer makes a key's check and its write one step).

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use texto_core::Credits;

use super::time;
use crate::{
    Error,
    store::{AccountId, IdempotencyKey, StoredAnswer, prune_due},
};

/// The account's first answer for `key` sent since `since`.
pub(super) fn stored(
    db: &Connection,
    account: AccountId,
    key: &str,
    since: DateTime<Utc>,
) -> Result<Option<StoredAnswer>, Error> {
    Ok(db
        .prepare_cached(
            "SELECT fingerprint, campaign_id, balance, answer FROM idempotency_keys
             WHERE account_id = ? AND key = ? AND created_at >= ?",
        )?
        .query_row(params![account, key, time::store(since)], |row| {
            Ok(StoredAnswer {
                fingerprint: row.get(0)?,
                ticket: row.get(1)?,
                balance: Credits::from_hundredths(row.get(2)?),
                answer: row.get(3)?,
            })
        })
        .optional()?)
}

/// Keeps `key`'s answer (campaign `ticket`, leaving `balance`), in place of an expired one,
/// and drops the keys older than `since` once a minute ([`prune_due`]).
pub(super) fn keep(
    db: &Connection,
    account: AccountId,
    key: &IdempotencyKey,
    ticket: i64,
    balance: Credits,
    now: DateTime<Utc>,
    since: DateTime<Utc>,
) -> Result<(), Error> {
    if prune_due(now) {
        db.prepare_cached("DELETE FROM idempotency_keys WHERE created_at < ?")?.execute([time::store(since)])?;
    }
    db.prepare_cached(
        "INSERT OR REPLACE INTO idempotency_keys (account_id, key, fingerprint, campaign_id, balance, answer, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )?
    .execute(params![
        account,
        key.key,
        key.fingerprint,
        ticket,
        balance.hundredths(),
        key.answer,
        time::store(now)
    ])?;
    Ok(())
}
