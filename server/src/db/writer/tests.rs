//! The writer thread's promises: what is answered is committed, a failing write takes
//! nothing else with it unless it must, and the thread outlives a panic.

use std::time::Duration;

use super::*;

/// A writer on a new WAL database (in the returned folder, `writer.db`) with a `notes` table.
fn notes() -> (tempfile::TempDir, Writer) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let connection = Connection::open(dir.path().join("writer.db")).expect("a database");
    connection.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE notes (text TEXT NOT NULL)").expect("a table");
    (dir, Writer::start(connection).expect("a writer"))
}

/// A write that keeps the writer busy for 200 ms, so that writes queued meanwhile make
/// one batch.
async fn hold(writer: &Writer) -> Result<usize, Error> {
    writer
        .run(Guard::Savepoint, |db| {
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
        .execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE notes (text TEXT NOT NULL); PRAGMA max_page_count = 8")
        .expect("a small database");
    let writer = Writer::start(connection).expect("a writer");
    assert_eq!(writer.recent_fault(), None);
    let full = writer
        .run(Guard::Savepoint, |db| {
            for _ in 0..100 {
                db.execute("INSERT INTO notes VALUES (?)", ["x".repeat(1_000)])?;
            }
            Ok(())
        })
        .await;
    assert!(matches!(full, Err(Error::DatabaseDown(DatabaseFault::Full))), "{full:?}");
    assert_eq!(writer.recent_fault(), Some(DatabaseFault::Full));
    // A small write that fits still goes through; the fault is still told.
    writer.run(Guard::Savepoint, note("small")).await.expect("a small write");
    assert_eq!(writer.recent_fault(), Some(DatabaseFault::Full));
}

/// The notes another connection sees in the database at `path`, in the order written.
fn committed(path: &std::path::Path) -> Vec<String> {
    let reader = Connection::open(path).expect("a second connection");
    reader
        .prepare("SELECT text FROM notes ORDER BY rowid")
        .and_then(|mut query| query.query_map([], |row| row.get(0))?.collect())
        .expect("the notes")
}

/// A write that adds the note `text`.
fn note(text: &'static str) -> impl FnOnce(&Connection) -> Result<usize, Error> + Send + 'static {
    move |db| Ok(db.execute("INSERT INTO notes VALUES (?)", [text])?)
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
            writer.run(Guard::Savepoint, note("a")),
            writer.run(Guard::Savepoint, |db| {
                db.execute("INSERT INTO notes VALUES ('written, then undone')", [])?;
                Err::<usize, _>(Error::Command("refused after writing".into()))
            }),
            writer.run(Guard::Savepoint, note("b")),
        )
    };
    let (first, (a, failed, b)) = behind_a_held_write(&writer, three).await;
    assert!(first.is_ok() && a.is_ok() && b.is_ok());
    assert!(matches!(failed, Err(Error::Command(_))));

    // Answered means committed: another connection sees exactly the three good rows.
    let reader = Connection::open(&path).expect("a second connection");
    assert_eq!(count(&reader), 3);
    let undone: i64 =
        reader.query_row("SELECT COUNT(*) FROM notes WHERE text LIKE 'written%'", [], |row| row.get(0)).unwrap_or(-1);
    assert_eq!(undone, 0);
}

#[tokio::test]
async fn when_sqlite_drops_the_transaction_its_writes_fail_and_the_rest_commit() {
    let (dir, writer) = notes();
    let path = dir.path().join("writer.db");
    let three = async {
        tokio::join!(
            writer.run(Guard::Savepoint, note("lost with the transaction")),
            // What a full disk does: SQLite rolls the whole transaction back.
            writer.run(Guard::Savepoint, |db| Ok(db.execute_batch("ROLLBACK")?)),
            writer.run(Guard::Savepoint, note("after")),
        )
    };
    let (first, (lost, rogue, after)) = behind_a_held_write(&writer, three).await;
    assert!(first.is_ok());
    assert!(lost.is_err(), "its transaction is gone: it must not be answered as written");
    assert!(rogue.is_err());
    assert_eq!(after.ok(), Some(1), "a new transaction serves the rest of the batch");
    assert_eq!(committed(&path), ["first", "after"]);
}

#[tokio::test]
async fn a_panicking_write_is_an_error_and_the_writer_goes_on() {
    let connection = Connection::open_in_memory().expect("a database");
    connection.execute_batch("CREATE TABLE notes (text TEXT NOT NULL)").expect("a table");
    let writer = Writer::start(connection).expect("a writer");
    let panicked = writer.run(Guard::Savepoint, |_| -> Result<(), Error> { panic!("a bug in a write") }).await;
    assert!(matches!(panicked, Err(Error::Unavailable(_))));
    let after = writer.run(Guard::Savepoint, note("still writing")).await;
    assert_eq!(after.ok(), Some(1));
    assert_eq!(writer.run(Guard::Savepoint, |db| Ok(count(db))).await.ok(), Some(1));
}

#[tokio::test]
async fn work_that_refuses_before_writing_takes_nothing_else_with_it() {
    let (dir, writer) = notes();
    let three = async {
        tokio::join!(
            writer.run(Guard::RefusesFirst, note("a")),
            writer.run(Guard::RefusesFirst, |db| {
                // Reads, then refuses: nothing of it to undo.
                let _ = count(db);
                Err::<usize, _>(Error::Command("refused before writing".into()))
            }),
            writer.run(Guard::Savepoint, note("b")),
        )
    };
    let (first, (a, refused, b)) = behind_a_held_write(&writer, three).await;
    assert!(first.is_ok() && a.is_ok() && b.is_ok(), "{a:?} {b:?}");
    assert!(matches!(refused, Err(Error::Command(_))));
    let reader = Connection::open(dir.path().join("writer.db")).expect("a second connection");
    assert_eq!(count(&reader), 3);
}

#[tokio::test]
async fn work_without_a_savepoint_that_fails_after_writing_fails_its_whole_transaction() {
    let (dir, writer) = notes();
    let four = async {
        tokio::join!(
            writer.run(Guard::Savepoint, note("lost with the batch")),
            writer.run(Guard::RefusesFirst, |db| {
                db.execute("INSERT INTO notes VALUES ('written, then failed')", [])?;
                Err::<usize, _>(Error::Command("failed after writing".into()))
            }),
            writer.run(Guard::RefusesFirst, note("after")),
            writer.run(Guard::Savepoint, note("after too")),
        )
    };
    let (first, (lost, failed, after, after_too)) = behind_a_held_write(&writer, four).await;
    assert!(first.is_ok(), "the held write was a batch of its own: {first:?}");
    // The first write of the batch ran in the failing one's transaction: rolled back with it,
    // so not answered as written.
    assert!(lost.is_err(), "{lost:?}");
    assert!(matches!(failed, Err(Error::Command(_))), "the failing write is told its own error: {failed:?}");
    assert_eq!((after.ok(), after_too.ok()), (Some(1), Some(1)), "a new transaction serves the rest");
    assert_eq!(committed(&dir.path().join("writer.db")), ["first", "after", "after too"]);
}
