//! `toGsm`: smart encoding, as the server applies it to a send with `encoding: "gsm"`.

use serde::Serialize;
use wasm_bindgen::{JsCast, prelude::*};

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
/// crossings cost more than the work. In Node (the package's target), that string crosses as
/// its UTF-16 code units, copied by `Buffer` straight into and out of WebAssembly's memory;
/// elsewhere, as UTF-8. An item that is not a string is read as `String(item)`.
#[wasm_bindgen(js_name = toGsmAll, unchecked_return_type = "GsmTexts")]
pub fn to_gsm_all(#[wasm_bindgen(unchecked_param_type = "string[]")] texts: js_sys::Array) -> Result<JsValue, JsError> {
    let count = texts.length() as usize;
    let joined = texts.join("\0");
    let converted = match count {
        0 => Some((js_sys::Array::new(), Vec::new())),
        _ if has_node_buffer() => through_utf16(&joined, count),
        _ => through_utf8(&joined, count),
    };
    let (array, replaced) = converted.unwrap_or_else(|| one_by_one(&texts));
    let out = js_sys::Object::new();
    js_sys::Reflect::set(&out, &"texts".into(), &array).map_err(|_| JsError::new("the answer cannot be built"))?;
    let counts = js_sys::Uint32Array::from(&replaced[..]);
    js_sys::Reflect::set(&out, &"replaced".into(), &counts).map_err(|_| JsError::new("the answer cannot be built"))?;
    Ok(out.into())
}

#[wasm_bindgen]
extern "C" {
    /// A Node `Buffer`.
    type NodeBuffer;

    /// `Buffer.from(arrayBuffer, byteOffset, length)`: a view, not a copy.
    #[wasm_bindgen(js_namespace = Buffer, js_name = from)]
    fn buffer_view(memory: &JsValue, offset: u32, length: u32) -> NodeBuffer;

    /// `buffer.write(string, 0, "utf16le")`: how many bytes it wrote.
    #[wasm_bindgen(method, js_name = write)]
    fn write_at(this: &NodeBuffer, text: &js_sys::JsString, offset: u32, encoding: &str) -> u32;

    /// `buffer.toString("utf16le")`.
    #[wasm_bindgen(method, js_name = toString)]
    fn decode(this: &NodeBuffer, encoding: &str) -> js_sys::JsString;
}

/// Whether this JavaScript has Node's `Buffer`.
fn has_node_buffer() -> bool {
    js_sys::Reflect::has(&js_sys::global(), &"Buffer".into()).unwrap_or(false)
}

/// A view of WebAssembly's memory from the address `at`, `units` code units long (taken anew
/// each time: the memory's buffer changes when it grows).
fn memory_view(at: usize, units: usize) -> Option<NodeBuffer> {
    let memory = wasm_bindgen::memory().dyn_into::<js_sys::WebAssembly::Memory>().ok()?.buffer();
    Some(buffer_view(&memory, u32::try_from(at).ok()?, u32::try_from(units * 2).ok()?))
}

/// The texts (joined on NUL, `count` of them) made GSM as UTF-16 code units; `None` when a
/// text holds a NUL itself.
fn through_utf16(joined: &js_sys::JsString, count: usize) -> Option<(js_sys::Array, Vec<u32>)> {
    let mut units = vec![0u16; joined.length() as usize];
    // JavaScript writes the code units in place: the address is taken from a mutable borrow.
    let written = memory_view(units.as_mut_ptr() as usize, units.len())?.write_at(joined, 0, "utf16le");
    if written as usize != units.len() * 2 {
        return None;
    }
    let mut out = Vec::with_capacity(units.len() + units.len() / 8);
    let replaced = crate::to_gsm_units(&units, &mut out);
    drop(units);
    // As many NULs as joints: no text held one itself.
    if replaced.len() != count {
        return None;
    }
    let text = memory_view(out.as_ptr() as usize, out.len())?.decode("utf16le");
    Some((text.split("\0"), replaced))
}

/// The same as UTF-8, where there is no `Buffer`.
fn through_utf8(joined: &js_sys::JsString, count: usize) -> Option<(js_sys::Array, Vec<u32>)> {
    let joined = String::from(joined);
    if joined.bytes().filter(|b| *b == 0).count() + 1 != count {
        return None;
    }
    let mut out = String::with_capacity(joined.len() + joined.len() / 8);
    let mut replaced = Vec::with_capacity(count);
    for (i, text) in joined.split('\0').enumerate() {
        if i > 0 {
            out.push('\0');
        }
        replaced.push(u32::try_from(crate::smart_encoding::to_gsm_into(text, &mut out, None)).unwrap_or(u32::MAX));
    }
    Some((js_sys::JsString::from(out).split("\0"), replaced))
}

/// One text at a time, for texts that hold a NUL themselves.
fn one_by_one(texts: &js_sys::Array) -> (js_sys::Array, Vec<u32>) {
    let mut replaced = Vec::with_capacity(texts.length() as usize);
    let array = texts
        .iter()
        .map(|text| {
            // Read as the joined paths read it: `String(item)`, and nothing for null or undefined.
            let text = text.as_string().unwrap_or_else(|| js_sys::Array::of1(&text).join("").into());
            let gsm = crate::to_gsm(&text);
            replaced.push(u32::try_from(gsm.replaced).unwrap_or(u32::MAX));
            JsValue::from_str(&gsm.text)
        })
        .collect();
    (array, replaced)
}
