//! The writer thread: owns the one write connection, takes every write queued since its last
//! commit, runs each in a savepoint of one transaction (or, for work that refuses before it
//! writes, in the transaction itself: see [`Guard`]), commits once, then answers them all.

use std::{
    panic::{AssertUnwindSafe, catch_unwind},
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
        mpsc,
    },
    time::{Duration, Instant},
};

use rusqlite::{Connection, ffi};
use tokio::sync::oneshot;

use crate::{Error, store::faults::DatabaseFault};

/// Most writes committed together.
const MOST_PER_BATCH: usize = 512;

/// How long a write that failed for a fault of the database (a full disk) keeps `/health`
/// saying so, whatever succeeds meanwhile.
const FAULT_TOLD_FOR: Duration = Duration::from_secs(10);

/// How a write's failure is kept from the rest of its batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Guard {
    /// In a savepoint of its own, rolled back alone when the work fails.
    Savepoint,
    /// No savepoint: for work that refuses (a short balance, a taken key) before it writes
    /// anything. A savepoint copies each page the work touches before it changes it, about a
    /// tenth of the writer's time on one-recipient sends (docs/performance.md). Should such
    /// work fail after it wrote a row after all (a fault of the disk, a bug), its writes
    /// cannot be undone alone: the whole transaction is rolled back, and every write of it
    /// answered with an error, as when SQLite rolls a transaction back itself.
    RefusesFirst,
}

/// The queue to the writer thread; cheap to clone. The thread ends with the last clone.
#[derive(Clone)]
pub(super) struct Writer {
    queue: mpsc::Sender<Box<dyn Job>>,
    faults: Arc<Faults>,
    /// Batches committed so far: the checkpointer tells an idle writer by it.
    commits: Arc<AtomicU64>,
}

/// The last write that failed for a fault of the database, and when.
#[derive(Default)]
struct Faults(Mutex<Option<(DatabaseFault, Instant)>>);

impl Faults {
    fn record(&self, fault: DatabaseFault) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some((fault, Instant::now()));
    }

    fn recent(&self) -> Option<DatabaseFault> {
        let last = *self.0.lock().unwrap_or_else(|e| e.into_inner());
        last.filter(|(_, at)| at.elapsed() < FAULT_TOLD_FOR).map(|(fault, _)| fault)
    }
}

impl Writer {
    /// Starts the writer thread on `connection`.
    pub(super) fn start(connection: Connection) -> Result<Writer, Error> {
        let (queue, jobs) = mpsc::channel();
        let faults = Arc::new(Faults::default());
        let commits = Arc::new(AtomicU64::new(0));
        let (thread_faults, thread_commits) = (Arc::clone(&faults), Arc::clone(&commits));
        std::thread::Builder::new()
            .name("texto-db-writer".into())
            .spawn(move || write_batches(connection, jobs, &thread_faults, &thread_commits))
            .map_err(Error::io("starting the database writer thread"))?;
        Ok(Writer { queue, faults, commits })
    }

    /// The count of batches committed, which moves on each commit.
    pub(super) fn commits(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.commits)
    }

    /// The fault a write met in the last few seconds (a full disk, an I/O error), if any.
    pub(super) fn recent_fault(&self) -> Option<DatabaseFault> {
        self.faults.recent()
    }

    /// Queues `work`, kept from its batch as `guard` says, and waits for its batch's commit.
    pub(super) async fn run<T, F>(&self, guard: Guard, work: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, Error> + Send + 'static,
    {
        let (answer, answered) = oneshot::channel();
        let job = Pending { work: Some(work), guard, outcome: None, answer };
        self.queue.send(Box::new(job)).map_err(|_| Error::Unavailable("the database writer has stopped"))?;
        answered.await.map_err(|_| Error::Unavailable("the database writer has stopped"))?
    }
}

/// A queued write, type-erased so that one queue carries them all.
trait Job: Send {
    /// Runs the work as its [`Guard`] says: in its own savepoint (released on success, rolled
    /// back on error), or in the transaction, which it rolls back if it fails having written.
    fn run(&mut self, connection: &mut Connection);
    /// Sends the outcome, now that the batch's commit (or its failure) is known.
    fn answer(self: Box<Self>, commit: Result<(), &rusqlite::Error>);
    /// The fault of the database its work met, if it failed for one.
    fn fault(&self) -> Option<DatabaseFault>;
}

struct Pending<T, F> {
    work: Option<F>,
    guard: Guard,
    outcome: Option<Result<T, Error>>,
    answer: oneshot::Sender<Result<T, Error>>,
}

