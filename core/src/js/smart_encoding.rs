//! `toGsm`: smart encoding, as the server applies it to a send with `encoding: "gsm"`.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::convert::to_js;

/// One replacement, for JavaScript.
#[derive(Serialize)]
struct Twin {
    from: String,
    to: &'static str,
}

/// [`crate::GsmText`], for JavaScript.
#[derive(Serialize)]
struct GsmText {
    text: String,
    replaced: usize,
    twins: Vec<Twin>,
}

/// `text` with every character that has a GSM 03.38 twin replaced by it (typographic quotes
/// and dashes, the ellipsis, special spaces, accented letters outside the alphabet), what was
/// replaced and how many characters.
#[wasm_bindgen(js_name = toGsm, unchecked_return_type = "GsmText")]
pub fn to_gsm(text: &str) -> Result<JsValue, JsError> {
    let gsm = crate::to_gsm(text);
    let twins = gsm.twins.into_iter().map(|(from, to)| Twin { from: from.to_string(), to }).collect();
    to_js(&GsmText { text: gsm.text, replaced: gsm.replaced, twins })
}
