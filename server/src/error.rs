//! The one error type of `texto-server`, and its mapping to HTTP (docs/interface.md §1.4), in one place.

use axum::{
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use texto_core::FieldError;
use tokio_postgres::error::SqlState;

/// What can go wrong in the service.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The database could not be opened or answered with an error.
    #[error("database: {0}")]
    Database(rusqlite::Error),
    /// The database cannot take writes or cannot be reached: a passing outage, told to
    /// clients as 503 with `Retry-After` (status -11).
    #[error("{0}")]
    DatabaseDown(DatabaseFault),
    /// PostgreSQL answered with an error or the connection failed.
    #[error("database: {}", postgres_detail(.0))]
    Postgres(tokio_postgres::Error),
    /// No PostgreSQL connection could be had from the pool.
    #[error("database pool: {0}")]
    Pool(deadpool_postgres::PoolError),
    /// The schema migrations could not be applied.
    #[error("database migration: {0}")]
    Migration(String),
    /// A stored value texto cannot read back (written by hand, or by a newer texto).
    #[error("stored data: {0}")]
    Stored(String),
    /// The database's threads are gone (the service is stopping) or failed.
    #[error("database unavailable: {0}")]
    Unavailable(&'static str),
    /// A file or socket operation failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The underlying failure.
        source: std::io::Error,
    },
    /// No token, or an unknown or revoked one.
    #[error("authentication error: {0}")]
    Unauthorized(&'static str),
    /// `Accept` names a format texto does not write.
    #[error("not acceptable: {0}")]
    NotAcceptable(String),
    /// The body could not be decoded or does not make a valid request (status from the core).
    #[error("{0}")]
    Request(#[from] texto_core::Error),
    /// A request field is invalid (status -7).
    #[error("invalid data")]
    Invalid(Vec<FieldError>),
    /// The `Idempotency-Key` came with another request within its 24 hours (status -7, 422).
    #[error("this idempotency key was used for another request")]
    IdempotencyKeyReused,
    /// The balance does not cover the campaign; nothing was written.
    #[error("not enough credits: the campaign costs {cost}, the balance is {balance}")]
    NotEnoughCredits {
        /// What the campaign costs.
        cost: texto_core::Credits,
        /// What the account has.
        balance: texto_core::Credits,
    },
    /// The resource does not exist for this account.
    #[error("{0} not found")]
    NotFound(String),
    /// The body of a route that takes JSON only came in another type (status -7, HTTP 415).
    #[error("this route takes a JSON body: send it with Content-Type: application/json")]
    NotJson,
    /// The body is larger than the configured limit.
    #[error("the body is over {0} bytes")]
    TooLarge(usize),
    /// The query string does not parse (status -7, HTTP 400 on every route).
    #[error("{0}")]
    BadQuery(String),
    /// The body's framing is broken: a bad chunk size, data not matching its size, early EOF.
    #[error("the body could not be read: {0}")]
    BadBody(String),
    /// The body did not arrive within the body read time-out.
    #[error("the body did not arrive within {0} s")]
    BodyTimeout(u64),
    /// Too many large bodies are being decoded at once; the client should retry shortly.
    #[error("too many large requests are being decoded at once: retry in {0} s")]
    Busy(u64),
    /// A concurrent write (on this node or another) changed what the request was checked
    /// against; sent again, it is checked anew (status -11, HTTP 503, `Retry-After: 1`).
    #[error("{0}")]
    Contended(String),
    /// The token sent more requests than its rate limit allows.
    #[error("too many requests")]
    RateLimited,
    /// The caller's role may not do this (status -12, HTTP 403).
    #[error("the role {role} may not {action}")]
    Forbidden {
        /// The caller's role.
        role: texto_core::Role,
        /// What was refused.
        action: String,
    },
    /// A state-changing request made with the session cookie lacks its `X-CSRF-Token`, or
    /// carries another value (status -12, HTTP 403).
    #[error("a request made with the session cookie must carry the X-CSRF-Token header that sign-in returned")]
    CrossSite,
    /// Signing in, a one-time link or the session cookie used from a page of another site, as
    /// the browser's `Origin` or `Sec-Fetch-Site` tells (status -12, HTTP 403).
    #[error(
        "a request from another site may not sign in, use a one-time link nor use the session cookie (Origin or Sec-Fetch-Site names another site)"
    )]
    OtherSite,
    /// The account requires two-factor sign-in and the person has not set it up: nothing else
    /// until they do (status -12, HTTP 403).
    #[error("your account requires two-factor sign-in: set it up on your profile (POST /me/two-factor) first")]
    TwoFactorRequired,
    /// An account's token or session on a route for operators only (status -12, HTTP 403).
    #[error("only operators may do this (texto operator create)")]
    OperatorsOnly,
    /// The account (or the account it is a sub-account of) is suspended by texto's operator
    /// (status -12, HTTP 403).
    #[error("this account is suspended: contact texto's operator")]
    Suspended,
    /// A simulated reply from a number whose replies would not reach the caller's account: it
    /// is not the last account to send to it within the days replies are kept for
    /// (status -12, HTTP 403).
    #[error(
        "a simulated reply must come from a number this account was the last to send to, within the last {} days",
        crate::store::REPLIES_WITHIN_DAYS
    )]
    NotYourNumber,
    /// A campaign is approved by someone other than who sent it, a token counting as the person
    /// who made it (status -12, HTTP 403).
    #[error("a campaign is approved by someone other than who sent it (a token counts as the person who made it)")]
    OwnCampaign,
    /// Too many failed sign-ins for this email or from this address: the next try is
    /// accepted after the given seconds (HTTP 429, `Retry-After`).
    #[error("too many failed sign-ins: try again in {0} s")]
    SignInSlowed(u64),
    /// Every place for a password check is taken (`--max-password-checks`): the client should
    /// retry shortly (status -11, HTTP 503, `Retry-After: 1`).
    #[error("too many passwords are being checked at once: retry in 1 s")]
    PasswordChecksBusy,
    /// The command line named something that does not exist or cannot be done.
    #[error("{0}")]
    Command(String),
}

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

