//! Bodies from JavaScript (`decode`, `validateSend`, `simulate`): a JS string copied into wasm
//! memory by `TextEncoder.encodeInto`.
//!
//! wasm-bindgen's own `&str` parameters copy ASCII text one character at a time in a JS loop
//! (slow for a large body); `encodeInto` writes the same bytes natively.

use js_sys::{JsString, Uint8Array, WebAssembly};
use wasm_bindgen::{JsCast, prelude::*};

#[wasm_bindgen]
extern "C" {
    /// The Encoding standard's `TextEncoder` (a global in browsers and in Node).
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, text: &JsString, into: &Uint8Array) -> Progress;

    /// What `encodeInto` did: UTF-16 units read, bytes written.
    type Progress;
    #[wasm_bindgen(method, getter)]
    fn read(this: &Progress) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &Progress) -> u32;
}

/// The UTF-8 text of `body`, which must be a JS string.
pub(super) fn text(body: &JsValue) -> Result<String, JsError> {
    let body: &JsString = body.dyn_ref().ok_or_else(|| JsError::new("the body must be a string (the wire text)"))?;
    let units = body.length() as usize;
    let encoder = TextEncoder::new();
    // Enough for ASCII; anything else asks for 3 bytes per UTF-16 unit left.
    let mut bytes = vec![0u8; units];
    let (mut read, mut written) = (0, 0);
    while read < units {
        if read > 0 {
            bytes.resize(written + (units - read) * 3, 0);
        }
        // After any allocation: the memory may have grown, which replaces its buffer.
        let memory: WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
        let free = &mut bytes[written..];
        let view =
            Uint8Array::new_with_byte_offset_and_length(&memory.buffer(), free.as_mut_ptr() as u32, free.len() as u32);
        let rest = if read == 0 { body.clone() } else { body.slice(read as u32, units as u32) };
        let progress = encoder.encode_into(&rest, &view);
        read += progress.read() as usize;
        written += progress.written() as usize;
    }
    bytes.truncate(written);
    // encodeInto writes UTF-8 (a lone surrogate becomes U+FFFD): this check never fails.
    String::from_utf8(bytes).map_err(|_| JsError::new("the body is not UTF-8"))
}
