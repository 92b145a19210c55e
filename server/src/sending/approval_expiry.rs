//! Campaigns nobody approved in time (`--approval-wait`, 7 days by default) are rejected and
//! their credits given back, as a rejection by hand would; the audit log says so.

use std::{sync::Arc, time::Duration};

use chrono::{DateTime, Utc};
use tokio_util::sync::CancellationToken;

use crate::{
    Error,
    account::audit_log::AuditLog,
    store::{AuditEntry, Store},
};

/// Campaigns handled per store read.
const BATCH: i64 = 100;

/// The expiry of approvals.
pub(crate) struct ApprovalExpiry {
    store: Arc<dyn Store>,
    audit: Arc<AuditLog>,
    wait: Duration,
}

impl ApprovalExpiry {
    /// Rejects what waited longer than `wait` in `store`, recording it in `audit`.
    pub(crate) fn new(store: Arc<dyn Store>, audit: Arc<AuditLog>, wait: Duration) -> ApprovalExpiry {
        ApprovalExpiry { store, audit, wait }
    }

    /// Rejects every campaign that has waited too long at `now`; how many.
    pub(crate) async fn step(&self, now: DateTime<Utc>) -> Result<usize, Error> {
        let before = now - chrono::Duration::from_std(self.wait).unwrap_or(chrono::Duration::MAX);
        let reason = format!("not approved within {}", humantime::format_duration(self.wait));
        let mut rejected = 0;
        loop {
            let stale = self.store.stale_approvals(before, BATCH).await?;
            for &(account, ticket) in &stale {
                // Approved or rejected meanwhile by someone: nothing left to do.
                if self.store.cancel_campaign(account, ticket).await.is_err() {
                    continue;
                }
                self.store.note_rejection(account, ticket, &reason).await?;
                self.audit.record(AuditEntry {
                    account,
                    at: now,
                    actor: "texto".to_owned(),
                    address: String::new(),
                    action: "campaign.expire".to_owned(),
                    object: format!("campaign {ticket}"),
                    summary: format!("campaign {ticket} rejected: {reason}; its credits returned"),
                });
                rejected += 1;
            }
            if (stale.len() as i64) < BATCH {
                return Ok(rejected);
            }
        }
    }
}

/// Steps every tenth of the wait (10 minutes at most) until stopped.
pub(crate) async fn run(expiry: ApprovalExpiry, stop: CancellationToken) {
    let every = (expiry.wait / 10).clamp(Duration::from_millis(100), Duration::from_secs(600));
    loop {
        match expiry.step(Utc::now()).await {
            Ok(0) => {}
            Ok(rejected) => tracing::info!(rejected, "campaigns not approved in time were rejected"),
            Err(error) => {
                tracing::error!(%error, "rejecting campaigns not approved in time failed; trying again later")
            }
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(every) => {}
        }
    }
}
