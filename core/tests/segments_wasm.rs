//! The SMS length cases again, inside a real browser, through the JavaScript binding.
#![cfg(all(target_arch = "wasm32", feature = "js"))]

mod segment_cases;

use js_sys::Reflect;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn field(object: &JsValue, name: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(name)).expect("a plain object")
}

#[wasm_bindgen_test]
fn every_case_splits_the_same_in_the_browser() {
    for case in segment_cases::cases() {
        let got = texto_core::js::segments(&case.text, JsValue::from_bool(case.unicode)).expect("segments");
        let encoding = match case.encoding {
            texto_core::Encoding::Gsm7 => "gsm7",
            texto_core::Encoding::Ucs2 => "ucs2",
        };
        assert_eq!(field(&got, "encoding").as_string().as_deref(), Some(encoding), "{}", case.name);
        for (name, expected) in
            [("length", case.length), ("parts", case.parts), ("perPart", case.per_part), ("remaining", case.remaining)]
        {
            assert_eq!(field(&got, name).as_f64(), Some(expected as f64), "{} {name}", case.name);
        }
        let chars: Vec<String> = js_sys::Array::from(&field(&got, "unicodeChars"))
            .iter()
            .map(|c| c.as_string().expect("a string"))
            .collect();
        let expected: Vec<String> = case.unicode_chars.chars().map(String::from).collect();
        assert_eq!(chars, expected, "{}", case.name);
    }
}
