//! Opening the store `--db` names: a file path (or `sqlite://PATH`) is the embedded SQLite
//! database, a `postgres://` URL is PostgreSQL, shared by every node started on it.

use std::{
    path::{Path, PathBuf},
    str::FromStr,
    sync::Arc,
};

use chrono::{DateTime, Utc};

use super::{Store, postgres::PgStore, sqlite::SqliteStore};
use crate::{Error, db::Database};

/// Where texto keeps its data (`--db`), read once from the flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DbLocation {
    /// An SQLite file (created with its folder if missing).
    Sqlite(PathBuf),
    /// A PostgreSQL URL (`postgres://user:password@host:port/database`).
    Postgres(String),
}

impl FromStr for DbLocation {
    type Err = String;

    /// A `postgres://` or `postgresql://` URL is PostgreSQL; `sqlite://PATH` or any other text
    /// is the path of an SQLite file.
    fn from_str(text: &str) -> Result<DbLocation, String> {
        if text.trim().is_empty() {
            return Err("give an SQLite file path or a postgres:// URL".into());
        }
        Ok(if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            DbLocation::Postgres(text.to_owned())
        } else {
            DbLocation::Sqlite(PathBuf::from(text.strip_prefix("sqlite://").unwrap_or(text)))
        })
    }
}

impl std::fmt::Display for DbLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbLocation::Sqlite(path) => write!(f, "{}", path.display()),
            DbLocation::Postgres(url) => f.write_str(url),
        }
    }
}

impl From<&Path> for DbLocation {
    /// The location a path names: a PostgreSQL URL held in a path is PostgreSQL.
    fn from(path: &Path) -> DbLocation {
        match path.to_str().map(DbLocation::from_str) {
            Some(Ok(location)) => location,
            _ => DbLocation::Sqlite(path.to_owned()),
        }
    }
}

impl From<&PathBuf> for DbLocation {
    fn from(path: &PathBuf) -> DbLocation {
        DbLocation::from(path.as_path())
    }
}

impl From<PathBuf> for DbLocation {
    fn from(path: PathBuf) -> DbLocation {
        DbLocation::from(path.as_path())
    }
}

impl From<&DbLocation> for DbLocation {
    fn from(location: &DbLocation) -> DbLocation {
        location.clone()
    }
}

/// The store of a serving node: migrated, its anti-flood window filled from the last hour.
pub(crate) async fn for_serving(db: &DbLocation, now: DateTime<Utc>) -> Result<Arc<dyn Store>, Error> {
    Ok(match db {
        DbLocation::Sqlite(path) => Arc::new(SqliteStore::for_serving(Database::open(path)?, now).await?),
        DbLocation::Postgres(url) => Arc::new(PgStore::for_serving(url, now).await?),
    })
}

/// The store of the operator's commands (`texto account`, `texto token`), migrated.
pub(crate) async fn for_commands(db: &DbLocation) -> Result<Arc<dyn Store>, Error> {
    Ok(match db {
        DbLocation::Sqlite(path) => Arc::new(SqliteStore::for_commands(Database::open(path)?)),
        DbLocation::Postgres(url) => Arc::new(PgStore::for_commands(url).await?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_or_sqlite_url_is_sqlite_and_a_postgres_url_is_postgres() {
        let parse = |text: &str| text.parse::<DbLocation>();
        assert_eq!(parse("data/texto.db"), Ok(DbLocation::Sqlite("data/texto.db".into())));
        assert_eq!(parse("sqlite:///var/lib/texto.db"), Ok(DbLocation::Sqlite("/var/lib/texto.db".into())));
        assert_eq!(
            parse("postgres://texto:pw@db:5432/texto"),
            Ok(DbLocation::Postgres("postgres://texto:pw@db:5432/texto".into()))
        );
        assert_eq!(parse("postgresql://db/texto"), Ok(DbLocation::Postgres("postgresql://db/texto".into())));
        assert!(parse(" ").is_err());
        assert_eq!(DbLocation::from(Path::new("postgres://db/t")), DbLocation::Postgres("postgres://db/t".into()));
    }
}
