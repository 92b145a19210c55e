//! The one error type of `texto-server`.

/// What can go wrong in the service.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The database could not be opened or answered with an error.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// The schema migrations could not be applied.
    #[error("database migration: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    /// A file or socket operation failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The underlying failure.
        source: std::io::Error,
    },
}

impl Error {
    /// Wraps an I/O failure with what was being attempted.
    pub(crate) fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        let context = context.into();
        move |source| Error::Io { context, source }
    }
}
