//! Hostile input to the wire decoders: arbitrary and mutated bodies never panic, DOCTYPE and
//! entity declarations are refused, deep nesting is an error (never a stack
//! overflow), over-size bodies are refused before parsing, and errors say where.
#![cfg(not(target_arch = "wasm32"))]

use std::{path::Path, thread};

use proptest::{collection::vec, prelude::*};
use texto_core::{
    Error,
    wire::{self, *},
};

// ---------------------------------------------------------------------------------------------
// Helpers

/// Decodes `body` in `format` as every document (requests and responses, borrowing and
/// owning, with and without JSON root, with and without count limits); only "did not panic"
/// matters to the callers.
fn decode_as_many(body: &str, format: Format) {
    let _ = decode::<SmsRequest>(body, format);
    let _ = decode::<CampaignResultDto>(body, format);
    let _ = decode::<WebhookRequest>(body, format);
    let _ = decode::<WebhookListResponse>(body, format);
    let _ = decode::<NotificationRequest>(body, format);
    let _ = decode::<NumberListResponse>(body, format);
    let _ = decode::<ListRequest>(body, format);
    let _ = decode::<CampaignDetailResponse>(body, format);
    let _ = decode::<ErrorResponse>(body, format);
    let _ = decode::<DlrEvent>(body, format);
    // Every document kind, and the send request's own reader, unbounded and with a small limit.
    for name in KINDS {
        let kind = Kind::parse(name).expect("a kind");
        let _ = kind.to_json(body, format);
    }
    for limits in [Limits::UNBOUNDED, Limits::items(2)] {
        if let Err(error) = decode_sms_with(body, format, limits) {
            // An error answer is an envelope, and a bounded one.
            let answer = encode(&ErrorResponse::from(&error), format);
            assert!(answer.len() < 64 * 1024, "{} bytes", answer.len());
        }
        let _ = decode_with::<ListRequest>(body, format, limits);
        let _ = decode_with::<NpaiAddRequest>(body, format, limits);
        let _ = decode_with::<BlacklistAddRequest>(body, format, limits);
    }
}

/// The name of every document kind (`wire::Kind`).
const KINDS: &[&str] = &[
    "sms",
    "webhook",
    "notification",
    "npaiAdd",
    "blacklistAdd",
    "list",
    "campaignResult",
    "webhookResponse",
    "webhookList",
    "webhookLog",
    "notificationResponse",
    "numberList",
    "addedContacts",
    "listSaved",
    "listContents",
    "lists",
    "campaigns",
    "campaignDetail",
    "credits",
    "error",
    "status",
    "dlr",
    "reply",
    "clicker",
    "balanceAlert",
];

/// Every sample of `tests/fixtures`, with its name.
fn fixtures() -> Vec<(String, String)> {
    let dir = Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo test")).join("tests/fixtures");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("fixtures folder")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json" || ext == "xml"))
        .map(|path| {
            let name = path.file_name().expect("name").to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).expect("utf-8 fixture"))
        })
        .collect();
    files.sort();
    assert!(files.len() > 40, "fixtures not found in {}", dir.display());
    files
}

/// Runs `f` on a thread with a 1 MiB stack (half the test threads' default): a decoder that
/// recursed once per nesting level would overflow it long before 100 000 levels.
fn on_small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    thread::Builder::new().stack_size(1 << 20).spawn(f).expect("thread").join().expect("no panic")
}

