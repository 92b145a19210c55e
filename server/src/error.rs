//! The one error type of `texto-server`. The store's faults and what its drivers' errors
//! become are in `store/faults.rs`; the mapping to HTTP (docs/interface.md §1.4) in
//! `http/errors.rs`.

use texto_core::FieldError;

use crate::store::faults::DatabaseFault;

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
    #[error("database: {}", crate::store::faults::postgres_detail(.0))]
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
    /// Under the team's approval, a journey is put live by someone other than who changed it
    /// last (status -12, HTTP 403).
    #[error("under the team's approval, a journey is put live by someone other than who changed it last")]
    OwnJourney,
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
}
