//! Checkpoints off the writer: SQLite's automatic checkpoint runs inside the commit that
//! crosses 1,000 WAL pages, on the one writer thread, stalling every write queued behind it.
//! This thread instead copies the WAL into the database
//! file twice a second with a PASSIVE checkpoint, which never blocks the writer; and once the
//! writer has been idle for a tick, a TRUNCATE checkpoint empties the WAL file, which a burst
//! grew (a passive checkpoint never shrinks it). `journal_size_limit` (see `connect`) cuts it back at each reset as well.

use std::{
    path::Path,
    sync::{
        Arc, Weak,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use rusqlite::{Connection, OpenFlags};

use crate::Error;

/// How often the WAL is checkpointed.
const EVERY: Duration = Duration::from_millis(500);

/// Starts the thread on its own connection to `path`; it ends once `alive` has no strong
/// reference left (the last [`super::Database`] handle dropped). `commits` counts the writer's
/// commits: unchanged over a tick, the writer is idle.
pub(super) fn start(path: &Path, alive: Weak<()>, commits: Arc<AtomicU64>) -> Result<(), Error> {
    let connection = super::connect(path, OpenFlags::default())?;
    std::thread::Builder::new()
        .name("texto-db-checkpoint".into())
        .spawn(move || run(&connection, &alive, &commits))
        .map_err(Error::io("starting the database checkpoint thread"))?;
    Ok(())
}

fn run(connection: &Connection, alive: &Weak<()>, commits: &AtomicU64) {
    let (mut seen, mut emptied) = (commits.load(Ordering::Relaxed), true);
    while Weak::upgrade(alive).is_some() {
        std::thread::sleep(EVERY);
        let now = commits.load(Ordering::Relaxed);
        let checkpoint = if now != seen {
            (seen, emptied) = (now, false);
            passive(connection)
        } else if !emptied {
            truncate(connection).map(|done| emptied = done)
        } else {
            Ok(())
        };
        if let Err(error) = checkpoint {
            tracing::warn!(%error, "WAL checkpoint failed; trying again");
        }
    }
    match truncate(connection) {
        Ok(true) => {}
        Ok(false) => tracing::warn!("the last WAL checkpoint was held off by a reader"),
        Err(error) => tracing::warn!(%error, "the last WAL checkpoint failed"),
    }
}

fn passive(connection: &Connection) -> Result<(), Error> {
    Ok(connection.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?)
}

/// Copies the whole WAL into the database file and empties the WAL file: waits for readers
/// (the busy timeout) and holds writers off meanwhile. `false` when a reader kept it from
/// finishing (tried again at the next idle tick).
pub(super) fn truncate(connection: &Connection) -> Result<bool, Error> {
    let busy: i64 = connection.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))?;
    Ok(busy == 0)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::Database;

    fn wal_size(path: &std::path::Path) -> u64 {
        std::fs::metadata(path.with_extension("db-wal")).map_or(0, |m| m.len())
    }

    #[tokio::test]
    async fn the_wal_reaches_the_database_file_without_the_writer_and_is_emptied_when_idle() {
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
        assert!(wal_size(&path) > 2_000_000, "the rows are in the WAL");
        tokio::time::sleep(Duration::from_millis(1_800)).await;
        assert!(
            std::fs::metadata(&path).expect("the file").len() > before + 2_000_000,
            "the checkpoint thread copied the WAL"
        );
        assert_eq!(wal_size(&path), 0, "the idle writer's WAL was emptied");
    }

    #[tokio::test]
    async fn the_final_checkpoint_leaves_an_empty_wal() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let path = dir.path().join("s.db");
        let db = Database::open(&path).expect("a database");
        db.write(|c| Ok(c.execute_batch("CREATE TABLE t (x TEXT)")?)).await.expect("a table");
        db.write(|c| Ok(c.execute("INSERT INTO t VALUES (?)", ["x".repeat(100_000)])?)).await.expect("a row");
        assert!(wal_size(&path) > 100_000);
        assert!(db.truncate_wal().await.expect("the final checkpoint"), "nothing held it off");
        assert_eq!(wal_size(&path), 0);
        let limit: i64 =
            db.read(|c| Ok(c.query_row("PRAGMA journal_size_limit", [], |r| r.get(0))?)).await.expect("a pragma");
        assert_eq!(limit, 64 * 1024 * 1024);
    }
}
