//! The stores the contract runs on: SQLite in a temporary folder, and PostgreSQL in a fresh
//! database on `TEXTO_TEST_POSTGRES` when it is set.

use std::fmt;

use crate::{
    db::Database,
    store::{Store, postgres::PgStore, sqlite::SqliteStore},
};

/// One store under test.
pub(super) enum Backend {
    /// SQLite, with the folder that holds its file (removed when the backend is dropped).
    Sqlite(SqliteStore, #[allow(dead_code, reason = "kept for its Drop")] tempfile::TempDir),
    /// PostgreSQL, in a fresh database.
    Postgres(PgStore),
}

impl Backend {
    /// SQLite, and PostgreSQL when a server is given.
    pub(super) async fn all() -> Vec<Backend> {
        let dir = tempfile::tempdir().expect("a temp dir");
        let sqlite = SqliteStore::for_commands(Database::open(&dir.path().join("t.db")).expect("an SQLite database"));
        let mut all = vec![Backend::Sqlite(sqlite, dir)];
        if let Some(url) = postgres_database().await {
            all.push(Backend::Postgres(
                PgStore::for_serving(&url, chrono::Utc::now()).await.expect("a PostgreSQL store"),
            ));
        }
        all
    }

    /// The store.
    pub(super) fn store(&self) -> &dyn Store {
        match self {
            Backend::Sqlite(store, _) => super::as_store(store),
            Backend::Postgres(store) => super::as_store(store),
        }
    }

    /// Runs `sql` (statements valid on both databases) as a test's set-up.
    pub(super) async fn execute(&self, sql: &str) {
        match self {
            Backend::Sqlite(store, _) => store.execute_batch(sql).await,
            Backend::Postgres(store) => store.execute_batch(sql).await,
        }
        .expect("the set-up statements run");
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Backend::Sqlite(..) => "SQLite",
            Backend::Postgres(_) => "PostgreSQL",
        })
    }
}

/// A new database on the `TEXTO_TEST_POSTGRES` server, if one is named.
pub(super) async fn postgres_database() -> Option<String> {
    let server = std::env::var("TEXTO_TEST_POSTGRES").ok()?;
    let (client, connection) =
        tokio_postgres::connect(&server, tokio_postgres::NoTls).await.expect("the PostgreSQL server answers");
    tokio::spawn(connection);
    let mut name = [0u8; 8];
    getrandom::fill(&mut name).expect("randomness");
    let name = format!("texto_contract_{}", hex::encode(name));
    client.batch_execute(&format!("CREATE DATABASE {name}")).await.expect("a database");
    let (base, _) = server.rsplit_once('/').expect("a URL ending in /DATABASE");
    Some(format!("{base}/{name}"))
}
