//! Conversions between JS values and core types.

use chrono::{DateTime, Utc};
use wasm_bindgen::{JsCast, prelude::*};

use crate::{
    DelayError, parse_paris,
    wire::{Format, codec::strip_position, object},
};

/// `"json"` or `"xml"`, or a JS error.
pub(super) fn parse_format(name: &str) -> Result<Format, JsError> {
    Format::parse(name).ok_or_else(|| JsError::new(&format!("format must be \"json\" or \"xml\", not {name:?}")))
}

/// A `Date`, milliseconds, an ISO-8601 string, or the interface's `delay` format
/// (`Y-m-d H:i:s` in Paris time); `undefined`/`null` is now.
pub(super) fn instant(value: &JsValue) -> Result<DateTime<Utc>, JsError> {
    let millis = if value.is_undefined() || value.is_null() {
        js_sys::Date::now()
    } else if let Some(date) = value.dyn_ref::<js_sys::Date>() {
        date.get_time()
    } else if let Some(millis) = value.as_f64() {
        millis
    } else if let Some(text) = value.as_string() {
        return match parse_paris(&text) {
            Ok(at) => Ok(at),
            Err(DelayError::Format) => DateTime::parse_from_rfc3339(&text)
                .map(|t| t.with_timezone(&Utc))
                .map_err(|e| JsError::new(&format!("not an ISO-8601 or Y-m-d H:i:s date: {text:?} ({e})"))),
            Err(e) => Err(JsError::new(&format!("{text:?}: {e}"))),
        };
    } else {
        return Err(JsError::new("expected a Date, milliseconds, an ISO-8601 or a Y-m-d H:i:s (Paris) string"));
    };
    DateTime::from_timestamp_millis(millis as i64).ok_or_else(|| JsError::new("date out of range"))
}

/// `instant` as an ISO-8601 UTC string.
pub(super) fn iso(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// A Rust value as a plain JS object (maps as objects): its JSON text, read by `JSON.parse`.
///
/// One serializer per type (serde_json's, which the codecs need anyway) instead of a second
/// one that builds the object a property at a time through the JS boundary.
pub(super) fn to_js<T: serde::Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let text = serde_json::to_string(value).map_err(|e| JsError::new(&e.to_string()))?;
    js_sys::JSON::parse(&text).map_err(|_| JsError::new("could not build the result object"))
}

/// A plain JS object as a Rust value: its `JSON.stringify` text, read by serde_json, structs
/// from objects only (see `wire::objects`).
pub(super) fn from_js<T: serde::de::DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    let json = js_sys::JSON::stringify(&value)
        .ok()
        .filter(|json| !JsValue::from(json).is_undefined())
        .ok_or_else(|| JsError::new(&format!("{what}: expected a plain object (JSON data)")))?;
    let text = super::text::text(&json.into())?;
    let mut json = serde_json::Deserializer::from_str(&text);
    object(&mut json)
        .and_then(|value| json.end().map(|()| value))
        .map_err(|e| JsError::new(&format!("{what}: {}", strip_position(&e.to_string()))))
}
