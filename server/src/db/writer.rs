//! The writer thread: owns the one write connection, takes every write queued since its last
//! commit, runs each in a savepoint of one transaction, commits once, then answers them all.

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

    /// Queues `work` and waits for its batch's commit.
    pub(super) async fn run<T, F>(&self, work: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, Error> + Send + 'static,
    {
        let (answer, answered) = oneshot::channel();
        let job = Pending { work: Some(work), outcome: None, answer };
        self.queue.send(Box::new(job)).map_err(|_| Error::Unavailable("the database writer has stopped"))?;
        answered.await.map_err(|_| Error::Unavailable("the database writer has stopped"))?
    }
}

/// A queued write, type-erased so that one queue carries them all.
trait Job: Send {
    /// Runs the work in its own savepoint: released on success, rolled back on error.
    fn run(&mut self, connection: &mut Connection);
    /// Sends the outcome, now that the batch's commit (or its failure) is known.
    fn answer(self: Box<Self>, commit: Result<(), &rusqlite::Error>);
    /// The fault of the database its work met, if it failed for one.
    fn fault(&self) -> Option<DatabaseFault>;
}

struct Pending<T, F> {
    work: Option<F>,
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
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let savepoint = connection.savepoint()?;
            let value = work(&savepoint)?;
            savepoint.commit()?;
            Ok(value)
        }));
        self.outcome = Some(outcome.unwrap_or(Err(Error::Unavailable("a database write panicked"))));
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
mod tests {
    use std::time::Duration;

    use super::*;

    /// A writer on a new WAL database (in the returned folder, `writer.db`) with a `notes` table.
    fn notes() -> (tempfile::TempDir, Writer) {
        let dir = tempfile::tempdir().expect("a temp dir");
        let connection = Connection::open(dir.path().join("writer.db")).expect("a database");
        connection
            .execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE notes (text TEXT NOT NULL)")
            .expect("a table");
        (dir, Writer::start(connection).expect("a writer"))
    }

    /// A write that keeps the writer busy for 200 ms, so that writes queued meanwhile make
    /// one batch.
    async fn hold(writer: &Writer) -> Result<usize, Error> {
        writer
            .run(|db| {
                std::thread::sleep(Duration::from_millis(200));
                Ok(db.execute("INSERT INTO notes VALUES ('first')", [])?)
            })
            .await
    }

    /// Runs `queued` while [`hold`] keeps the writer busy, so that the writes it queues make
    /// one batch. Returns the held write's answer and `queued`'s output.
    async fn behind_a_held_write<T>(writer: &Writer, queued: impl Future<Output = T>) -> (Result<usize, Error>, T) {
        let queued = async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            queued.await
        };
        tokio::join!(hold(writer), queued)
    }

    #[tokio::test]
    async fn a_full_database_fails_writes_as_full_and_says_so_for_a_while() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let connection = Connection::open(dir.path().join("full.db")).expect("a database");
        // SQLite's own limit on the file's pages: past it, writes fail with SQLITE_FULL, as on
        // a full disk.
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL; CREATE TABLE notes (text TEXT NOT NULL); PRAGMA max_page_count = 8",
            )
            .expect("a small database");
        let writer = Writer::start(connection).expect("a writer");
        assert_eq!(writer.recent_fault(), None);
        let full = writer
            .run(|db| {
                for _ in 0..100 {
                    db.execute("INSERT INTO notes VALUES (?)", ["x".repeat(1_000)])?;
                }
                Ok(())
            })
            .await;
        assert!(matches!(full, Err(Error::DatabaseDown(DatabaseFault::Full))), "{full:?}");
        assert_eq!(writer.recent_fault(), Some(DatabaseFault::Full));
        // A small write that fits still goes through; the fault is still told.
        writer.run(|db| Ok(db.execute("INSERT INTO notes VALUES ('small')", [])?)).await.expect("a small write");
        assert_eq!(writer.recent_fault(), Some(DatabaseFault::Full));
    }

    fn count(connection: &Connection) -> i64 {
        connection.query_row("SELECT COUNT(*) FROM notes", [], |row| row.get(0)).unwrap_or(-1)
    }

    #[tokio::test]
    async fn a_failing_write_rolls_back_alone_and_its_batch_commits() {
        let (dir, writer) = notes();
        let path = dir.path().join("writer.db");

        let three = async {
            tokio::join!(
                writer.run(|db| Ok(db.execute("INSERT INTO notes VALUES ('a')", [])?)),
                writer.run(|db| {
                    db.execute("INSERT INTO notes VALUES ('written, then undone')", [])?;
                    Err::<usize, _>(Error::Command("refused after writing".into()))
                }),
                writer.run(|db| Ok(db.execute("INSERT INTO notes VALUES ('b')", [])?)),
            )
        };
        let (first, (a, failed, b)) = behind_a_held_write(&writer, three).await;
        assert!(first.is_ok() && a.is_ok() && b.is_ok());
        assert!(matches!(failed, Err(Error::Command(_))));

        // Answered means committed: another connection sees exactly the three good rows.
        let reader = Connection::open(&path).expect("a second connection");
        assert_eq!(count(&reader), 3);
        let undone: i64 = reader
            .query_row("SELECT COUNT(*) FROM notes WHERE text LIKE 'written%'", [], |row| row.get(0))
            .unwrap_or(-1);
        assert_eq!(undone, 0);
    }

    #[tokio::test]
    async fn when_sqlite_drops_the_transaction_its_writes_fail_and_the_rest_commit() {
        let (dir, writer) = notes();
        let path = dir.path().join("writer.db");
        let three = async {
            tokio::join!(
                writer.run(|db| Ok(db.execute("INSERT INTO notes VALUES ('lost with the transaction')", [])?)),
                // What a full disk does: SQLite rolls the whole transaction back.
                writer.run(|db| Ok(db.execute_batch("ROLLBACK")?)),
                writer.run(|db| Ok(db.execute("INSERT INTO notes VALUES ('after')", [])?)),
            )
        };
        let (first, (lost, rogue, after)) = behind_a_held_write(&writer, three).await;
        assert!(first.is_ok());
        assert!(lost.is_err(), "its transaction is gone: it must not be answered as written");
        assert!(rogue.is_err());
        assert_eq!(after.ok(), Some(1), "a new transaction serves the rest of the batch");
        let reader = Connection::open(&path).expect("a second connection");
        let texts: Vec<String> = reader
            .prepare("SELECT text FROM notes ORDER BY rowid")
            .and_then(|mut query| query.query_map([], |row| row.get(0))?.collect())
            .expect("the notes");
        assert_eq!(texts, ["first", "after"]);
    }

    #[tokio::test]
    async fn a_panicking_write_is_an_error_and_the_writer_goes_on() {
        let connection = Connection::open_in_memory().expect("a database");
        connection.execute_batch("CREATE TABLE notes (text TEXT NOT NULL)").expect("a table");
        let writer = Writer::start(connection).expect("a writer");
        let panicked = writer.run(|_| -> Result<(), Error> { panic!("a bug in a write") }).await;
        assert!(matches!(panicked, Err(Error::Unavailable(_))));
        let after = writer.run(|db| Ok(db.execute("INSERT INTO notes VALUES ('still writing')", [])?)).await;
        assert_eq!(after.ok(), Some(1));
        assert_eq!(writer.run(|db| Ok(count(db))).await.ok(), Some(1));
    }
}
