//! Idempotency keys: a send retried with the `Idempotency-Key` of its first try gets the first
//! answer back and creates nothing more (docs/interface.md §3.6). Each store keeps the key in
//! the transaction that writes the campaign, under the account's write lock, and decides with
//! [`replay_of`] whether a request is new, a retry, or a key reused for another request.

use chrono::{DateTime, Duration, Utc};
use texto_core::Credits;

use crate::Error;

/// How long a key stands for its first answer.
pub(crate) const KEPT_FOR_HOURS: i64 = 24;

/// Whether expired keys are to be dropped now: at most once a minute per process, rather than
/// on every keyed send (a statement more in the writer's transaction cost a tenth of the sends).
pub(crate) fn prune_due(now: DateTime<Utc>) -> bool {
    static LAST: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(i64::MIN);
    let minute = now.timestamp() / 60;
    LAST.swap(minute, std::sync::atomic::Ordering::Relaxed) != minute
}

/// The oldest first try a key sent at `now` may be a retry of.
pub(crate) fn kept_since(now: DateTime<Utc>) -> DateTime<Utc> {
    now - Duration::hours(KEPT_FOR_HOURS)
}

/// A request's key, and what tells a retry of it from another request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IdempotencyKey {
    /// The key, as the client sent it.
    pub(crate) key: String,
    /// A hash of the request (method, path, query and body): a retry has the same.
    pub(crate) fingerprint: String,
}

/// A key's first answer, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredAnswer {
    /// The first request's fingerprint.
    pub(crate) fingerprint: String,
    /// Its ticket.
    pub(crate) ticket: i64,
    /// The balance its answer gave.
    pub(crate) balance: Credits,
    /// Its answer without ticket and balance (JSON).
    pub(crate) answer: String,
}

/// What `create_campaign` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Created {
    /// Wrote the campaign: its ticket and the balance after its debit.
    New {
        /// The ticket.
        ticket: i64,
        /// The balance after the debit.
        balance: Credits,
    },
    /// Wrote nothing: the request is a retry, and this is the first answer.
    Replayed(StoredAnswer),
}

/// A retry of `stored` (a request with the same `fingerprint`) gets its answer; the same key
/// for another request is refused; no stored answer: the request is new (`None`).
pub(crate) fn replay_of(stored: Option<&StoredAnswer>, fingerprint: &str) -> Result<Option<Created>, Error> {
    match stored {
        None => Ok(None),
        Some(stored) if stored.fingerprint == fingerprint => Ok(Some(Created::Replayed(stored.clone()))),
        Some(_) => Err(Error::IdempotencyKeyReused),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_replays_another_request_is_refused_and_a_new_key_goes_through() {
        let stored = StoredAnswer {
            fingerprint: "f1".into(),
            ticket: 7,
            balance: Credits::whole(10),
            answer: r#"{"cost":1}"#.into(),
        };
        assert_eq!(replay_of(None, "f1").ok(), Some(None));
        assert_eq!(replay_of(Some(&stored), "f1").ok(), Some(Some(Created::Replayed(stored.clone()))));
        assert!(matches!(replay_of(Some(&stored), "f2"), Err(Error::IdempotencyKeyReused)));
    }
}
