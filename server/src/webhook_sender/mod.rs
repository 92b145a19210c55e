//! The webhook sender: one lane per webhook with events due posts them one after another, in
//! order, storing each attempt before the next; a global pool bounds the attempts in flight
//! over all lanes. A failed attempt ends its lane until the retry is due (later events wait
//! behind it); a lane also ends when its webhook is paused or deleted, or has nothing due.

pub(crate) mod net_guard;
mod post;
mod schedule;
mod storing;

use std::{
    collections::HashSet,
    sync::{Arc, Mutex},
    time::Duration,
};

use chrono::{DateTime, Utc};
use tokio::sync::{Notify, Semaphore};
use tokio_util::sync::CancellationToken;

pub use schedule::RetrySchedule;

use crate::{
    Error,
    delivery::clock::Clock,
    store::{Attempt, AttemptResult, DueEvent, NextStep, OutboxStore},
};
use post::Poster;
use storing::Storing;

/// Attempts in flight at once, over all webhooks (a lane has at most one).
const POOL: usize = 256;
/// Lanes started by one step at most.
const LANES: usize = 1024;
/// Events a lane reads at once.
const BATCH: usize = 100;
/// How often the outbox is looked at when no lane ended (new events, retries coming due).
const POLL: Duration = Duration::from_millis(100);
/// Rows of each pruned table one statement deletes at most.
const PRUNE_BATCH: usize = 10_000;
/// How often the request log and the finished events are pruned, at most (more often when
/// they are kept less than ten hours).
const PRUNE_EVERY: Duration = Duration::from_secs(3600);

/// Posts outbox events; cheap to share.
pub(crate) struct WebhookSender {
    store: Arc<dyn OutboxStore>,
    clock: Arc<dyn Clock>,
    poster: Poster,
    schedule: RetrySchedule,
    /// How long the request log and the finished events are kept.
    keep: Duration,
    /// Webhooks with a lane running.
    lanes: Mutex<HashSet<i64>>,
    pool: Semaphore,
    /// Woken when a lane ends: its webhook may have more due.
    lane_ended: Notify,
}

impl WebhookSender {
    /// A sender; `allow_private` lets it post to loopback and private receivers; the request
    /// log and the finished events are kept for `keep`.
    pub(crate) fn new(
        store: Arc<dyn OutboxStore>,
        clock: Arc<dyn Clock>,
        schedule: RetrySchedule,
        keep: Duration,
        allow_private: bool,
    ) -> Result<WebhookSender, Error> {
        Ok(WebhookSender {
            store,
            clock,
            poster: Poster::new(allow_private)?,
            schedule,
            keep,
            lanes: Mutex::default(),
            pool: Semaphore::new(POOL),
            lane_ended: Notify::new(),
        })
    }

    /// Starts a lane for each live webhook with an event due and no lane; returns how many.
    pub(crate) async fn step(self: &Arc<Self>) -> Result<usize, Error> {
        let running: Vec<i64> = self.lanes().iter().copied().collect();
        let due = self.store.due_webhooks(self.clock.now(), running, LANES).await?;
        for &webhook_id in &due {
            self.lanes().insert(webhook_id);
            let sender = Arc::clone(self);
            tokio::spawn(async move {
                sender.lane(webhook_id).await;
                sender.lanes().remove(&webhook_id);
                sender.lane_ended.notify_one();
            });
        }
        Ok(due.len())
    }

    /// Posts the webhook's due events in order until one fails, the webhook is no longer
    /// live, or nothing is due. Attempts are stored in the background, in order, while the
    /// next ones go ([`Storing`]); all are stored before the lane reads further or ends.
    async fn lane(&self, webhook_id: i64) {
        loop {
            let events = match self.store.next_events(webhook_id, self.clock.now(), BATCH).await {
                Ok(events) if !events.is_empty() => events,
                Ok(_) => return,
                Err(error) => {
                    tracing::error!(%error, webhook = webhook_id, "reading a webhook's events failed");
                    return;
                }
            };
            let mut storing = Storing::new(Arc::clone(&self.store));
            let mut go_on = true;
            for event in events {
                let Ok(place) = self.pool.acquire().await else { break };
                let (result, next, at) = self.attempt(&event).await;
                drop(place);
                let retry = matches!(next, NextStep::RetryAt(_));
                if !storing.push(Attempt { event, result, next, at }).await || retry {
                    go_on = false;
                    break;
                }
            }
            if !storing.drain().await || !go_on {
                return;
            }
        }
    }

