//! The browser's clock as a `chrono` instant (core's calendar functions take one).

use chrono::{DateTime, Utc};

/// Now, from `Date.now()`.
pub fn now() -> DateTime<Utc> {
    DateTime::from_timestamp_millis(js_sys::Date::now() as i64).unwrap_or_default()
}

/// The origin this page was served from: the server's public URL for short links.
pub fn origin() -> String {
    web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default()
}
