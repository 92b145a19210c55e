//! `normalizeNumber` and `nextAllowedSend`.

use wasm_bindgen::prelude::*;

use super::convert::instant;
use crate::{PushType, parse_international, parse_with_default_country};

/// `"+33 6 12 34 56 78"` → `"33612345678"`. With `defaultCountry` (ISO code, e.g. `"FR"`),
/// national numbers are accepted too (`"06 12 34 56 78"`). Throws when the number is not a
/// valid mobile number.
#[wasm_bindgen(js_name = normalizeNumber)]
pub fn normalize_number(
    input: &str,
    #[wasm_bindgen(js_name = defaultCountry)] default_country: Option<String>,
) -> Result<String, JsError> {
    match default_country {
        Some(country) => parse_with_default_country(input, &country),
        None => parse_international(input),
    }
    .map(|number| number.to_string())
    .map_err(|e| JsError::new(&format!("{input:?}: {e}")))
}

/// When a message of `pushtype` asked for at `at` may go out: `at` itself for alerts; for
/// marketing, the next minute of Monday–Saturday 08:00–20:00 Paris that is not a holiday.
#[wasm_bindgen(js_name = nextAllowedSend)]
pub fn next_allowed_send(
    pushtype: &str,
    #[wasm_bindgen(unchecked_param_type = "Instant")] at: JsValue,
) -> Result<js_sys::Date, JsError> {
    let pushtype = PushType::parse(pushtype).ok_or_else(|| JsError::new("pushtype must be alert or marketing"))?;
    let next = crate::next_allowed_send(pushtype, instant(&at)?);
    Ok(js_sys::Date::new(&JsValue::from_f64(next.timestamp_millis() as f64)))
}
