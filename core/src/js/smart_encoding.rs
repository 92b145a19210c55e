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

/// [`to_gsm`] over many texts at once, for a service or a page that checks a whole file: the
/// texts made GSM, in order, and how many characters each had replaced (without the list of
/// twins, which is what makes one call at a time slow).
#[wasm_bindgen(js_name = toGsmAll, unchecked_return_type = "GsmTexts")]
pub fn to_gsm_all(texts: Vec<String>) -> Result<JsValue, JsError> {
    let mut replaced = Vec::with_capacity(texts.len());
    let gsm: Vec<String> = texts
        .iter()
        .map(|text| {
            let gsm = crate::to_gsm(text);
            replaced.push(u32::try_from(gsm.replaced).unwrap_or(u32::MAX));
            gsm.text
        })
        .collect();
    let out = js_sys::Object::new();
    let array: js_sys::Array = gsm.into_iter().map(|text| JsValue::from_str(&text)).collect();
    js_sys::Reflect::set(&out, &"texts".into(), &array).map_err(|_| JsError::new("the answer cannot be built"))?;
    let counts = js_sys::Uint32Array::from(&replaced[..]);
    js_sys::Reflect::set(&out, &"replaced".into(), &counts).map_err(|_| JsError::new("the answer cannot be built"))?;
    Ok(out.into())
}
