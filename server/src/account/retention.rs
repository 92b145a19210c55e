//! The retention pass: for each account with periods set, what is older is removed in bounded
//! batches, each its own short transaction, paced so that sends keep most of the writer.

use std::{sync::Arc, time::Duration};

use chrono::{DateTime, Utc};
use tokio_util::sync::CancellationToken;

use crate::{
    Error,
    store::{AccountId, Cursor, Expiry, RetentionSettings, RetentionStore},
};

/// Rows a batch changes at most.
pub(crate) const BATCH: i64 = 1_000;

/// The pass works one part of this many: after each batch it waits 39 times as long as the
/// batch took. Masking rewrites whole pages, which SQLite's one writer and its checkpoints
/// then copy: at one part in ten, sends on two cores lost a third of their rate (measured with
/// `scripts/load/retention`).
const WRITE_SHARE: u32 = 40;

/// What one pass removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Expired {
    /// Messages whose number and contact fields were masked.
    pub(crate) messages: i64,
    /// Campaigns whose text and sender were masked.
    pub(crate) campaigns: i64,
    /// Replies deleted.
    pub(crate) replies: i64,
    /// List contacts deleted.
    pub(crate) contacts: i64,
}

/// The retention pass over a store.
pub(crate) struct RetentionPass {
    store: Arc<dyn RetentionStore>,
}

impl RetentionPass {
    /// A pass over `store`.
    pub(crate) fn new(store: Arc<dyn RetentionStore>) -> RetentionPass {
        RetentionPass { store }
    }

    /// One pass at `now` over every account with periods set.
    pub(crate) async fn step(&self, now: DateTime<Utc>) -> Result<Expired, Error> {
        let mut expired = Expired::default();
        for (account, settings) in self.store.retained_accounts().await? {
            let cutoff = |period: Option<texto_core::RetentionPeriod>| period.map(|p| p.cutoff(now));
            // A message's text is its campaign's: the shorter of the two periods masks it.
            let texts = cutoff(settings.message).max(cutoff(settings.campaign));
            let RetentionSettings { message, list, mo, .. } = settings;
            if let Some(before) = cutoff(message) {
                expired.messages += self.expire(account, Expiry::MessageNumbers, before).await?;
            }
            if let Some(before) = texts {
                expired.campaigns += self.expire(account, Expiry::CampaignTexts, before).await?;
            }
            if let Some(before) = cutoff(mo) {
                expired.replies += self.expire(account, Expiry::Replies, before).await?;
            }
            if let Some(before) = cutoff(list) {
                expired.contacts += self.expire(account, Expiry::ListContacts, before).await?;
                // The numbers they were the only trace of go with them.
                self.expire(account, Expiry::EmptyContacts, before).await?;
            }
        }
        Ok(expired)
    }

    /// Every batch of `expiry` for `account`, until one changes fewer rows than a batch.
    async fn expire(&self, account: AccountId, expiry: Expiry, before: DateTime<Utc>) -> Result<i64, Error> {
        let (mut total, mut cursor) = (0, Cursor::default());
        loop {
            let started = std::time::Instant::now();
            let (changed, next) = self.store.expire(account, expiry, before, BATCH, &cursor).await?;
            total += changed;
            if changed < BATCH {
                return Ok(total);
            }
            cursor = next;
            tokio::time::sleep(started.elapsed() * (WRITE_SHARE - 1)).await;
        }
    }
}

/// Runs a pass at start and then `every`, until `stop`.
pub(crate) async fn run(pass: RetentionPass, every: Duration, stop: CancellationToken) {
    loop {
        match pass.step(Utc::now()).await {
            Ok(expired) if expired == Expired::default() => {}
            Ok(expired) => tracing::info!(?expired, "data past its retention period removed"),
            Err(error) => tracing::error!(%error, "the retention pass failed; trying again later"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(every) => {}
        }
    }
}
