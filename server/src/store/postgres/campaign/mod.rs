//! Campaigns on PostgreSQL: the files that write a send and read it back. A send flows through
//! them in this order:
//! 1. [`store`] implements `CampaignStore`: it reads the filter's inputs (blacklist, NPAI, the
//!    node's copy of the account) and turns an accepted simulation into a [`jobs::Job`].
//! 2. [`batcher`] queues the jobs of small campaigns on this node and hands them to the writer
//!    a batch at a time; a large campaign goes to the writer alone.
//! 3. [`writer`] opens one transaction per batch: it locks the batch's accounts, brings the
//!    anti-flood window up to date under those locks, reads the caps, alerts and
//!    [`idempotency`] keys, and takes one ticket per job.
//! 4. [`jobs`] decides each job in queue order (a retry of a stored key, anti-flood, balance,
//!    monthly caps) and moves the running balance and counters.
//! 5. [`writer`] writes the accepted jobs with one statement per table ([`columns`] lays them
//!    out as arrays, or as a binary COPY for a large batch's messages) and commits once.
//!
//! [`records`] reads campaigns back for the history and the detail pages.

mod batcher;
mod columns;
mod idempotency;
mod jobs;
mod records;
mod store;
mod writer;

use super::{NodeMemory, PgStore, account_cache, accounts, balance_alert, clicks, flood_sync, query, time};
pub(super) use batcher::Batcher;
