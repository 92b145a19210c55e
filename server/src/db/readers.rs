//! The read connections: a store read takes one, runs on a blocking thread, and gives it back.

use std::sync::{Arc, Mutex, PoisonError};

use rusqlite::Connection;
use tokio::sync::Semaphore;

use crate::Error;

/// Idle read connections, and a permit for each. Whoever holds a permit holds a connection:
/// a permit is given back only after its connection.
pub(super) struct Readers {
    idle: Mutex<Vec<Connection>>,
    permits: Arc<Semaphore>,
}

impl Readers {
    pub(super) fn new(connections: Vec<Connection>) -> Readers {
        Readers { permits: Arc::new(Semaphore::new(connections.len())), idle: Mutex::new(connections) }
    }

    /// Waits for a free connection, then runs `work` with it on tokio's blocking threads.
    pub(super) async fn run<T, F>(self: &Arc<Self>, work: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, Error> + Send + 'static,
    {
        let permit = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .map_err(|_| Error::Unavailable("the database is closed"))?;
        let readers = Arc::clone(self);
        // The permit goes with the work: if the caller is dropped (its client went away), the
        // connection stays counted as busy until the blocking task has put it back.
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let borrowed = Borrowed { readers: &readers, connection: readers.take() };
            match &borrowed.connection {
                Some(connection) => work(connection),
                None => Err(Error::Unavailable("no read connection is free")),
            }
        })
        .await
        .map_err(|_| Error::Unavailable("a database read stopped unexpectedly"))?
    }

    /// Waits for a free connection, then runs `work` with it on the calling thread.
    pub(super) async fn run_here<T>(&self, work: impl FnOnce(&Connection) -> Result<T, Error>) -> Result<T, Error> {
        let _permit = self.permits.acquire().await.map_err(|_| Error::Unavailable("the database is closed"))?;
        let borrowed = Borrowed { readers: self, connection: self.take() };
        match &borrowed.connection {
            Some(connection) => work(connection),
            None => Err(Error::Unavailable("no read connection is free")),
        }
    }

    fn take(&self) -> Option<Connection> {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop()
    }
}

/// A connection out of the pool, put back when dropped (also if the work panics).
struct Borrowed<'a> {
    readers: &'a Readers,
    connection: Option<Connection>,
}

impl Drop for Borrowed<'_> {
    fn drop(&mut self) {
        if let Some(connection) = self.connection.take() {
            self.readers.idle.lock().unwrap_or_else(PoisonError::into_inner).push(connection);
        }
    }
}
