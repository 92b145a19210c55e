//! Anti-flood across nodes. Each node keeps the last hour of sends in memory
//! ([`FloodWindow`]); a send on another node reaches it through the database. A send takes
//! its account's row lock before it writes its campaign, so one account's campaigns are
//! written one at a time, over all nodes, with growing ids. Under that lock a node reads the
//! account's campaigns newer than the last it knows (an index range on `campaigns`, empty
//! when only this node sends for the account) and adds their messages to its window: the
//! window is then exact, and the campaign's anti-flood outcome is checked again against it.
//! (A node writes the campaigns queued meanwhile together, under all their accounts' locks.)
//! Each campaign enters the window once: by its writer, or by the sync that read it first.

use std::{
    collections::HashMap,
    sync::{Mutex, MutexGuard, PoisonError},
};

use chrono::{DateTime, Duration, Utc};
use deadpool_postgres::{Client, GenericClient};
use rustc_hash::FxHashMap;
use texto_core::{FloodLimits, RecentSends};
use tokio_postgres::types::Type;

use super::time;
use crate::{
    Error,
    store::{AccountId, flood_window::FloodWindow},
};

/// Per account, the newest campaign whose messages the window holds.
#[derive(Debug, Default)]
pub(super) struct Synced(Mutex<HashMap<AccountId, i64>>);

impl Synced {
    /// What the window held when it was loaded: each account's newest campaign then.
    pub(super) async fn loaded(db: &impl GenericClient) -> Result<Synced, Error> {
        let rows = db.query("SELECT account_id, max(id) FROM campaigns GROUP BY account_id", &[]).await?;
        Ok(Synced(Mutex::new(rows.iter().map(|row| (row.get(0), row.get(1))).collect())))
    }

    /// The marks, locked: what moves them also records in the window under this lock.
    fn marks(&self) -> MutexGuard<'_, HashMap<AccountId, i64>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records in `window` the messages of `account`'s campaign `ticket`, just written under
    /// the account's lock, unless a sync has read it already; the window then holds the
    /// account's campaigns up to it.
    pub(super) fn record_written(
        &self,
        window: &FloodWindow,
        account: AccountId,
        ticket: i64,
        numbers: Vec<u64>,
        text_hash: i64,
        at: DateTime<Utc>,
    ) {
        let mut marks = self.marks();
        let known = marks.entry(account).or_default();
        if ticket > *known {
            window.record(account, numbers, text_hash, at);
            *known = ticket;
        }
    }
}

/// Adds to `window` the messages of the `accounts`' campaigns written since the last sync (by
/// any node) in the last hour.
pub(super) async fn sync(
    db: &Client,
    window: &FloodWindow,
    synced: &Synced,
    accounts: &[AccountId],
    now: DateTime<Utc>,
) -> Result<(), Error> {
    let since: Vec<i64> = {
        let marks = synced.marks();
        accounts.iter().map(|account| marks.get(account).copied().unwrap_or(0)).collect()
    };
    let campaigns = match (accounts, since.as_slice()) {
        // One range of `campaigns_by_account` (account, id), whatever the values: prepared
        // once per connection (planning it for each send cost more than running it).
        ([account], [since]) => {
            let statement = db
                .prepare_cached("SELECT account_id, id, created_at FROM campaigns WHERE account_id = $1 AND id > $2")
                .await?;
            db.query(&statement, &[account, since]).await?
        }
        // Planned for its arrays each time (an unnamed statement): a plan kept from when
        // `campaigns` was small scans it whole once it is not.
        _ => {
            // Each account's range of `campaigns_by_account`, which row comparisons start and
            // end the index scan on (OFFSET 0 keeps it a loop over the accounts).
            let sql = "SELECT c.account_id, c.id, c.created_at FROM UNNEST($1::bigint[], $2::bigint[]) AS s(account_id, since)
                 CROSS JOIN LATERAL (SELECT account_id, id, created_at FROM campaigns
                     WHERE (account_id, id) > (s.account_id, s.since) AND (account_id, id) <= (s.account_id, 9223372036854775807) OFFSET 0) c";
            db.query_typed(sql, &[(&accounts, Type::INT8_ARRAY), (&since, Type::INT8_ARRAY)]).await?
        }
    };
    if campaigns.is_empty() {
        return Ok(());
    }
    // The messages of the campaigns of the last hour (older ones only move the marks), read
    // after them: written with their campaign and never deleted, they are the same in any
    // later snapshot.
    let hour_ago = now - Duration::hours(1);
    let ids: Vec<i64> =
        campaigns.iter().filter(|row| time::load(row.get(2)) >= hour_ago).map(|row| row.get(1)).collect();
    let messages = if ids.is_empty() {
        Vec::new()
    } else {
        db.query_typed(
            "SELECT campaign_id, number, text_hash FROM messages WHERE campaign_id = ANY($1)",
            &[(&ids, Type::INT8_ARRAY)],
        )
        .await?
    };
    // Under the marks' lock, so that a campaign recorded meanwhile (by another sync or by its
    // writer on this node) is not counted twice.
    let mut marks = synced.marks();
    let mut new: HashMap<i64, (AccountId, DateTime<Utc>)> = HashMap::new();
    for row in &campaigns {
        let (account, campaign): (AccountId, i64) = (row.get(0), row.get(1));
        let mark = marks.entry(account).or_default();
        if campaign > *mark {
            new.insert(campaign, (account, time::load(row.get(2))));
        }
    }
    for row in &messages {
        if let Some(&(account, at)) = new.get(&row.get(0))
            && at >= hour_ago
        {
            window.record(account, [row.get::<_, i64>(1) as u64], row.get(2), at);
        }
    }
    for row in &campaigns {
        let mark = marks.entry(row.get(0)).or_default();
        *mark = (*mark).max(row.get(1));
    }
    Ok(())
}

/// Whether any of `numbers` is now over the anti-flood limits for `text_hash` (a send the
/// filter let through, before this campaign is recorded), counting the sends of all `windows`.
pub(super) fn over_limits(
    windows: &[&FloodWindow],
    account: AccountId,
    numbers: &[u64],
    text_hash: i64,
    limits: FloodLimits,
    now: DateTime<Utc>,
) -> bool {
    let mut recent: FxHashMap<u64, RecentSends> = FxHashMap::default();
    for window in windows {
        for (number, sends) in window.recent(account, numbers, text_hash, now) {
            let counts = recent.entry(number).or_default();
            counts.any += sends.any;
            counts.identical += sends.identical;
        }
    }
    recent.values().any(|recent| recent.identical >= limits.identical_per_hour || recent.any >= limits.any_per_hour)
}
