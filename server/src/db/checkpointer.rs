//! Checkpoints off the writer: SQLite's automatic checkpoint runs inside the commit that
//! crosses 1,000 WAL pages, on the one writer thread, stalling every write queued behind it
//! (about 13% of the hand-over rate). This thread instead copies the WAL into the database
//! file twice a second with a PASSIVE checkpoint, which never blocks the writer.

use std::{path::Path, sync::Weak, time::Duration};

use rusqlite::{Connection, OpenFlags};

use crate::Error;

/// How often the WAL is checkpointed.
const EVERY: Duration = Duration::from_millis(500);

/// Starts the thread on its own connection to `path`; it ends once `alive` has no strong
/// reference left (the last [`super::Database`] handle dropped).
pub(super) fn start(path: &Path, alive: Weak<()>) -> Result<(), Error> {
    let connection = super::connect(path, OpenFlags::default())?;
    std::thread::Builder::new()
        .name("texto-db-checkpoint".into())
        .spawn(move || run(&connection, &alive))
        .map_err(Error::io("starting the database checkpoint thread"))?;
    Ok(())
}

fn run(connection: &Connection, alive: &Weak<()>) {
    while Weak::upgrade(alive).is_some() {
        std::thread::sleep(EVERY);
        if let Err(error) = connection.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
            tracing::warn!(%error, "WAL checkpoint failed; trying again");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Database;

    #[tokio::test]
    async fn the_wal_reaches_the_database_file_without_the_writer() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let path = dir.path().join("c.db");
        let db = Database::open(&path).expect("a database");
        db.write(|c| Ok(c.execute_batch("CREATE TABLE t (x TEXT)")?)).await.expect("a table");
        let before = std::fs::metadata(&path).expect("the file").len();
        db.write(|c| {
            for _ in 0..2_000 {
                c.execute("INSERT INTO t VALUES (?)", ["x".repeat(1_000)])?;
            }
            Ok(())
        })
        .await
        .expect("rows");
        assert!(
            std::fs::metadata(&path).expect("the file").len() < before + 1_000_000,
            "the commit itself does not checkpoint"
        );
        tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
        assert!(
            std::fs::metadata(&path).expect("the file").len() > before + 2_000_000,
            "the checkpoint thread copied the WAL"
        );
    }
}