fn xml_message(error: &Error) -> &str {
    match error {
        Error::Xml { message, .. } => message,
        other => panic!("expected an XML error, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Arbitrary and mutated bodies never panic

/// Text that looks like markup or JSON, to get past the first byte.
fn markupish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        prop::sample::select(vec![
            "<",
            ">",
            "</",
            "/>",
            "<sms>",
            "</sms>",
            "<response>",
            "</response>",
            "<message>",
            "</message>",
            "<gsm a=\"1\">",
            "</gsm>",
            "<list>",
            "</list>",
            "<![CDATA[",
            "]]>",
            "<!--",
            "-->",
            "<?xml ?>",
            "&",
            "&amp;",
            "&#0;",
            "&#x110000;",
            "&#13;",
            "&lt",
            "=",
            "\"",
            "'",
            "{",
            "}",
            "[",
            "]",
            ":",
            ",",
            "\"sms\"",
            "\"message\"",
            "\"value\"",
            "\"status\"",
            "null",
            "true",
            "1e999",
            "-0",
            "99999999999999999999",
            "\\u0000",
            "\\ud800",
            "\\",
            " ",
            "\n",
            "\r",
            "\u{feff}",
            "é",
            "😀",
        ])
        .prop_map(str::to_owned),
        "[a-z0-9]{1,4}",
        any::<char>().prop_map(String::from),
    ];
    vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

/// One edit of a body, at character positions taken modulo its length.
#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, String),
    Duplicate(usize, usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1..20usize).prop_map(|(at, len)| Mutation::Delete(at, len)),
        (any::<usize>(), markupish()).prop_map(|(at, text)| Mutation::Insert(at, text)),
        (any::<usize>(), 1..60usize).prop_map(|(at, len)| Mutation::Duplicate(at, len)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(body: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = body.chars().collect();
    for mutation in mutations {
        let n = chars.len().max(1);
        match mutation {
            Mutation::Delete(at, len) => {
                let start = (at % n).min(chars.len());
                let end = (start + len).min(chars.len());
                chars.drain(start..end);
            }
            Mutation::Insert(at, text) => {
                let at = (at % n).min(chars.len());
                chars.splice(at..at, text.chars());
            }
            Mutation::Duplicate(at, len) => {
                let start = (at % n).min(chars.len());
                let end = (start + len).min(chars.len());
                let copy: Vec<char> = chars[start..end].to_vec();
                chars.splice(end..end, copy);
            }
            Mutation::Truncate(at) => chars.truncate(at % n),
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(body in any::<String>()) {
        decode_as_many(&body, Format::Json);
        decode_as_many(&body, Format::Xml);
    }

    #[test]
    fn markup_like_strings_never_panic(body in markupish()) {
        decode_as_many(&body, Format::Json);
        decode_as_many(&body, Format::Xml);
    }

    #[test]
    fn mutated_fixtures_never_panic(index in any::<prop::sample::Index>(), mutations in vec(mutation(), 1..4)) {
        let files = fixtures();
        let (_, original) = &files[index.index(files.len())];
        let body = mutate(original, &mutations);
        decode_as_many(&body, Format::Json);
        decode_as_many(&body, Format::Xml);
    }
}

#[test]
fn arbitrary_bytes_read_lossily_never_panic() {
    // Bodies arrive as bytes; whatever the server does with invalid UTF-8, the decoder only
    // ever sees a `str`. Every byte value, and some invalid sequences, after lossy decoding.
    let bytes: Vec<u8> = (0..=255u8).chain([0xc3, 0x28, 0xe2, 0x82, 0xf0, 0x9f, 0x98]).collect();
    for chunk in bytes.chunks(7) {
        for prefix in ["", "<sms>", "{\"sms\":"] {
            let mut body = prefix.as_bytes().to_vec();
            body.extend_from_slice(chunk);
            let text = String::from_utf8_lossy(&body);
            decode_as_many(&text, Format::Json);
            decode_as_many(&text, Format::Xml);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// DOCTYPE and entities

const BILLION_LAUGHS: &str = r#"<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol9 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
]>
<sms><message><text>&lol9;</text></message></sms>"#;

const EXTERNAL_ENTITY: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE sms [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<sms><message><text>&xxe;</text></message></sms>"#;

#[test]
fn doctype_and_entity_declarations_are_refused() {
    let hostile = [
        BILLION_LAUGHS.to_owned(),
        EXTERNAL_ENTITY.to_owned(),
        // Parameter entity pulling an external DTD.
        r#"<!DOCTYPE sms [<!ENTITY % ext SYSTEM "http://example.invalid/x.dtd"> %ext;]><sms/>"#.to_owned(),
        // External DTD subset only.
        r#"<!DOCTYPE sms SYSTEM "file:///etc/passwd"><sms/>"#.to_owned(),
        // Behind a BOM, comments and processing instructions.
        format!("\u{feff}<?xml version=\"1.0\"?><!-- a --><?pi x?>\n{EXTERNAL_ENTITY}"),
        // Lower case and no whitespace: not a valid DOCTYPE, still refused.
        "<!doctype sms><sms/>".to_owned(),
    ];
    for body in &hostile {
        let error = decode::<SmsRequest>(body, Format::Xml).expect_err(body);
        let message = xml_message(&error);
        assert!(message.contains("DOCTYPE"), "{message}");
        assert!(!format!("{error}").contains("root:"), "{error}");
    }
}

#[test]
fn a_doctype_after_the_prolog_is_refused_too() {
    // Not well-formed XML, but quick-xml reports it: refused by the entity resolver, not
    // silently skipped, whether or not an entity is used.
    for body in [
        r#"<sms><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><message><text>&xxe;</text></message></sms>"#,
        r#"<sms><message/><!DOCTYPE x [<!ENTITY a "b">]></sms>"#,
    ] {
        let error = decode::<SmsRequest>(body, Format::Xml).expect_err(body);
        assert!(xml_message(&error).contains("DOCTYPE"), "{error}");
    }
}

#[test]
fn undeclared_entities_are_errors_and_predefined_ones_resolve() {
    let error = decode::<SmsRequest>("<sms><message><text>&xxe;</text></message></sms>", Format::Xml).unwrap_err();
    assert_eq!(error, Error::Xml { message: "unknown entity &xxe;".into(), path: Some("sms.message.text".into()) });
    let sms: SmsRequest =
        decode("<sms><message><text>&lt;&gt;&amp;&apos;&quot;&#233;&#x1F600;</text></message></sms>", Format::Xml)
            .expect("predefined entities");
    assert_eq!(sms.message.text.as_deref(), Some("<>&'\"é😀"));
}

// ---------------------------------------------------------------------------------------------
// Deep nesting

const DEEP: usize = 100_000;

#[test]
fn deeply_nested_json_is_an_error() {
    let bodies = [
        "[".repeat(DEEP),
        format!("{}{}", "[".repeat(DEEP), "]".repeat(DEEP)),
        format!("{{\"sms\":{{\"message\":{{\"text\":{}", "[".repeat(DEEP)),
        format!("{{\"status\":1,\"message\":\"OK\",\"list\":[{{\"user_information\":{}", "{\"a\":".repeat(DEEP)),
        format!("{{\"status\":1,\"unknown\":{}", "[".repeat(DEEP)),
    ];
    for body in bodies {
        let (sms, list) = on_small_stack(move || {
            (
                decode::<SmsRequest>(&body, Format::Json).map(drop),
                decode::<NumberListResponse>(&body, Format::Json).map(drop),
            )
        });
        assert!(matches!(sms, Err(Error::Json { .. })), "{sms:?}");
        assert!(matches!(list, Err(Error::Json { .. })), "{list:?}");
    }
    // In a key the document does not know, serde_json skips the value with a loop (no
    // recursion): unclosed it is a syntax error (line and column), closed it is skipped.
    let open = "[".repeat(DEEP);
    let unclosed = format!("{{\"status\":1,\"message\":\"OK\",\"unknown\":{open}");
    let closed = format!("{{\"status\":1,\"message\":\"OK\",\"unknown\":{open}{}}}", "]".repeat(DEEP));
    let (unclosed, closed) = on_small_stack(move || {
        (decode::<StatusResponse>(&unclosed, Format::Json), decode::<StatusResponse>(&closed, Format::Json))
    });
    assert!(
        matches!(&unclosed, Err(Error::Json { message, path: None, line: 1, .. }) if message == "EOF while parsing a list"),
        "{unclosed:?}"
    );
    assert_eq!(closed, Ok(StatusResponse::ok()));
}

#[test]
fn deeply_nested_xml_is_an_error_without_recursion() {
    let open = "<a>".repeat(DEEP);
    let close = "</a>".repeat(DEEP);
    // In a text field: an error naming the field.
    let in_text = format!("<sms><message><text>{open}{close}</text></message></sms>");
    // Never closed: an error.
    let unclosed = format!("<sms><message>{open}</message></sms>");
    let unclosed_known = format!("<sms>{}", "<message>".repeat(DEEP));
    let (in_text, unclosed, unclosed_known) = on_small_stack(move || {
        (
            decode::<SmsRequest>(&in_text, Format::Xml).map(drop),
            decode::<SmsRequest>(&unclosed, Format::Xml).map(drop),
            decode::<SmsRequest>(&unclosed_known, Format::Xml).map(drop),
        )
    });
    let in_text = in_text.expect_err("too deep");
    assert!(in_text.field_errors()[0].path.starts_with("sms.message.text.a"), "{in_text:?}");
    assert!(in_text.to_string().contains("nested more than 32 deep"), "{in_text}");
    assert!(matches!(unclosed, Err(Error::Xml { .. })), "{unclosed:?}");
    assert!(matches!(unclosed_known, Err(Error::Xml { .. })), "{unclosed_known:?}");

    // Nesting is bounded wherever it is, also in elements the document does not know or
    // ignores: the reader keeps a stack of open elements, never recursion.
    let unknown = format!("<sms><message><text>hi</text>{open}{close}</message></sms>");
    let ignored = format!(
        "<response><status>1</status><message>OK</message><list><id>1</id>\
         <user_information>{open}{close}</user_information></list>\
         <totalRecords>1</totalRecords><totalDisplayRecords>1</totalDisplayRecords></response>"
    );
    let shallow = format!("<sms><message><text>hi</text>{}{}</message></sms>", "<a>".repeat(20), "</a>".repeat(20));
    let (unknown, ignored, shallow) = on_small_stack(move || {
        (
            decode::<SmsRequest>(&unknown, Format::Xml).map(|sms| sms.message.text),
            decode::<NumberListResponse>(&ignored, Format::Xml).map(|list| list.list.len()),
            decode::<SmsRequest>(&shallow, Format::Xml).map(|sms| sms.message.text),
        )
    });
    assert!(matches!(unknown, Err(Error::Xml { .. })), "{unknown:?}");
    assert!(matches!(ignored, Err(Error::Xml { .. })), "{ignored:?}");
    assert_eq!(shallow, Ok(Some("hi".to_owned())), "unknown elements within the bound are skipped");
}

// ---------------------------------------------------------------------------------------------
// Size

#[test]
fn over_size_bodies_are_refused_before_parsing() {
    // Valid documents once the padding is ignored: a parse would succeed, so the size error
    // shows that nothing was parsed.
    let padding = " ".repeat(wire::MAX_BODY_BYTES);
    let json = format!("{{\"sms\":{{}}}}{padding}");
    let xml = format!("<sms></sms>{padding}");
    assert!(decode::<SmsRequest>(&json[..wire::MAX_BODY_BYTES], Format::Json).is_ok());
    assert!(decode::<SmsRequest>(&xml[..wire::MAX_BODY_BYTES], Format::Xml).is_ok());
    let message = format!("the body is over {} bytes", wire::MAX_BODY_BYTES);
    assert_eq!(
        decode::<SmsRequest>(&json, Format::Json),
        Err(Error::Json { message: message.clone(), path: None, line: 1, column: 1 })
    );
    assert_eq!(decode::<SmsRequest>(&xml, Format::Xml), Err(Error::Xml { message, path: None }));
}

// ---------------------------------------------------------------------------------------------
// Errors say where

#[test]
fn json_errors_carry_line_column_and_field_path() {
    let body =
        "{\"sms\": {\n  \"recipients\": {\"gsm\": [\n    {\"value\": \"33612345678\"},\n    {\"value\": 5}\n  ]}\n}}";
    assert_eq!(
        decode::<SmsRequest>(body, Format::Json),
        Err(Error::Json {
            message: "invalid type: integer `5`, expected a string".into(),
            path: Some("sms.recipients.gsm[1].value".into()),
            line: 4,
            column: 15,
        })
    );
    // A lenient field: the message is the codec's own; serde_json places it just after the value.
    let body = "{\"status\": 1, \"message\": \"OK\", \"cost\": \"2\", \"credits\": 1,\n\"total\": \"many\"}";
    let error = decode::<CampaignResultDto>(body, Format::Json).unwrap_err();
    assert_eq!(
        error,
        Error::Json {
            message: "expected a whole number, found \"many\"".into(),
            path: Some("total".into()),
            line: 2,
            column: 16,
        }
    );
    assert_eq!(error.to_string(), "JSON error: total: expected a whole number, found \"many\" (line 2, column 16)");
    // A syntax error: where is the line and column (the document has no fields to name).
    assert_eq!(
        decode::<SmsRequest>("{\"sms\":{\"message\":{\"text\":\"a\",}}}", Format::Json),
        Err(Error::Json { message: "trailing comma".into(), path: None, line: 1, column: 31 })
    );
    // Nothing readable at all: no path.
    let error = decode::<SmsRequest>("", Format::Json).unwrap_err();
    assert!(matches!(error, Error::Json { path: None, line: 1, column: 0, .. }), "{error:?}");
}

#[test]
fn xml_errors_carry_the_field_path() {
    let cases: [(&str, &str, &str); 4] = [
        ("<sms><message><unicode>2</unicode></message></sms>", "sms.message.unicode", "expected 0 or 1, found \"2\""),
        (
            "<sms><recipients><gsm>1</gsm><gsm><value><x/></value></gsm></recipients></sms>",
            "sms.recipients.gsm[1].value",
            "invalid type: map, expected a string",
        ),
        (
            "<sms><message><text>a</message></sms>",
            "sms.message.text",
            "ill-formed document: expected `</text>`, but `</message>` was found",
        ),
        ("<sms><lists><value>1</value></lists><lists><value>null</value></lists></sms>", "", ""),
    ];
    for (body, path, message) in cases {
        match decode::<SmsRequest>(body, Format::Xml) {
            Err(Error::Xml { message: got, path: got_path }) => {
                assert_eq!((got.as_str(), got_path.as_deref()), (message, Some(path)), "{body}");
            }
            // The last case is valid: a non-nullable list id reads the text `null` as a text.
            Ok(sms) if path.is_empty() => {
                let ids: Vec<String> = sms.lists.unwrap_or_default().into_iter().map(|l| l.value).collect();
                assert_eq!(ids, ["1", "null"]);
            }
            other => panic!("{body}: {other:?}"),
        }
    }
    let error = decode::<CampaignResultDto>("<response><status>x</status></response>", Format::Xml).unwrap_err();
    assert_eq!(error.to_string(), "XML error: response.status: expected a whole number, found \"x\"");
    // Refused before parsing: no path.
    let error = decode::<CampaignResultDto>("<sms/>", Format::Xml).unwrap_err();
    assert_eq!(error, Error::Xml { message: "the root element must be <response>, found <sms>".into(), path: None });
}
