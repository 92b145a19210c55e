//! `decode` and `encode`: any document of the interface, JSON or XML.

use wasm_bindgen::prelude::*;

use super::{
    convert::{from_js, parse_format, to_js},
    text::text,
};
use crate::wire::{Format, Kind};

/// Decodes `body` (`format` `"json"` or `"xml"`) into the document's JSON form. The kind
/// (`sms`, `webhook`, `campaignResult`, …) is told from the body unless `kind` names it.
#[wasm_bindgen(unchecked_return_type = "any")]
pub fn decode(
    #[wasm_bindgen(unchecked_param_type = "string")] body: JsValue,
    format: &str,
    kind: Option<String>,
) -> Result<JsValue, JsError> {
    let format = parse_format(format)?;
    let body = text(&body)?;
    let kind = resolve(kind, || Kind::detect(&body, format))?;
    let json = kind.to_json(&body, format).map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&json)
}

/// Encodes `value` (a document in its JSON form, e.g. `{sms: {...}}`) in `format`.
#[wasm_bindgen]
pub fn encode(value: JsValue, format: &str, kind: Option<String>) -> Result<String, JsError> {
    let format = parse_format(format)?;
    let json: serde_json::Value = from_js(value, "value")?;
    let kind = resolve(kind, || Kind::detect(&json.to_string(), Format::Json))?;
    kind.encode_json(&json, format).map_err(|e| JsError::new(&e.to_string()))
}

fn resolve(kind: Option<String>, detect: impl FnOnce() -> Option<Kind>) -> Result<Kind, JsError> {
    match kind {
        Some(name) => Kind::parse(&name).ok_or_else(|| JsError::new(&format!("unknown document kind {name:?}"))),
        None => detect().ok_or_else(|| JsError::new("cannot tell which document this is; pass its kind")),
    }
}