/// PostgreSQL's own message and code for a database error (tokio-postgres shows "db error").
fn postgres_detail(error: &tokio_postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => format!("{} ({})", db.message(), db.code().code()),
        None => error.to_string(),
    }
}

impl Error {
    /// -7: the request's `field` is wrong, and why.
    pub(crate) fn invalid(field: &str, why: impl Into<String>) -> Error {
        Error::Invalid(vec![FieldError::new(field, why)])
    }

    /// Wraps an I/O failure with what was being attempted.
    pub(crate) fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        let context = context.into();
        move |source| Error::Io { context, source }
    }

    /// `(HTTP status, interface status, message, problems)` of this error.
    fn parts(&self) -> (StatusCode, i64, String, Vec<FieldError>) {
        let whole = |message: String| vec![FieldError::new("", message)];
        match self {
            Error::Unauthorized(why) => {
                (StatusCode::UNAUTHORIZED, -1, "Authentication error".into(), whole((*why).into()))
            }
            Error::NotAcceptable(accept) => (
                StatusCode::NOT_ACCEPTABLE,
                -7,
                "Not acceptable".into(),
                whole(format!(
                    "Accept {}: texto answers application/json or application/xml",
                    texto_core::excerpt(accept)
                )),
            ),
            Error::Request(error) => {
                let http = match error {
                    texto_core::Error::Json { .. } | texto_core::Error::Xml { .. } => StatusCode::BAD_REQUEST,
                    texto_core::Error::NotFound(_) => StatusCode::NOT_FOUND,
                    texto_core::Error::Invalid(_) | texto_core::Error::Delay(_) => StatusCode::UNPROCESSABLE_ENTITY,
                };
                let envelope = texto_core::wire::ErrorResponse::from(error);
                (http, envelope.status, envelope.message, error.field_errors())
            }
            Error::Invalid(problems) => (StatusCode::UNPROCESSABLE_ENTITY, -7, "Invalid data".into(), problems.clone()),
            Error::IdempotencyKeyReused => (
                StatusCode::UNPROCESSABLE_ENTITY,
                -7,
                "Invalid data".into(),
                vec![FieldError::new("Idempotency-Key", self.to_string())],
            ),
            Error::NotEnoughCredits { .. } => {
                (StatusCode::PAYMENT_REQUIRED, -3, "Not enough credits".into(), whole(self.to_string()))
            }
            Error::NotFound(what) => {
                (StatusCode::NOT_FOUND, -5, "Resource not found".into(), whole(format!("{what} not found")))
            }
            Error::TooLarge(_) => {
                (StatusCode::PAYLOAD_TOO_LARGE, -7, "Request too large".into(), whole(self.to_string()))
            }
            Error::NotJson => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, -7, "Unsupported media type".into(), whole(self.to_string()))
            }
            Error::BadQuery(problem) => (StatusCode::BAD_REQUEST, -7, "Invalid query".into(), whole(problem.clone())),
            Error::BadBody(_) => (StatusCode::BAD_REQUEST, -7, "Malformed body".into(), whole(self.to_string())),
            Error::BodyTimeout(_) => {
                (StatusCode::REQUEST_TIMEOUT, -7, "Request timeout".into(), whole(self.to_string()))
            }
            Error::Busy(_) | Error::PasswordChecksBusy => {
                (StatusCode::SERVICE_UNAVAILABLE, -11, "Server busy".into(), whole(self.to_string()))
            }
            Error::DatabaseDown(fault) => {
                tracing::error!(%fault, "request refused: the database cannot serve it");
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    -11,
                    "Database unavailable".into(),
                    whole(format!("{fault}: try again shortly")),
                )
            }
            Error::Contended(_) => {
                // Rare, and answered "send again": logged, so that an operator sees why.
                tracing::warn!(error = %self, "request refused for a concurrent change");
                (StatusCode::SERVICE_UNAVAILABLE, -11, "Server busy".into(), whole(self.to_string()))
            }
            Error::Forbidden { .. }
            | Error::CrossSite
            | Error::OtherSite
            | Error::TwoFactorRequired
            | Error::OwnCampaign
            | Error::OperatorsOnly
            | Error::NotYourNumber
            | Error::Suspended => (StatusCode::FORBIDDEN, -12, "forbidden".into(), whole(self.to_string())),
            Error::SignInSlowed(_) => {
                (StatusCode::TOO_MANY_REQUESTS, -11, "Too many requests".into(), whole(self.to_string()))
            }
            Error::RateLimited => (
                StatusCode::TOO_MANY_REQUESTS,
                -11,
                "Too many requests".into(),
                whole("slow down: this token's request rate is over its limit".into()),
            ),
            Error::Database(_)
            | Error::Postgres(_)
            | Error::Pool(_)
            | Error::Migration(_)
            | Error::Stored(_)
            | Error::Unavailable(_)
            | Error::Io { .. }
            | Error::Command(_) => {
                tracing::error!(error = %self, "request failed");
                (StatusCode::INTERNAL_SERVER_ERROR, -99, "Unknown error".into(), Vec::new())
            }
        }
    }
}

