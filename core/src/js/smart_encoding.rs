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
/// twins, which is what makes one call at a time slow). The texts cross into WebAssembly and
/// back as one string each way, joined on NUL (which no SMS text holds): a million separate
/// crossings cost more than the work. An item that is not a string is read as `String(item)`.
#[wasm_bindgen(js_name = toGsmAll, unchecked_return_type = "GsmTexts")]
pub fn to_gsm_all(#[wasm_bindgen(unchecked_param_type = "string[]")] texts: js_sys::Array) -> Result<JsValue, JsError> {
    let count = texts.length() as usize;
    let joined = String::from(texts.join("\0"));
    let mut replaced = Vec::with_capacity(count);
    let array = if count == 0 {
        js_sys::Array::new()
    } else if joined.bytes().filter(|b| *b == 0).count() + 1 == count {
        let mut out = String::with_capacity(joined.len() + joined.len() / 8);
        for (i, text) in joined.split('\0').enumerate() {
            if i > 0 {
                out.push('\0');
            }
            replaced.push(u32::try_from(crate::smart_encoding::to_gsm_into(text, &mut out, None)).unwrap_or(u32::MAX));
        }
        js_sys::JsString::from(out).split("\0")
    } else {
        // A text that holds NUL itself: one by one.
        texts
            .iter()
            .map(|text| {
                let gsm = crate::to_gsm(&text.as_string().unwrap_or_default());
                replaced.push(u32::try_from(gsm.replaced).unwrap_or(u32::MAX));
                JsValue::from_str(&gsm.text)
            })
            .collect()
    };
    let out = js_sys::Object::new();
    js_sys::Reflect::set(&out, &"texts".into(), &array).map_err(|_| JsError::new("the answer cannot be built"))?;
    let counts = js_sys::Uint32Array::from(&replaced[..]);
    js_sys::Reflect::set(&out, &"replaced".into(), &counts).map_err(|_| JsError::new("the answer cannot be built"))?;
    Ok(out.into())
}
