//! What the database drivers' errors (rusqlite, tokio-postgres, deadpool) become in texto's one
//! error type: a full disk, a failed write or an unreachable server is a fault of the database
//! (503), the rest is told as it is.

use tokio_postgres::error::SqlState;

use crate::{
    Error,
    store::faults::{DatabaseFault, postgres_detail},
};

impl From<rusqlite::Error> for Error {
    /// A full disk, an I/O error or a read-only file is a fault of the database, not of the
    /// request; the rest is told as it is.
    fn from(error: rusqlite::Error) -> Error {
        use rusqlite::ErrorCode;
        match error.sqlite_error_code() {
            Some(ErrorCode::DiskFull) => Error::DatabaseDown(DatabaseFault::Full),
            Some(ErrorCode::SystemIoFailure | ErrorCode::ReadOnly) => Error::DatabaseDown(DatabaseFault::CannotWrite),
            _ => Error::Database(error),
        }
    }
}

impl From<tokio_postgres::Error> for Error {
    /// A transaction PostgreSQL aborted to break a deadlock or a serialization conflict with
    /// a concurrent one wrote nothing: the request is contended, and goes through sent again.
    /// A connection that failed or closed, or a server shutting down, is unreachable; a full
    /// disk is full.
    fn from(error: tokio_postgres::Error) -> Error {
        match error.code() {
            Some(code) if *code == SqlState::T_R_DEADLOCK_DETECTED || *code == SqlState::T_R_SERIALIZATION_FAILURE => {
                Error::Contended(format!(
                    "a concurrent request wrote the same rows ({}): send this one again",
                    postgres_detail(&error)
                ))
            }
            Some(code) if *code == SqlState::DISK_FULL => Error::DatabaseDown(DatabaseFault::Full),
            Some(code) if *code == SqlState::READ_ONLY_SQL_TRANSACTION => {
                Error::DatabaseDown(DatabaseFault::CannotWrite)
            }
            Some(code)
                if *code == SqlState::ADMIN_SHUTDOWN
                    || *code == SqlState::CRASH_SHUTDOWN
                    || *code == SqlState::CANNOT_CONNECT_NOW =>
            {
                Error::DatabaseDown(DatabaseFault::Unreachable)
            }
            None if error.is_closed()
                || std::error::Error::source(&error).is_some_and(|s| s.is::<std::io::Error>()) =>
            {
                Error::DatabaseDown(DatabaseFault::Unreachable)
            }
            _ => Error::Postgres(error),
        }
    }
}

impl From<deadpool_postgres::PoolError> for Error {
    /// No connection could be had: unreachable, unless the server answered with an error.
    fn from(error: deadpool_postgres::PoolError) -> Error {
        match error {
            deadpool_postgres::PoolError::Backend(error) => Error::from(error),
            deadpool_postgres::PoolError::Timeout(_) | deadpool_postgres::PoolError::Closed => {
                Error::DatabaseDown(DatabaseFault::Unreachable)
            }
            other => Error::Pool(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DatabaseFault;
    use crate::Error;

    #[test]
    fn sqlite_full_and_io_errors_are_faults_and_others_are_not() {
        let sqlite = |code| Error::from(rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None));
        assert!(matches!(sqlite(rusqlite::ffi::SQLITE_FULL), Error::DatabaseDown(DatabaseFault::Full)));
        assert!(matches!(sqlite(rusqlite::ffi::SQLITE_IOERR), Error::DatabaseDown(DatabaseFault::CannotWrite)));
        assert!(matches!(sqlite(rusqlite::ffi::SQLITE_READONLY), Error::DatabaseDown(DatabaseFault::CannotWrite)));
        assert!(matches!(sqlite(rusqlite::ffi::SQLITE_CONSTRAINT), Error::Database(_)));
    }

    #[tokio::test]
    async fn a_postgresql_server_that_is_not_there_is_unreachable() {
        // A port nothing listens on: bound, then closed.
        let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a port").port();
        let refused =
            tokio_postgres::connect(&format!("postgres://texto@127.0.0.1:{port}/texto"), tokio_postgres::NoTls)
                .await
                .err()
                .expect("nothing answers");
        assert!(matches!(Error::from(refused), Error::DatabaseDown(DatabaseFault::Unreachable)));
    }
}
