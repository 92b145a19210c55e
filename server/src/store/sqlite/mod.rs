//! The SQLite implementation of the store: reads on a pool, writes on one connection so
//! that transactions never wait on each other's locks.

mod accounts;
mod campaigns;
mod notification;
mod lists;
mod number_lists;
mod time;
mod webhooks;

use sqlx::SqlitePool;

/// SQLite behind the [`super::Store`] traits.
#[derive(Clone)]
pub(crate) struct SqliteStore {
    read: SqlitePool,
    write: SqlitePool,
}

impl SqliteStore {
    /// A store over the pools [`crate::db::open`] made.
    pub(crate) fn new(read: SqlitePool, write: SqlitePool) -> SqliteStore {
        SqliteStore { read, write }
    }
}