impl<T, F> Job for Pending<T, F>
where
    T: Send + 'static,
    F: FnOnce(&Connection) -> Result<T, Error> + Send + 'static,
{
    fn run(&mut self, connection: &mut Connection) {
        let Some(work) = self.work.take() else { return };
        // What undoes a failure: its savepoint, or, without one, the count of rows it changed.
        let rows_before = (self.guard == Guard::RefusesFirst).then(|| connection.total_changes());
        let outcome = catch_unwind(AssertUnwindSafe(|| match self.guard {
            Guard::Savepoint => {
                let savepoint = connection.savepoint()?;
                let value = work(&savepoint)?;
                savepoint.commit()?;
                Ok(value)
            }
            Guard::RefusesFirst => work(connection),
        }));
        let outcome = outcome.unwrap_or(Err(Error::Unavailable("a database write panicked")));
        if outcome.is_err() && rows_before.is_some_and(|before| connection.total_changes() != before) {
            // Its rows cannot be taken back alone: the batch's transaction goes with them, and
            // the writer answers every write of it with an error.
            tracing::error!("database writer: a write failed after writing; its batch is rolled back");
            if !connection.is_autocommit() {
                let _ = connection.execute_batch("ROLLBACK");
            }
        }
        self.outcome = Some(outcome);
    }

    fn fault(&self) -> Option<DatabaseFault> {
        match &self.outcome {
            Some(Err(Error::DatabaseDown(fault))) => Some(*fault),
            _ => None,
        }
    }

    fn answer(self: Box<Self>, commit: Result<(), &rusqlite::Error>) {
        let outcome = match (self.outcome, commit) {
            (Some(Ok(_)), Err(error)) => Err(Error::from(copy(error))),
            (Some(outcome), _) => outcome,
            (None, Err(error)) => Err(Error::from(copy(error))),
            (None, Ok(())) => Err(Error::Unavailable("a database write was not run")),
        };
        // The caller may have gone (client disconnected): the write stands either way.
        let _ = self.answer.send(outcome);
    }
}

fn write_batches(mut connection: Connection, jobs: mpsc::Receiver<Box<dyn Job>>, faults: &Faults, commits: &AtomicU64) {
    // What made SQLite roll the open transaction back, told to the jobs it took with it.
    let mut cause = None;
    while let Ok(first) = jobs.recv() {
        // The jobs run in the open transaction, answered once it is committed.
        // The batch: what was queued when the thread came round (not what arrives meanwhile,
        // which would keep the first writes waiting).
        let batch: Vec<Box<dyn Job>> = std::iter::once(first).chain(jobs.try_iter().take(MOST_PER_BATCH - 1)).collect();
        let mut open: Vec<Box<dyn Job>> = Vec::with_capacity(batch.len());
        for mut job in batch {
            if connection.is_autocommit() {
                // No transaction: none begun yet, or SQLite rolled it back on its own (a full
                // disk, an I/O error): the jobs run in it are lost, and a savepoint now would
                // commit on its own. Begin one.
                answer_all(std::mem::take(&mut open), Err(&rolled_back(cause)));
                if let Err(error) = connection.execute_batch("BEGIN IMMEDIATE") {
                    tracing::error!(%error, "database writer: cannot begin a transaction");
                    job.answer(Err(&error));
                    continue;
                }
                cause = None;
            }
            job.run(&mut connection);
            if let Some(fault) = job.fault() {
                faults.record(fault);
                cause = Some(fault);
            }
            open.push(job);
        }
        let commit = match connection.is_autocommit() {
            true => Err(rolled_back(cause)),
            false => connection.execute_batch("COMMIT"),
        };
        if commit.is_ok() {
            commits.fetch_add(1, Ordering::Relaxed);
        }
        if let Err(error) = &commit {
            tracing::error!(%error, "database writer: the batch is not committed");
            if let Error::DatabaseDown(fault) = Error::from(copy(error)) {
                faults.record(fault);
            }
            if !connection.is_autocommit() {
                let _ = connection.execute_batch("ROLLBACK");
            }
        }
        answer_all(open, commit.as_ref().map(|_| ()));
    }
}

fn answer_all(jobs: Vec<Box<dyn Job>>, commit: Result<(), &rusqlite::Error>) {
    for job in jobs {
        job.answer(commit);
    }
}

/// What the jobs of a transaction SQLite rolled back by itself are told: the fault that made
/// it roll back (a full disk, an I/O error) when a job met one.
fn rolled_back(cause: Option<DatabaseFault>) -> rusqlite::Error {
    let code = match cause {
        Some(DatabaseFault::Full) => ffi::SQLITE_FULL,
        Some(_) => ffi::SQLITE_IOERR,
        None => ffi::SQLITE_ABORT,
    };
    rusqlite::Error::SqliteFailure(ffi::Error::new(code), Some("SQLite rolled the transaction back".into()))
}

/// The commit's error, once per job of the batch (rusqlite's error is not `Clone`).
fn copy(error: &rusqlite::Error) -> rusqlite::Error {
    match error {
        rusqlite::Error::SqliteFailure(code, message) => rusqlite::Error::SqliteFailure(*code, message.clone()),
        other => rusqlite::Error::SqliteFailure(ffi::Error::new(ffi::SQLITE_ERROR), Some(other.to_string())),
    }
}

#[cfg(test)]
mod tests;
