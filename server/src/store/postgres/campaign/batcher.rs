//! A serving node's group commit for small campaigns (a one-recipient send is one): each is
//! queued to one task, which takes every campaign queued meanwhile and writes them in one
//! transaction ([`writer::write`]), so that a node's sends share their commits
//! instead of waiting for each other's, one at a time, on their account's row lock.

use std::sync::Arc;

use deadpool_postgres::Pool;
use tokio::sync::{mpsc, oneshot};

use crate::{
    Error,
    store::postgres::campaign::{
        NodeMemory,
        jobs::Job,
        writer::{self, Answer},
    },
};

/// Campaigns with at most this many messages go through the batcher; a larger one is written
/// on its own (its commit is amortised over its rows).
pub(super) const MOST_MESSAGES: usize = 100;

/// Most campaigns written in one transaction.
const MOST_PER_BATCH: usize = 256;

/// A queued campaign and where its answer goes.
struct Queued {
    job: Job,
    answer: oneshot::Sender<Answer>,
}

/// The queue to the batching task; cheap to clone. The task ends with the last clone.
#[derive(Clone)]
pub(in crate::store::postgres) struct Batcher {
    queue: mpsc::UnboundedSender<Queued>,
}

impl Batcher {
    /// Starts the task, writing on connections of `pool`.
    pub(in crate::store::postgres) fn start(pool: Pool, memory: Arc<NodeMemory>) -> Batcher {
        let (queue, jobs) = mpsc::unbounded_channel();
        tokio::spawn(write_batches(pool, memory, jobs));
        Batcher { queue }
    }

    /// Queues `job` and waits for its batch's answer. Once queued, the campaign is written
    /// even if the caller stops waiting.
    pub(super) async fn write(&self, job: Job) -> Answer {
        let (answer, answered) = oneshot::channel();
        self.queue.send(Queued { job, answer }).map_err(|_| Error::Unavailable("the campaign writer has stopped"))?;
        answered.await.map_err(|_| Error::Unavailable("the campaign writer has stopped"))?
    }
}

/// The task: takes what is queued (up to [`MOST_PER_BATCH`]), writes it, answers, again.
async fn write_batches(pool: Pool, memory: Arc<NodeMemory>, mut queue: mpsc::UnboundedReceiver<Queued>) {
    let mut batch = Vec::with_capacity(MOST_PER_BATCH);
    while queue.recv_many(&mut batch, MOST_PER_BATCH).await > 0 {
        let (jobs, answers): (Vec<Job>, Vec<oneshot::Sender<Answer>>) =
            batch.drain(..).map(|q| (q.job, q.answer)).unzip();
        let written = match pool.get().await {
            Ok(client) => writer::write(&client, &memory, &jobs).await,
            Err(error) => {
                let mut first = Some(Error::from(error));
                jobs.iter()
                    .map(|_| {
                        Err(first.take().unwrap_or(Error::Unavailable("no database connection for the campaigns")))
                    })
                    .collect()
            }
        };
        for (answer, outcome) in answers.into_iter().zip(written) {
            // A caller that stopped waiting has nothing to be told.
            let _ = answer.send(outcome);
        }
    }
}
