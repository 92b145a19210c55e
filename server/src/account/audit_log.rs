//! Recording the audit log without a round trip per request: lines are gathered in memory and
//! written in batches (one transaction each) by a background writer, at once when a batch is
//! full and at least every [`FLUSH_EVERY`] otherwise; readers flush first, so a line is in
//! `GET /audit` as soon as its request has answered.

use std::{sync::Arc, time::Duration};

use chrono::Utc;
use tokio::sync::{Mutex, Notify};
use tokio_util::sync::CancellationToken;

use crate::{
    Error,
    store::{AuditEntry, AuditStore},
};

/// The operators' own log: what they did to connectors, routes and accounts (no account has
/// this id; a line about an account is also in that account's log).
pub(crate) const PLATFORM_LOG: crate::store::AccountId = 0;

/// The longest a line waits in memory.
const FLUSH_EVERY: Duration = Duration::from_millis(200);
/// Lines written in one transaction at most; a full batch is written at once.
const BATCH: usize = 500;
/// Lines deleted per statement when pruning.
const PRUNE_BATCH: i64 = 1000;

/// The audit log's writer.
pub(crate) struct AuditLog {
    store: Arc<dyn AuditStore>,
    pending: std::sync::Mutex<Vec<AuditEntry>>,
    /// One flush at a time, so that lines are written in the order they were recorded.
    writing: Mutex<()>,
    full: Notify,
    /// How long lines are kept (`--audit-keep`).
    keep: Duration,
    /// `--audit false`: nothing is recorded.
    enabled: bool,
}

impl AuditLog {
    /// A log writing to `store`, keeping lines for `keep`; recording nothing unless `enabled`.
    pub(crate) fn new(store: Arc<dyn AuditStore>, keep: Duration, enabled: bool) -> AuditLog {
        AuditLog { store, pending: Default::default(), writing: Mutex::new(()), full: Notify::new(), keep, enabled }
    }

    /// Records a line (written within [`FLUSH_EVERY`]).
    pub(crate) fn record(&self, entry: AuditEntry) {
        if !self.enabled {
            return;
        }
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.push(entry);
        if pending.len() >= BATCH {
            self.full.notify_one();
        }
    }

    /// Writes every line recorded so far; on failure they stay to be written next time.
    pub(crate) async fn flush(&self) -> Result<usize, Error> {
        let _turn = self.writing.lock().await;
        let batch = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        if batch.is_empty() {
            return Ok(0);
        }
        let batch = Arc::new(batch);
        if let Err(error) = self.store.record_audit(Arc::clone(&batch)).await {
            // Kept, ahead of what was recorded meanwhile, for the next flush.
            let unwritten = Arc::try_unwrap(batch).unwrap_or_else(|shared| shared.as_ref().clone());
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            let newer = std::mem::replace(&mut *pending, unwritten);
            pending.extend(newer);
            return Err(error);
        }
        Ok(batch.len())
    }

    /// Deletes the lines older than they are kept; how many went.
    pub(crate) async fn prune(&self) -> Result<u64, Error> {
        let before = Utc::now() - chrono::Duration::from_std(self.keep).unwrap_or(chrono::Duration::MAX);
        let mut gone = 0;
        loop {
            let batch = self.store.prune_audit(before, PRUNE_BATCH).await?;
            gone += batch;
            if batch < PRUNE_BATCH as u64 {
                return Ok(gone);
            }
        }
    }
}

/// Writes the log in the background until stopped (then once more), pruning hourly.
pub(crate) async fn run(log: Arc<AuditLog>, stop: CancellationToken) {
    let mut pruned_at = None::<tokio::time::Instant>;
    loop {
        let stopping = tokio::select! {
            () = stop.cancelled() => true,
            () = log.full.notified() => false,
            () = tokio::time::sleep(FLUSH_EVERY) => false,
        };
        if let Err(error) = log.flush().await {
            tracing::error!(%error, "writing the audit log failed; trying again");
        }
        if stopping {
            return;
        }
        if pruned_at.is_none_or(|at| at.elapsed() >= Duration::from_secs(3600)) {
            pruned_at = Some(tokio::time::Instant::now());
            match log.prune().await {
                Ok(0) => {}
                Ok(gone) => tracing::info!(gone, "old audit log lines pruned"),
                Err(error) => tracing::error!(%error, "pruning the audit log failed; trying again later"),
            }
        }
    }
}