/// The `Retry-After` of an answer refused for a database fault: long enough not to hammer it.
const DATABASE_RETRY_AFTER_SECS: u64 = 5;

/// An error on its way out: the envelope is written by [`crate::http::render_errors`], which
/// knows the format the client accepts.
#[derive(Debug, Clone)]
pub(crate) struct Failure(pub(crate) texto_core::wire::ErrorResponse);

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let (http, status, message, problems) = self.parts();
        let mut response = http.into_response();
        match self {
            Error::Busy(seconds) => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
            }
            Error::Contended(_) | Error::PasswordChecksBusy => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(1));
            }
            Error::SignInSlowed(seconds) => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds.max(1)));
            }
            Error::DatabaseDown(_) => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(DATABASE_RETRY_AFTER_SECS));
            }
            _ => {}
        }
        response.extensions_mut().insert(Failure(texto_core::wire::ErrorResponse::new(status, message, &problems)));
        response
    }
}

#[cfg(test)]
mod tests {
    use axum::{
        http::{StatusCode, header},
        response::IntoResponse,
    };

    use super::{DatabaseFault, Error, Failure};

    #[test]
    fn a_database_fault_is_503_with_retry_after_and_its_cause() {
        for (fault, cause) in [
            (DatabaseFault::Full, "the database is full"),
            (DatabaseFault::CannotWrite, "the database cannot write to its disk"),
            (DatabaseFault::Unreachable, "the database is unreachable"),
        ] {
            let response = Error::DatabaseDown(fault).into_response();
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(response.headers()[header::RETRY_AFTER], "5");
            let Some(Failure(envelope)) = response.extensions().get::<Failure>() else { panic!("an envelope") };
            assert_eq!(envelope.status, -11);
            let details = envelope.details.clone().unwrap_or_default();
            assert!(details.contains(cause), "{details}");
        }
    }

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
