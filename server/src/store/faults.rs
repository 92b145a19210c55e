//! The store's faults: why the database cannot serve for now, and how PostgreSQL's errors are
//! told. What the drivers' errors become in texto's one error type is in `driver_errors.rs`.

/// Why the database cannot serve for now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DatabaseFault {
    /// Its disk is full (SQLite's file, or PostgreSQL's).
    Full,
    /// It cannot write to its disk for another reason (an I/O error, a read-only file or
    /// server).
    CannotWrite,
    /// No connection to it can be had (PostgreSQL down, or the network to it).
    Unreachable,
}

impl DatabaseFault {
    /// One or two words for monitors (`/health`'s `database`).
    pub(crate) fn short_name(self) -> &'static str {
        match self {
            DatabaseFault::Full => "full",
            DatabaseFault::CannotWrite => "cannot write",
            DatabaseFault::Unreachable => "unreachable",
        }
    }
}

impl std::fmt::Display for DatabaseFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DatabaseFault::Full => "the database is full",
            DatabaseFault::CannotWrite => "the database cannot write to its disk",
            DatabaseFault::Unreachable => "the database is unreachable",
        })
    }
}

/// PostgreSQL's own message and code for a database error (tokio-postgres shows "db error").
pub(crate) fn postgres_detail(error: &tokio_postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => format!("{} ({})", db.message(), db.code().code()),
        None => error.to_string(),
    }
}
