//! Anti-flood across nodes. Each node keeps the last hour of sends in memory
//! ([`FloodWindow`]); a send on another node reaches it through the database. A send takes
//! its account's row lock before it writes its campaign, so one account's campaigns are
//! written one at a time, over all nodes, with growing ids. Under that lock a node reads the
//! account's campaigns newer than the last it knows (an index range on `campaigns`, empty
//! when only this node sends for the account) and adds their messages to its window: the
//! window is then exact, and the campaign's anti-flood outcome is checked again against it.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError},
};

use chrono::{DateTime, Duration, Utc};
use deadpool_postgres::GenericClient;
use texto_core::FloodLimits;

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

    fn get(&self, account: AccountId) -> i64 {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).get(&account).copied().unwrap_or(0)
    }

    /// Records that the window holds `account`'s campaigns up to `campaign`.
    pub(super) fn advance(&self, account: AccountId, campaign: i64) {
        let mut synced = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let known = synced.entry(account).or_default();
        *known = (*known).max(campaign);
    }
}

/// Adds to `window` the messages of `account`'s campaigns written since the last sync (by
/// any node) in the last hour.
pub(super) async fn sync(db: &impl GenericClient, window: &Arc<FloodWindow>, synced: &Synced, account: AccountId, now: DateTime<Utc>) -> Result<(), Error> {
    let since = synced.get(account);
    let statement = db
        .prepare_cached(
            "SELECT c.id, c.created_at, m.number, m.text_hash FROM campaigns c LEFT JOIN messages m ON m.campaign_id = c.id
             WHERE c.account_id = $1 AND c.id > $2 ORDER BY c.id",
        )
        .await?;
    // One statement, so one snapshot: the mark moves exactly over what was read (campaigns
    // without messages, all filtered, included).
    let rows = db.query(&statement, &[&account, &since]).await?;
    let hour_ago = now - Duration::hours(1);
    let mut newest = since;
    for row in &rows {
        newest = newest.max(row.get(0));
        let (Some(number), Some(text_hash)) = (row.get::<_, Option<i64>>(2), row.get::<_, Option<i64>>(3)) else { continue };
        let at = time::load(row.get(1));
        if at >= hour_ago {
            window.record(account, [number as u64], text_hash, at);
        }
    }
    synced.advance(account, newest);
    Ok(())
}

/// Whether any of `numbers` is now over the anti-flood limits for `text_hash` (a send the
/// filter let through, before this campaign is recorded).
pub(super) fn over_limits(window: &FloodWindow, account: AccountId, numbers: &[u64], text_hash: i64, limits: FloodLimits, now: DateTime<Utc>) -> bool {
    window
        .recent(account, numbers, text_hash, now)
        .values()
        .any(|recent| recent.identical >= limits.identical_per_hour || recent.any >= limits.any_per_hour)
}