    /// Posts `event` again now (a resend from the log), as a new attempt with the same
    /// delivery id; a 2xx marks it delivered, anything else leaves its state as it was. The
    /// attempt, as stored.
    pub(crate) async fn resend(&self, event: &DueEvent) -> Result<Attempt, Error> {
        let result = self.poster.post(event, self.clock.now().timestamp()).await;
        let next = if is_success(&result) { NextStep::Delivered } else { NextStep::Unchanged };
        let attempt = Attempt { event: event.clone(), result, next, at: self.clock.now() };
        self.store.record_attempts(vec![attempt.clone()]).await?;
        Ok(attempt)
    }

    /// One attempt of `event`: what it got, what becomes of the event, and when it ended.
    async fn attempt(&self, event: &DueEvent) -> (AttemptResult, NextStep, DateTime<Utc>) {
        let started = std::time::Instant::now();
        let result = self.poster.post(event, self.clock.now().timestamp()).await;
        metrics::histogram!("texto_webhook_attempt_duration_seconds").record(started.elapsed().as_secs_f64());
        let done = self.clock.now();
        let next = if is_success(&result) {
            NextStep::Delivered
        } else {
            match self.schedule.next(event.created_at, event.attempts + 1, done, jitter()) {
                Some(at) => NextStep::RetryAt(at),
                None => NextStep::Failed,
            }
        };
        let outcome = if next == NextStep::Delivered { "delivered" } else { "failed" };
        metrics::counter!("texto_webhook_attempts_total", "outcome" => outcome).increment(1);
        if next == NextStep::Failed {
            tracing::warn!(webhook = event.webhook_id, delivery = %event.delivery_id, "a webhook event is given up");
        }
        (result, next, done)
    }

    /// Deletes the request log and the finished events older than they are kept, in batches;
    /// how many rows went.
    pub(crate) async fn prune(&self) -> Result<u64, Error> {
        let before = self.clock.now() - chrono::Duration::from_std(self.keep).unwrap_or(chrono::Duration::MAX);
        let mut gone = 0;
        loop {
            let batch = self.store.prune(before, PRUNE_BATCH).await?;
            gone += batch;
            if batch < PRUNE_BATCH as u64 {
                return Ok(gone);
            }
        }
    }

    fn lanes(&self) -> std::sync::MutexGuard<'_, HashSet<i64>> {
        self.lanes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn is_success(result: &AttemptResult) -> bool {
    result.http_code.is_some_and(|code| (200..300).contains(&code))
}

/// A number in [0, 1) for the retry jitter.
fn jitter() -> f64 {
    getrandom::u64().map_or(0.5, |n| (n >> 11) as f64 / (1u64 << 53) as f64)
}

/// Steps the sender until stopped (pruning beside it).
pub(crate) async fn run(sender: Arc<WebhookSender>, stop: CancellationToken) {
    tokio::spawn(prune_regularly(Arc::clone(&sender), stop.clone()));
    loop {
        let started = sender.step().await.unwrap_or_else(|error| {
            tracing::error!(%error, "reading the outbox failed; trying again");
            0
        });
        if started == LANES && !stop.is_cancelled() {
            // More may be due (a step starts at most LANES): look again at once.
            continue;
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = sender.lane_ended.notified() => {}
            () = tokio::time::sleep(POLL) => {}
        }
    }
}

/// Prunes at start, then every tenth of the time things are kept (an hour at most), until
/// stopped.
async fn prune_regularly(sender: Arc<WebhookSender>, stop: CancellationToken) {
    let every = (sender.keep / 10).clamp(Duration::from_millis(100), PRUNE_EVERY);
    loop {
        match sender.prune().await {
            Ok(0) => {}
            Ok(gone) => tracing::info!(gone, "old webhook requests and events pruned"),
            Err(error) => tracing::error!(%error, "pruning old webhook requests and events failed; trying again later"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(every) => {}
        }
    }
}
