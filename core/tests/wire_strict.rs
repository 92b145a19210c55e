//! Strict and bounded decoding: count limits stop a list while it is read, content
//! after the document and a duplicate root key are refused, a JSON body may start with a BOM,
//! an array is never read as an object.
#![cfg(not(target_arch = "wasm32"))]

use texto_core::{
    Error,
    wire::{Format, Kind, Limits, ListRequest, NpaiAddRequest, SmsRequest, decode, decode_sms_with, decode_with},
};

fn repeated(item: &str, n: usize) -> String {
    vec![item; n].join(",")
}

/// The one data error of `result`, as `(path, message)`.
fn data_error<T: std::fmt::Debug>(result: Result<T, Error>) -> (String, String) {
    match result {
        Err(Error::Invalid(errors)) if errors.len() == 1 => (errors[0].path.clone(), errors[0].message.clone()),
        other => panic!("expected one data error, got {other:?}"),
    }
}

#[test]
fn json_recipients_stop_at_the_limit_plus_one() {
    let body = |n| format!(r#"{{"sms":{{"message":{{"text":"x"}},"recipients":{{"gsm":[{}]}}}}}}"#, repeated("{}", n));
    let limits = Limits::items(10);
    assert_eq!(decode_sms_with(&body(10), Format::Json, limits).unwrap().recipients.unwrap().gsm.len(), 10);
    let (path, message) = data_error(decode_sms_with(&body(11), Format::Json, limits));
    assert_eq!(path, "sms.recipients.gsm");
    assert!(message.contains("at most 10"), "{message}");
    // The generic reader stops at the same place.
    let (path, _) = data_error(decode_with::<SmsRequest>(&body(11), Format::Json, limits));
    assert_eq!(path, "sms.recipients.gsm");
}

#[test]
fn xml_recipients_stop_at_the_limit_plus_one() {
    let body =
        |n| format!("<sms><message><text>x</text></message><recipients>{}</recipients></sms>", "<gsm/>".repeat(n));
    let limits = Limits::items(10);
    assert_eq!(decode_sms_with(&body(10), Format::Xml, limits).unwrap().recipients.unwrap().gsm.len(), 10);
    let (path, message) = data_error(decode_sms_with(&body(11), Format::Xml, limits));
    assert_eq!(path, "sms.recipients.gsm");
    assert!(message.contains("at most 10"), "{message}");
}

#[test]
fn contacts_stop_at_the_limit_plus_one_in_both_formats() {
    let limits = Limits::items(3);
    let json = |n| format!(r#"{{"list":{{"name":"x","contacts":{{"gsm":[{}]}}}}}}"#, repeated("{}", n));
    assert_eq!(decode_with::<ListRequest>(&json(3), Format::Json, limits).unwrap().contacts.gsm.len(), 3);
    assert_eq!(data_error(decode_with::<ListRequest>(&json(4), Format::Json, limits)).0, "list.contacts.gsm");
    let xml = |n| format!("<npai><contacts>{}</contacts></npai>", "<gsm>33612345678</gsm>".repeat(n));
    assert_eq!(decode_with::<NpaiAddRequest>(&xml(3), Format::Xml, limits).unwrap().contacts.gsm.len(), 3);
    assert_eq!(data_error(decode_with::<NpaiAddRequest>(&xml(4), Format::Xml, limits)).0, "npai.contacts.gsm");
    // A limit of one refuses the second item too.
    assert_eq!(
        data_error(decode_with::<NpaiAddRequest>(&xml(2), Format::Xml, Limits::items(1))).0,
        "npai.contacts.gsm"
    );
}

#[test]
fn unbounded_decoding_reads_long_lists() {
    let body = format!(r#"{{"list":{{"contacts":{{"gsm":[{}]}}}}}}"#, repeated("{}", 5000));
    assert_eq!(decode::<ListRequest>(&body, Format::Json).unwrap().contacts.gsm.len(), 5000);
}

#[test]
fn content_after_the_document_is_refused() {
    let json = r#"{"sms":{"message":{"text":"x"}}}"#;
    for trailing in ["}", "]]garbage", " {}", "x"] {
        let error = decode::<SmsRequest>(&format!("{json}{trailing}"), Format::Json).unwrap_err();
        assert_eq!(error.status(), -6, "{trailing}: {error:?}");
    }
    assert!(decode::<SmsRequest>(&format!("{json} \n\t"), Format::Json).is_ok());
    let xml = "<sms><message><text>x</text></message></sms>";
    for trailing in ["<sms/>", "text", "<x></x>"] {
        let body = format!("{xml}{trailing}");
        assert_eq!(decode::<SmsRequest>(&body, Format::Xml).unwrap_err().status(), -2, "{trailing}");
        assert_eq!(decode_sms_with(&body, Format::Xml, Limits::UNBOUNDED).unwrap_err().status(), -2, "{trailing}");
        let list = format!("<list><name>x</name></list>{trailing}");
        assert_eq!(decode::<ListRequest>(&list, Format::Xml).unwrap_err().status(), -2, "{trailing}");
    }
    let body = format!("{xml}\n<!-- done --><?pi x?>\n");
    assert!(decode::<SmsRequest>(&body, Format::Xml).is_ok());
    assert!(decode_sms_with(&body, Format::Xml, Limits::UNBOUNDED).is_ok());
}

#[test]
fn a_duplicate_key_is_refused() {
    let one = r#"{"message":{"text":"x"}}"#;
    let error = decode::<SmsRequest>(&format!(r#"{{"sms":{one},"sms":{one}}}"#), Format::Json).unwrap_err();
    assert_eq!(error.status(), -6, "{error:?}");
    let error = decode::<SmsRequest>(r#"{"sms":{"message":{"text":"x","text":"y"}}}"#, Format::Json).unwrap_err();
    assert_eq!(error.status(), -6, "{error:?}");
}

#[test]
fn a_json_body_may_start_with_a_byte_order_mark() {
    let body = "\u{feff}{\"sms\":{\"message\":{\"text\":\"x\"}}}";
    assert_eq!(decode::<SmsRequest>(body, Format::Json).unwrap().message.text.as_deref(), Some("x"));
    assert_eq!(Format::sniff(body), Format::Json);
}

#[test]
fn a_delay_that_is_not_text_is_a_data_error() {
    for (delay, found) in [
        ("{}", "an object"),
        ("5", "a number"),
        ("[]", "an array"),
        ("[\"2030-01-01 10:00:00\"]", "an array"),
        ("true", "a boolean"),
    ] {
        let body = format!(r#"{{"sms":{{"message":{{"text":"x","delay":{delay}}}}}}}"#);
        let (path, message) = data_error(decode::<SmsRequest>(&body, Format::Json));
        assert_eq!(path, "sms.message.delay", "{delay}");
        assert!(message.contains(found), "{delay}: {message}");
        let (path, _) = data_error(decode_sms_with(&body, Format::Json, Limits::UNBOUNDED));
        assert_eq!(path, "sms.message.delay", "{delay}");
    }
    for (delay, read) in [("null", None), ("\"\"", Some("")), ("\"2030-01-01 10:00:00\"", Some("2030-01-01 10:00:00"))]
    {
        let body = format!(r#"{{"sms":{{"message":{{"text":"x","delay":{delay}}}}}}}"#);
        assert_eq!(decode::<SmsRequest>(&body, Format::Json).unwrap().message.delay.as_deref(), read, "{delay}");
    }
}

#[test]
fn an_xml_element_with_too_many_distinct_children_is_refused() {
    let children: String = (0..300).map(|i| format!("<c{i}/>")).collect();
    let body = format!("<list><name>x</name>{children}</list>");
    assert_eq!(decode::<ListRequest>(&body, Format::Xml).unwrap_err().status(), -2);
    let attributes: String = (0..300).map(|i| format!(" a{i}=\"1\"")).collect();
    let body = format!("<list{attributes}><name>x</name></list>");
    assert_eq!(decode::<ListRequest>(&body, Format::Xml).unwrap_err().status(), -2);
    let few: String = (0..20).map(|i| format!("<c{i}/>")).collect();
    assert!(decode::<ListRequest>(&format!("<list><name>x</name>{few}</list>"), Format::Xml).is_ok());
}

#[test]
fn an_array_is_never_read_as_an_object() {
    // serde's derived readers would take an array's items as a struct's fields, in order: the
    // message below would have been read as the text "Hello" sent as an alert.
    for (body, at, expected) in [
        (r#"{"sms":["Hello","alert"]}"#, "sms", "struct SmsRequest"),
        (r#"{"sms":{"message":["Hello","alert"]}}"#, "sms.message", "struct MessageDto"),
        (
            r#"{"sms":{"message":{"text":"Hi"},"recipients":{"gsm":[["33612345678"]]}}}"#,
            "sms.recipients.gsm[0]",
            "struct GsmDto",
        ),
    ] {
        let refused = format!("invalid type: sequence, expected {expected}");
        match decode::<SmsRequest>(body, Format::Json) {
            Err(Error::Json { message, path, .. }) => {
                assert_eq!((message, path.as_deref()), (refused.clone(), Some(at)))
            }
            other => panic!("{body}: expected a JSON error, got {other:?}"),
        }
        // The npm package's reading says the same.
        match Kind::Sms.to_json(body, Format::Json) {
            Err(Error::Json { message, path, .. }) => assert_eq!((message, path.as_deref()), (refused, Some(at))),
            other => panic!("{body}: expected a JSON error, got {other:?}"),
        }
    }
    // A response's nested object, read by the package's `decode`.
    let webhook = r#"{"status":1,"message":"OK","webhook":["MO","https://example.com/mo"]}"#;
    assert!(matches!(
        Kind::WebhookResponse.to_json(webhook, Format::Json),
        Err(Error::Json { message, .. }) if message == "invalid type: sequence, expected struct WebhookDto"
    ));
    // In XML a repeated element is a list: a second <message> is refused, not read by position.
    let xml = "<sms><message><text>Hi</text></message><message><text>Ho</text></message></sms>";
    assert!(matches!(
        decode::<SmsRequest>(xml, Format::Xml),
        Err(Error::Xml { message, path: Some(path) }) if message.starts_with("invalid type: sequence") && path == "sms.message"
    ));
}

#[test]
fn an_addition_that_is_an_object_is_read_not_dropped() {
    // texto's `ab` and `utm` may be anything but an object, left out as if never sent; an
    // object is read, and refused where it does not read: a send that asked for an A/B test is
    // never sent without one.
    let body = |ab: &str| format!(r#"{{"sms":{{"message":{{"text":"Hi","ab":{ab}}}}}}}"#);
    for left_out in [r#""x""#, "[1, 2]", "5", "null"] {
        assert_eq!(decode::<SmsRequest>(&body(left_out), Format::Json).unwrap().message.ab, None, "{left_out}");
    }
    let whole = body(r#"{"share":"20","wait":"2h"}"#);
    let read = decode::<SmsRequest>(&whole, Format::Json).unwrap();
    assert_eq!(read.message.ab.and_then(|ab| ab.share), Some(20));
    let broken = body(r#"{"share":"half"}"#);
    for reading in
        [decode::<SmsRequest>(&broken, Format::Json).map(drop), Kind::Sms.to_json(&broken, Format::Json).map(drop)]
    {
        match reading {
            Err(Error::Json { path, .. }) => assert_eq!(path.as_deref(), Some("sms.message.ab.share")),
            other => panic!("expected a JSON error at sms.message.ab.share, got {other:?}"),
        }
    }
}
