//! The embedded SQLite database: read connections used from tokio's blocking threads, and one
//! writer thread that commits the writes queued meanwhile in one transaction (group commit).
//!
//! A query through an async driver costs a thread hand-off per statement; here a whole store
//! operation (several statements) is one hand-off, and a busy writer commits many requests'
//! writes at once, each in its own savepoint so that one failing request rolls back alone.

mod checkpointer;
mod migrate;
mod readers;
mod writer;

use std::{path::Path, sync::Arc, time::Duration};

use rusqlite::{Connection, OpenFlags};

use crate::Error;
use writer::Guard;

/// Read connections: as many store reads run at once.
const READERS: usize = 4;

/// The size the WAL is cut back to each time it starts over (SQLite's `journal_size_limit`):
/// a burst grows it, and the next reset after the burst gives the disk back.
const WAL_SIZE_LIMIT_BYTES: i64 = 64 * 1024 * 1024;

/// A handle on the database; cheap to clone.
#[derive(Clone)]
pub(crate) struct Database {
    path: Arc<std::path::PathBuf>,
    readers: Arc<readers::Readers>,
    writer: writer::Writer,
    /// Keeps the checkpoint thread going while any handle lives.
    _checkpoints: Arc<()>,
}

impl Database {
    /// Opens (creating if needed) the database at `path`, applies the embedded migrations, and
    /// starts the writer thread.
    pub(crate) fn open(path: &Path) -> Result<Database, Error> {
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(Error::io(format!("creating {}", folder.display())))?;
        }
        let mut write = connect(path, OpenFlags::default())?;
        write.pragma_update(None, "journal_mode", "WAL")?;
        // Checkpoints run on their own thread (checkpointer.rs), not in the writer's commits.
        write.pragma_update(None, "wal_autocheckpoint", 0)?;
        // Each job of a batch runs in a savepoint, which keeps the pages it changes that earlier
        // jobs had already changed (its statement journal). In a file, that is a write system
        // call and a copy through the kernel per page and per job, for a journal that only lives
        // until the batch commits: in memory instead. A job's journal holds at most the pages
        // that one job changes (retention deletes in chunks, campaigns mostly append).
        write.pragma_update(None, "temp_store", "MEMORY")?;
        migrate::run(&mut write)?;
        let writer = writer::Writer::start(write)?;
        let checkpoints = Arc::new(());
        checkpointer::start(path, Arc::downgrade(&checkpoints), writer.commits())?;
        let readers = (0..READERS)
            .map(|_| connect(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Database {
            path: Arc::new(path.to_owned()),
            readers: Arc::new(readers::Readers::new(readers)),
            writer,
            _checkpoints: checkpoints,
        })
    }

    /// Copies the whole WAL into the database file and empties it: called at shutdown, once
    /// nothing writes any more, so that a stopped texto leaves only its database file.
    pub(crate) async fn truncate_wal(&self) -> Result<bool, Error> {
        let path = Arc::clone(&self.path);
        tokio::task::spawn_blocking(move || checkpointer::truncate(&connect(&path, OpenFlags::default())?))
            .await
            .map_err(|_| Error::Unavailable("the final checkpoint stopped unexpectedly"))?
    }

    /// Runs `work` on a read connection, off the async threads.
    pub(crate) async fn read<T, F>(&self, work: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, Error> + Send + 'static,
    {
        self.readers.run(work).await
    }

    /// Runs `work` on a read connection right here, on the calling async thread: only for
    /// point look-ups through an index (a token, a handful of numbers), which take
    /// microseconds, less than handing them to another thread would.
    pub(crate) async fn look_up<T>(&self, work: impl FnOnce(&Connection) -> Result<T, Error>) -> Result<T, Error> {
        self.readers.run_here(work).await
    }

    /// The fault a write met in the last few seconds (a full disk, an I/O error), if any.
    pub(crate) fn recent_fault(&self) -> Option<crate::store::faults::DatabaseFault> {
        self.writer.recent_fault()
    }

    /// Runs `work` on the writer connection inside a savepoint of the next batch; answers
    /// once that batch is committed, so an `Ok` is durable.
    pub(crate) async fn write<T, F>(&self, work: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, Error> + Send + 'static,
    {
        self.writer.run(Guard::Savepoint, work).await
    }

    /// Like [`Database::write`], without a savepoint of its own: only for `work` that checks
    /// everything it may refuse for before its first write (see [`Guard::RefusesFirst`]).
    pub(crate) async fn write_refusing_first<T, F>(&self, work: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, Error> + Send + 'static,
    {
        self.writer.run(Guard::RefusesFirst, work).await
    }
}

/// A connection with texto's settings: every commit synced to disk before it returns (the
/// group commit pays one sync for a whole batch), foreign keys, and a wait instead of an
/// error when another process (the `texto` commands) holds the write lock.
fn connect(path: &Path, flags: OpenFlags) -> Result<Connection, Error> {
    let connection = Connection::open_with_flags(path, flags)?;
    connection.busy_timeout(Duration::from_secs(10))?;
    connection.pragma_update(None, "synchronous", "FULL")?;
    connection.pragma_update(None, "foreign_keys", "ON")?;
    connection.pragma_update(None, "journal_size_limit", WAL_SIZE_LIMIT_BYTES)?;
    connection.pragma_update(None, "cache_size", -32768)?;
    connection.set_prepared_statement_cache_capacity(64);
    Ok(connection)
}

/// `?, ?, ?` for `n` values, for `IN (…)` lists.
pub(crate) fn placeholders(n: usize) -> String {
    let mut list = "?, ".repeat(n);
    list.truncate(list.len().saturating_sub(2));
    list
}
