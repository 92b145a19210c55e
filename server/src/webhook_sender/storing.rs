//! A lane's attempts stored in the background, in order: the attempts made while one store
//! is under way wait and are stored together by the next (one transaction), so the request
//! log keeps the order of the attempts and a lane never waits for a commit per event.

use std::{sync::Arc, time::Duration};

use tokio::task::JoinHandle;

use crate::store::{Attempt, OutboxStore};

/// Attempts that may wait for their commit while the lane goes on. A crash may repeat these
/// POSTs (with their delivery ids), never lose them.
pub(super) const UNSTORED: usize = 8;

/// One lane's attempts on their way to the store.
pub(super) struct Storing {
    store: Arc<dyn OutboxStore>,
    /// Attempts not handed to a store yet, in order.
    waiting: Vec<Attempt>,
    /// The store under way, if any.
    running: Option<(JoinHandle<bool>, usize)>,
    /// False once a store said the webhook is no longer live (or an event is gone).
    live: bool,
}

impl Storing {
    /// Nothing stored yet.
    pub(super) fn new(store: Arc<dyn OutboxStore>) -> Storing {
        Storing { store, waiting: Vec::new(), running: None, live: true }
    }

    /// Adds an attempt: stored at once when no store is under way, else with the next, after
    /// waiting for the one under way when [`UNSTORED`] would be passed. Whether the webhook is
    /// still live as far as is known.
    pub(super) async fn push(&mut self, attempt: Attempt) -> bool {
        self.waiting.push(attempt);
        let in_flight = self.running.as_ref().map_or(0, |(_, count)| *count);
        let busy = self.running.as_ref().is_some_and(|(handle, _)| !handle.is_finished());
        if busy && in_flight + self.waiting.len() <= UNSTORED {
            return self.live;
        }
        self.settle().await;
        self.start();
        self.live
    }

    /// Waits until every attempt is stored; whether the webhook is still live after them.
    pub(super) async fn drain(mut self) -> bool {
        self.settle().await;
        if !self.waiting.is_empty() {
            self.start();
            self.settle().await;
        }
        self.live
    }

    /// Waits for the store under way, if any.
    async fn settle(&mut self) {
        if let Some((handle, _)) = self.running.take() {
            self.live &= handle.await.unwrap_or(false);
        }
    }

    /// Stores what waits, in the background.
    fn start(&mut self) {
        let attempts = std::mem::take(&mut self.waiting);
        let count = attempts.len();
        self.running = Some((tokio::spawn(store_attempts(Arc::clone(&self.store), attempts)), count));
    }
}

/// Stores `attempts`, trying again until they are stored; whether their webhook is still live.
async fn store_attempts(store: Arc<dyn OutboxStore>, attempts: Vec<Attempt>) -> bool {
    loop {
        match store.record_attempts(attempts.clone()).await {
            Ok(live) => return live,
            Err(error) => tracing::error!(%error, "webhook attempts could not be stored; trying again"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}
