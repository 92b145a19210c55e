//! The JavaScript API inside a real browser (wasm-pack test --headless --chrome): the same
//! calls the Node suite makes, through the wasm-bindgen boundary.
#![cfg(all(target_arch = "wasm32", feature = "js"))]

use js_sys::{Reflect, Uint8Array};
use texto_core::js;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn get(object: &JsValue, path: &[&str]) -> JsValue {
    path.iter().fold(object.clone(), |value, key| Reflect::get(&value, &JsValue::from_str(key)).expect("a field"))
}

const NOW: &str = "2026-11-21T10:00:00Z";

#[wasm_bindgen_test]
fn decode_reads_xml_into_the_json_form() {
    let xml = r#"<sms><message><text><![CDATA[Hi <-short->]]></text><pushtype>alert</pushtype><links>https://a.fr</links></message><recipients><gsm gsmsmsid="7">33612345678</gsm></recipients></sms>"#;
    let doc = js::decode(xml.into(), "xml", None).expect("decodes");
    assert_eq!(get(&doc, &["sms", "message", "text"]).as_string().as_deref(), Some("Hi <-short->"));
    let first = Reflect::get(&get(&doc, &["sms", "recipients", "gsm"]), &JsValue::from_f64(0.0)).unwrap();
    assert_eq!(get(&first, &["gsmsmsid"]).as_string().as_deref(), Some("7"));
    assert!(js::decode("<!DOCTYPE x [<!ENTITY a 'b'>]><sms/>".into(), "xml", None).is_err());
}

#[wasm_bindgen_test]
fn validate_send_returns_problems_as_data() {
    let options = js_sys::Object::new();
    Reflect::set(&options, &"now".into(), &NOW.into()).unwrap();
    let result = js::validate_send(r#"{"sms":{"message":{"pushtype":"promo"}}}"#.into(), "json", options.into())
        .expect("validates");
    assert_eq!(get(&result, &["ok"]).as_bool(), Some(false));
    assert_eq!(get(&result, &["status"]).as_f64(), Some(-7.0));
}

#[wasm_bindgen_test]
fn simulate_counts_like_the_server() {
    let body = r#"{"sms":{"message":{"text":"Hi","pushtype":"alert"},"recipients":{"gsm":[{"value":"33612345678"},{"value":"0612345678"},{"value":"33612345678"},{"value":"33611111111"}]}}}"#;
    let context = js_sys::JSON::parse(r#"{"balance": 100, "blacklist": ["33611111111"]}"#).unwrap();
    let result = js::simulate(body.into(), "json", context, NOW.into()).expect("simulates");
    let counters: Vec<f64> = ["total", "sent", "invalid", "duplicated", "blacklisted", "credits"]
        .iter()
        .map(|k| get(&result, &[k]).as_f64().unwrap_or(-1.0))
        .collect();
    assert_eq!(counters, [4.0, 1.0, 1.0, 1.0, 1.0, 99.0]);
    assert_eq!(Uint8Array::new(&get(&result, &["outcomes"])).to_vec(), [0, 1, 2, 3]);
}

#[wasm_bindgen_test]
fn invalid_blacklist_and_npai_entries_are_ignored() {
    let body = r#"{"sms":{"message":{"text":"Hi","pushtype":"alert"},"recipients":{"gsm":[{"value":"33612345678"},{"value":"33611111111"},{"value":"33622222222"}]}}}"#;
    let context = js_sys::JSON::parse(
        r#"{"balance": 10, "blacklist": ["abc", "0612345678", "33611111111"], "npai": ["33123456789", "+33 6 22 22 22 22"]}"#,
    )
    .unwrap();
    let result = js::simulate(body.into(), "json", context, NOW.into()).expect("invalid entries do not throw");
    assert_eq!(Uint8Array::new(&get(&result, &["outcomes"])).to_vec(), [0, 3, 4]);
}

#[wasm_bindgen_test]
fn numbers_time_and_signatures() {
    assert_eq!(js::normalize_number("06 12 34 56 78", Some("FR".into())).ok().as_deref(), Some("33612345678"));
    assert!(js::normalize_number("0612345678", None).is_err());
    let monday = js::next_allowed_send("marketing", "2026-11-22T21:00:00Z".into()).expect("a date");
    assert_eq!(monday.to_iso_string().as_string().as_deref(), Some("2026-11-23T07:00:00.000Z"));
    let signature = js::sign_webhook("k", 1_700_000_000.0, "{}");
    assert!(
        js::verify_webhook("k", "1700000000", &signature, "{}", JsValue::from_f64(1_700_000_000_000.0), None).is_ok()
    );
    assert!(
        js::verify_webhook("k", "1700000000", &signature, "{ }", JsValue::from_f64(1_700_000_000_000.0), None).is_err()
    );
}

#[wasm_bindgen_test]
fn instants_take_the_delay_format_in_paris_time() {
    // Sunday 22:00 in Paris (UTC+1 in November): marketing waits for Monday 08:00.
    let monday = js::next_allowed_send("marketing", "2026-11-22 22:00:00".into()).expect("a date");
    assert_eq!(monday.to_iso_string().as_string().as_deref(), Some("2026-11-23T07:00:00.000Z"));
    let body = r#"{"sms":{"message":{"text":"Hi","pushtype":"alert"},"recipients":{"gsm":[{"value":"33612345678"}]}}}"#;
    let context = js_sys::JSON::parse(r#"{"balance": 1}"#).unwrap();
    let result = js::simulate(body.into(), "json", context, "2026-11-21 11:00:00".into()).expect("simulates");
    assert_eq!(get(&result, &["sendAt"]).as_string().as_deref(), Some(NOW));
    let options = js_sys::Object::new();
    Reflect::set(&options, &"now".into(), &"2026-07-14 09:30:00".into()).unwrap();
    let delayed = r#"{"sms":{"message":{"text":"Hi","pushtype":"alert","delay":"2026-07-14 10:00:00"},"recipients":{"gsm":[{"value":"33612345678"}]}}}"#;
    let result = js::validate_send(delayed.into(), "json", options.into()).expect("validates");
    assert_eq!(get(&result, &["summary", "delay"]).as_string().as_deref(), Some("2026-07-14T08:00:00Z"));
    assert!(js::next_allowed_send("alert", "2026-03-29 02:30:00".into()).is_err());
}

#[wasm_bindgen_test]
fn to_gsm_all_crosses_as_utf8_where_there_is_no_node_buffer() {
    let texts = ["L’été", "", "Cœur… 😀", "42"];
    let array: js_sys::Array = texts.iter().map(|text| JsValue::from_str(text)).collect();
    let all = js::to_gsm_all(array).expect("converts");
    let converted: Vec<String> =
        js_sys::Array::from(&get(&all, &["texts"])).iter().map(|text| text.as_string().expect("a string")).collect();
    assert_eq!(converted, texts.iter().map(|text| texto_core::to_gsm(text).text).collect::<Vec<_>>());
    let replaced = js_sys::Uint32Array::new(&get(&all, &["replaced"])).to_vec();
    assert_eq!(replaced, texts.iter().map(|text| texto_core::to_gsm(text).replaced as u32).collect::<Vec<_>>());
}
