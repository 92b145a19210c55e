//! The time the workers go by: the system's, or one a test sets.

use chrono::{DateTime, Utc};

/// Where the workers read the time.
pub(crate) trait Clock: Send + Sync {
    /// Now.
    fn now(&self) -> DateTime<Utc>;
}

/// The system clock.
pub(crate) struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}
