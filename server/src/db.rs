//! Opening the embedded SQLite database and bringing its schema up to date.

use std::{path::Path, str::FromStr, time::Duration};

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};

use crate::Error;

/// Opens (creating if needed) the database at `path`, applies the embedded migrations, and
/// returns `(read pool, write pool)`. The write pool has one connection: SQLite allows one
/// writer at a time, and queueing in the pool is cheaper than retrying on a busy lock.
pub async fn open(path: &Path) -> Result<(SqlitePool, SqlitePool), Error> {
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(Error::io(format!("creating {}", folder.display())))?;
    }
    let options = SqliteConnectOptions::from_str("sqlite:")?
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(10));
    let write = SqlitePoolOptions::new().max_connections(1).connect_with(options.clone()).await?;
    sqlx::migrate!("./migrations").run(&write).await?;
    let read = SqlitePoolOptions::new().max_connections(8).connect_with(options.read_only(true)).await?;
    Ok((read, write))
}
