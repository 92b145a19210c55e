//! Conversions between JS values and core types.

use chrono::{DateTime, Utc};
use wasm_bindgen::{JsCast, prelude::*};

use crate::wire::Format;

/// `"json"` or `"xml"`, or a JS error.
pub(super) fn parse_format(name: &str) -> Result<Format, JsError> {
    Format::parse(name).ok_or_else(|| JsError::new(&format!("format must be \"json\" or \"xml\", not {name:?}")))
}

/// A `Date`, milliseconds, or an ISO-8601 string; `undefined`/`null` is now.
pub(super) fn instant(value: &JsValue) -> Result<DateTime<Utc>, JsError> {
    let millis = if value.is_undefined() || value.is_null() {
        js_sys::Date::now()
    } else if let Some(date) = value.dyn_ref::<js_sys::Date>() {
        date.get_time()
    } else if let Some(millis) = value.as_f64() {
        millis
    } else if let Some(text) = value.as_string() {
        return DateTime::parse_from_rfc3339(&text)
            .map(|t| t.with_timezone(&Utc))
            .map_err(|e| JsError::new(&format!("not an ISO-8601 date: {text:?} ({e})")));
    } else {
        return Err(JsError::new("expected a Date, milliseconds or an ISO-8601 string"));
    };
    DateTime::from_timestamp_millis(millis as i64).ok_or_else(|| JsError::new("date out of range"))
}

/// `instant` as an ISO-8601 UTC string.
pub(super) fn iso(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// A Rust value as a plain JS object (maps as objects).
pub(super) fn to_js<T: serde::Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// A plain JS object as a Rust value.
pub(super) fn from_js<T: serde::de::DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(|e| JsError::new(&format!("{what}: {e}")))
}
