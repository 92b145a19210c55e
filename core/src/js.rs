//! The JavaScript face of `texto-core` (compiled for wasm32 only).
//!
//! Values cross the boundary as plain JS objects with camelCase keys; each has a TypeScript
//! interface in the generated `.d.ts`.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** How a text is split into SMS parts (REFERENCE §4). */
export interface Segments {
  /** `gsm7` (160 per SMS, 153 per part) or `ucs2` (70, 67 per part). */
  encoding: "gsm7" | "ucs2";
  /** Length in units of the encoding: septets (an extension character counts 2) or UTF-16 units. */
  length: number;
  /** Number of SMS parts; 0 for an empty text. */
  parts: number;
  /** Units each part holds. */
  perPart: number;
  /** Units still free in the last part. */
  remaining: number;
  /** Distinct characters, in order of appearance, that forced UCS-2. */
  unicodeChars: string[];
}
"#;

/// Splits `text` into SMS parts; `unicode` (default false) forces UCS-2.
#[wasm_bindgen(unchecked_return_type = "Segments")]
pub fn segments(text: &str, unicode: Option<bool>) -> Result<JsValue, JsError> {
    to_js(&crate::segments(text, unicode.unwrap_or(false)))
}

fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}
