//! Times are stored as fixed-width UTC text, so they sort and compare as text.

use chrono::{DateTime, NaiveDateTime, Utc};

const FORMAT: &str = "%Y-%m-%dT%H:%M:%SZ";

/// `2026-11-21T10:00:00Z`.
pub(crate) fn store(at: DateTime<Utc>) -> String {
    at.format(FORMAT).to_string()
}

/// `2026-11`: the UTC month, as the monthly usage counters key it.
pub(crate) fn month(at: DateTime<Utc>) -> String {
    at.format("%Y-%m").to_string()
}

/// Reads a stored time (the Unix epoch if the column holds something else).
pub(crate) fn load(text: &str) -> DateTime<Utc> {
    NaiveDateTime::parse_from_str(text, FORMAT).map(|t| t.and_utc()).unwrap_or_default()
}
