//! Opening the store `--db` names: a file path (or `sqlite://PATH`) is the embedded SQLite
//! database, a `postgres://` URL is PostgreSQL, shared by every node started on it.

use std::{path::Path, sync::Arc};

use chrono::{DateTime, Utc};

use super::{Store, postgres::PgStore, sqlite::SqliteStore};
use crate::{Error, db::Database};

/// The database `--db` names.
enum Location<'a> {
    /// An SQLite file.
    Sqlite(&'a Path),
    /// A PostgreSQL URL.
    Postgres(&'a str),
}

fn location(db: &Path) -> Location<'_> {
    match db.to_str() {
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => Location::Postgres(url),
        Some(url) if url.starts_with("sqlite://") => Location::Sqlite(Path::new(&url["sqlite://".len()..])),
        _ => Location::Sqlite(db),
    }
}

/// The store of a serving node: migrated, its anti-flood window filled from the last hour.
pub(crate) async fn for_serving(db: &Path, now: DateTime<Utc>) -> Result<Arc<dyn Store>, Error> {
    Ok(match location(db) {
        Location::Sqlite(path) => Arc::new(SqliteStore::for_serving(Database::open(path)?, now).await?),
        Location::Postgres(url) => Arc::new(PgStore::for_serving(url, now).await?),
    })
}

/// The store of the operator's commands (`texto account`, `texto token`), migrated.
pub(crate) async fn for_commands(db: &Path) -> Result<Arc<dyn Store>, Error> {
    Ok(match location(db) {
        Location::Sqlite(path) => Arc::new(SqliteStore::for_commands(Database::open(path)?)),
        Location::Postgres(url) => Arc::new(PgStore::for_commands(url).await?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_or_sqlite_url_is_sqlite_and_a_postgres_url_is_postgres() {
        assert!(matches!(location(Path::new("data/texto.db")), Location::Sqlite(p) if p == Path::new("data/texto.db")));
        assert!(
            matches!(location(Path::new("sqlite:///var/lib/texto.db")), Location::Sqlite(p) if p == Path::new("/var/lib/texto.db"))
        );
        assert!(matches!(location(Path::new("postgres://texto:pw@db:5432/texto")), Location::Postgres(_)));
        assert!(matches!(location(Path::new("postgresql://db/texto")), Location::Postgres(_)));
    }
}
