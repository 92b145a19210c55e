//! Idempotency keys in SQLite: kept on the campaign they answer for (its `idempotency_*`
//! columns, written by its INSERT, under a unique index), and read on the writer thread when
//! that index refuses a keyed campaign (the one writer makes a key's check and its write one
//! step). The first answer is rebuilt from the campaign's cost and counters.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use texto_core::{Counters, Credits};

use super::time;
use crate::{
    Error,
    store::{AccountId, Created, StoredAnswer, replay_of},
};

/// The account's first answer for `key` sent since `since`.
pub(super) fn stored(
    db: &Connection,
    account: AccountId,
    key: &str,
    since: DateTime<Utc>,
) -> Result<Option<StoredAnswer>, Error> {
    let stored = answer_to(db, account, key)?;
    Ok(stored.and_then(|(answer, created_at)| (created_at >= time::store(since)).then_some(answer)))
}

/// What a keyed request that is about to be written is: a retry (its first answer), the
/// same key for another request (an error), or new (`None`). An expired key is taken off its
/// campaign, so that the new one can carry it.
pub(super) fn check(
    db: &Connection,
    account: AccountId,
    key: &str,
    fingerprint: &str,
    since: DateTime<Utc>,
) -> Result<Option<Created>, Error> {
    match answer_to(db, account, key)? {
        Some((stored, created_at)) if created_at >= time::store(since) => replay_of(Some(&stored), fingerprint),
        Some(_) => {
            db.prepare_cached(
                "UPDATE campaigns SET idempotency_key = NULL WHERE account_id = ? AND idempotency_key = ?",
            )?
            .execute(params![account, key])?;
            Ok(None)
        }
        None => Ok(None),
    }
}

/// The answer of the account's campaign sent with `key` (rebuilt from its cost and counters),
/// and when it was created.
fn answer_to(db: &Connection, account: AccountId, key: &str) -> Result<Option<(StoredAnswer, String)>, Error> {
    Ok(db
        .prepare_cached(
            "SELECT idempotency_fingerprint, id, idempotency_balance, created_at, cost,
                 total, sent, blacklisted, duplicated, invalid, npai, not_allowed, flood, country_limit
             FROM campaigns WHERE account_id = ? AND idempotency_key = ?",
        )?
        .query_row(params![account, key], |row| {
            let count = |i| row.get::<_, i64>(i).map(|n| u64::try_from(n).unwrap_or_default());
            let counters = Counters {
                total: count(5)?,
                sent: count(6)?,
                blacklisted: count(7)?,
                duplicated: count(8)?,
                invalid: count(9)?,
                npai: count(10)?,
                not_allowed: count(11)?,
                flood: count(12)?,
                country_limit: count(13)?,
                no_consent: 0,
                capped: 0,
            };
            let balance = Credits::from_hundredths(row.get(2)?);
            let answer = counters.to_wire(Credits::from_hundredths(row.get(4)?), balance, None);
            let stored = StoredAnswer {
                fingerprint: row.get(0)?,
                ticket: row.get(1)?,
                balance,
                answer: serde_json::to_string(&answer).unwrap_or_default(),
            };
            Ok((stored, row.get(3)?))
        })
        .optional()?)
}
