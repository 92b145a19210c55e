//! The webhook sender: posts each webhook's outbox events in order (one attempt in flight per
//! webhook, a global pool of attempts), stores each attempt before the next, retries on the
//! schedule and gives up after it. Paused webhooks keep their events until they are live.

mod post;
mod schedule;

use std::{
    collections::HashSet,
    sync::{Arc, Mutex},
    time::Duration,
};

use tokio::sync::{Notify, Semaphore};
use tokio_util::sync::CancellationToken;

pub use schedule::RetrySchedule;

use crate::{
    Error,
    delivery::clock::Clock,
    store::{AttemptResult, DueEvent, NextStep, OutboxStore},
};
use post::Poster;

/// Attempts in flight at once, over all webhooks.
const POOL: usize = 64;
/// How often the outbox is looked at when no attempt ended (new events, retries coming due).
const POLL: Duration = Duration::from_millis(100);

/// Posts outbox events; cheap to share.
pub(crate) struct WebhookSender {
    store: Arc<dyn OutboxStore>,
    clock: Arc<dyn Clock>,
    poster: Poster,
    schedule: RetrySchedule,
    busy: Mutex<HashSet<i64>>,
    pool: Arc<Semaphore>,
    /// Woken when an attempt is stored: its webhook's next event may go.
    stored: Notify,
}

impl WebhookSender {
    /// A sender; `allow_private` lets it post to loopback and private receivers.
    pub(crate) fn new(store: Arc<dyn OutboxStore>, clock: Arc<dyn Clock>, schedule: RetrySchedule, allow_private: bool) -> Result<WebhookSender, Error> {
        Ok(WebhookSender { store, clock, poster: Poster::new(allow_private)?, schedule, busy: Mutex::default(), pool: Arc::new(Semaphore::new(POOL)), stored: Notify::new() })
    }

    /// Starts an attempt for the next due event of each idle live webhook; returns how many.
    pub(crate) async fn step(self: &Arc<Self>) -> Result<usize, Error> {
        let busy: Vec<i64> = self.busy().iter().copied().collect();
        let due = self.store.due_events(self.clock.now(), busy, POOL).await?;
        let started = due.len();
        for event in due {
            let Ok(place) = Arc::clone(&self.pool).acquire_owned().await else { break };
            self.busy().insert(event.webhook_id);
            let sender = Arc::clone(self);
            tokio::spawn(async move {
                sender.attempt(&event).await;
                sender.busy().remove(&event.webhook_id);
                drop(place);
                sender.stored.notify_one();
            });
        }
        Ok(started)
    }

    /// Posts `event` again now (a resend from the log), as a new attempt with the same
    /// delivery id; a 2xx marks it delivered, anything else leaves its state as it was.
    pub(crate) async fn resend(&self, event: &DueEvent) -> Result<AttemptResult, Error> {
        let now = self.clock.now();
        let result = self.poster.post(event, now.timestamp()).await;
        let next = if is_success(&result) { NextStep::Delivered } else { NextStep::Unchanged };
        self.store.record_attempt(event, result.clone(), next, now).await?;
        Ok(result)
    }

    async fn attempt(&self, event: &DueEvent) {
        let now = self.clock.now();
        let result = self.poster.post(event, now.timestamp()).await;
        let done = self.clock.now();
        let next = if is_success(&result) {
            NextStep::Delivered
        } else {
            match self.schedule.next(event.created_at, event.attempts + 1, done, jitter()) {
                Some(at) => NextStep::RetryAt(at),
                None => NextStep::Failed,
            }
        };
        if next == NextStep::Failed {
            tracing::warn!(webhook = event.webhook_id, delivery = %event.delivery_id, "a webhook event is given up");
        }
        // Stored before the webhook's next attempt may start: on failure, try storing again.
        while let Err(error) = self.store.record_attempt(event, result.clone(), next, done).await {
            tracing::error!(%error, "a webhook attempt could not be stored; trying again");
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }

    fn busy(&self) -> std::sync::MutexGuard<'_, HashSet<i64>> {
        self.busy.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn is_success(result: &AttemptResult) -> bool {
    result.http_code.is_some_and(|code| (200..300).contains(&code))
}

/// A number in [0, 1) for the retry jitter.
fn jitter() -> f64 {
    getrandom::u64().map_or(0.5, |n| (n >> 11) as f64 / (1u64 << 53) as f64)
}

/// Steps the sender until stopped.
pub(crate) async fn run(sender: Arc<WebhookSender>, stop: CancellationToken) {
    loop {
        let started = sender.step().await.unwrap_or_else(|error| {
            tracing::error!(%error, "reading the outbox failed; trying again");
            0
        });
        if started > 0 && !stop.is_cancelled() {
            // More may be due (the pass takes at most POOL): look again at once.
            continue;
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = sender.stored.notified() => {}
            () = tokio::time::sleep(POLL) => {}
        }
    }
}
