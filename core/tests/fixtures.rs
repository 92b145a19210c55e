//! Every request and response sample of the public docs (`tests/fixtures/`), decoded with its
//! DTO and encoded again in the same format, must give the same document.
//!
//! "The same" compares structure and values, not bytes: key and element order, whitespace,
//! the XML declaration and CDATA-vs-escaped text are free; a number and the same number
//! written as a string are equal (XML has no types, and the samples mix both); an XML
//! attribute equals a child element of the same name (the samples use both for `gsm`).
#![cfg(not(target_arch = "wasm32"))]

use std::{collections::BTreeMap, path::Path};

use quick_xml::events::Event;
use serde_json::Value;
use texto_core::wire::*;

fn fixture(name: &str) -> String {
    let path =
        Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo test")).join("tests/fixtures").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn format_of(name: &str) -> Format {
    if name.ends_with(".xml") { Format::Xml } else { Format::Json }
}

fn assert_same_document(name: &str, original: &str, encoded: &str) {
    match format_of(name) {
        Format::Json => assert_eq!(json_tree(encoded), json_tree(original), "{name} re-encoded differs:\n{encoded}"),
        Format::Xml => assert_eq!(xml_tree(encoded), xml_tree(original), "{name} re-encoded differs:\n{encoded}"),
    }
}

/// A format-neutral tree: scalars as text, objects as sorted children.
#[derive(Debug, PartialEq)]
enum Tree {
    Text(String),
    Node(BTreeMap<String, Vec<Tree>>),
}

fn json_tree(text: &str) -> Tree {
    fn convert(value: &Value) -> Tree {
        match value {
            Value::Object(map) => Tree::Node(
                map.iter()
                    .map(|(k, v)| {
                        let items = match v {
                            Value::Array(items) => items.iter().map(convert).collect(),
                            other => vec![convert(other)],
                        };
                        (k.clone(), items)
                    })
                    .collect(),
            ),
            Value::String(s) => Tree::Text(s.clone()),
            Value::Null => Tree::Text("null".into()),
            other => Tree::Text(other.to_string()),
        }
    }
    convert(&serde_json::from_str(text).expect("valid JSON"))
}

fn xml_tree(text: &str) -> Tree {
    let mut reader = quick_xml::Reader::from_str(text);
    // (name, children, text) of each open element.
    let mut stack: Vec<(String, BTreeMap<String, Vec<Tree>>, String)> =
        vec![("#doc".into(), BTreeMap::new(), String::new())];
    let finish = |name: &str, mut children: BTreeMap<String, Vec<Tree>>, text: String| -> Tree {
        let text = text.trim().to_owned();
        if children.is_empty() {
            return Tree::Text(text);
        }
        if name == "gsm" && !text.is_empty() {
            children.entry("value".into()).or_default().push(Tree::Text(text));
        }
        Tree::Node(children)
    };
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(start) => {
                let mut children = BTreeMap::new();
                for attribute in start.attributes() {
                    let attribute = attribute.expect("attribute");
                    let key = String::from_utf8_lossy(attribute.key.as_ref()).into_owned();
                    let value = attribute.unescape_value().expect("attribute value").into_owned();
                    children.entry(key).or_insert_with(Vec::new).push(Tree::Text(value));
                }
                stack.push((String::from_utf8_lossy(start.name().as_ref()).into_owned(), children, String::new()));
            }
            Event::Empty(start) => {
                let name = String::from_utf8_lossy(start.name().as_ref()).into_owned();
                stack.last_mut().expect("parent").1.entry(name).or_default().push(Tree::Text(String::new()));
            }
            Event::End(_) => {
                let (name, children, text) = stack.pop().expect("open element");
                let node = finish(&name, children, text);
                stack.last_mut().expect("parent").1.entry(name).or_default().push(node);
            }
            Event::Text(text) => stack.last_mut().expect("open").2.push_str(&text.decode().expect("text")),
            Event::GeneralRef(reference) => {
                let entity = format!("&{};", String::from_utf8_lossy(&reference));
                let resolved = quick_xml::escape::unescape(&entity).expect("entity").into_owned();
                stack.last_mut().expect("open").2.push_str(&resolved);
            }
            Event::CData(data) => stack.last_mut().expect("open").2.push_str(&String::from_utf8_lossy(&data)),
            Event::Eof => break,
            _ => {}
        }
    }
    let (_, document, _) = stack.pop().expect("document");
    Tree::Node(document)
}

macro_rules! fixtures {
    ($($test:ident: $ty:ty => [$($file:literal),+]),* $(,)?) => {$(
        #[test]
        fn $test() {
            $({
                let original = fixture($file);
                let decoded: $ty = decode(&original, format_of($file)).unwrap_or_else(|e| panic!("{}: {e}", $file));
                assert_same_document($file, &original, &encode(&decoded, format_of($file)));
            })+
        }
    )*};
}

fixtures! {
    send_requests: SmsRequest<'_> => [
        "send.request.json", "send.request.xml", "send_shorturl.request.json", "send_shorturl.request.xml",
        "send_lists.request.json", "send_lists.request.xml", "send_lists_objectid.request.json",
        "send_lists_simulate.request.json", "send_lists_simulate.request.xml"
    ],
    campaign_results: CampaignResultDto => [
        "send.response.json", "send_get.response.json", "send_get.response.xml", "send_lists.response.json",
        "send_lists_simulate.response.json", "send_simulate_get.response.json", "send_simulate_get.response.xml"
    ],
    webhook_requests: WebhookRequest => [
        "webhook_create.request.json", "webhook_create.request.xml", "webhook_update.request.json",
        "webhook_update.request.xml", "webhook_status.request.json", "webhook_status.request.xml"
    ],
    webhook_responses: WebhookResponse => [
        "webhook_create.response.json", "webhook_create.response.xml", "webhook_update.response.json",
        "webhook_update.response.xml", "webhook_status.response.json", "webhook_status.response.xml"
    ],
    notification_requests: NotificationRequest => ["notification_balance.request.json", "notification_balance.request.xml"],
    notification_responses: NotificationResponse => [
        "notification_balance.response.json", "notification_balance.response.xml",
        "notification_balance_get.response.json", "notification_balance_get.response.xml"
    ],
    number_lists: NumberListResponse => ["npai.response.json", "npai.response.xml", "blacklist.response.json"],
    npai_additions: NpaiAddRequest => ["npai_add.request.json", "npai_add.request.xml"],
    blacklist_additions: BlacklistAddRequest => ["blacklist_add.request.json", "blacklist_add.request.xml"],
    added_contacts: AddedContactsResponse => [
        "npai_add.response.json", "npai_add.response.xml", "blacklist_add.response.json", "blacklist_add.response.xml"
    ],
    list_requests: ListRequest => [
        "list_create.request.json", "list_create.request.xml", "list_add_contacts.request.json", "list_add_contacts.request.xml"
    ],
    list_saved: ListSavedResponse => ["list_create.response.json", "list_add_contacts.response.json", "list_add_contacts.response.xml"],
    list_contents: ListResponse => ["list_get.response.json"],
    campaign_history: CampaignsResponse => ["campaigns.response.json"],
    campaign_detail: CampaignDetailResponse => ["campaign.response.json", "campaign.response.xml"],
    credits: CreditsResponse => ["credits.response.json", "credits.response.xml"],
    dlr_events: DlrEvent => ["webhook_dlr.request.json"],
    reply_events: ReplyEvent => ["webhook_mo.request.json", "webhook_stop.request.json"],
    clicker_events: ClickerEvent => ["webhook_clicker.request.json"],
    balance_alert_events: BalanceAlertEvent => ["webhook_balance_alert.request.json"],
}

#[test]
fn every_fixture_file_is_checked() {
    let source = include_str!("fixtures.rs");
    let dir = Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo test")).join("tests/fixtures");
    for entry in std::fs::read_dir(dir).expect("fixtures folder") {
        let name = entry.expect("entry").file_name().into_string().expect("utf-8 name");
        if name.ends_with(".json") || name.ends_with(".xml") {
            assert!(source.contains(&format!("\"{name}\"")), "{name} is not round-tripped by any test");
        }
    }
}

#[test]
fn every_fixture_kind_is_detected_from_the_body() {
    let expected = [
        ("send.request.json", Kind::Sms),
        ("send_lists.request.xml", Kind::Sms),
        ("send.response.json", Kind::CampaignResult),
        ("send_get.response.xml", Kind::CampaignResult),
        ("webhook_create.request.xml", Kind::Webhook),
        ("webhook_create.response.json", Kind::WebhookResponse),
        ("notification_balance.request.json", Kind::Notification),
        ("notification_balance.response.xml", Kind::NotificationResponse),
        ("npai.response.xml", Kind::NumberList),
        ("npai_add.request.json", Kind::NpaiAdd),
        ("blacklist_add.request.json", Kind::BlacklistAdd),
        ("npai_add.response.json", Kind::AddedContacts),
        ("list_create.request.xml", Kind::List),
        ("list_create.response.json", Kind::ListSaved),
        ("list_get.response.json", Kind::ListContents),
        ("campaigns.response.json", Kind::Campaigns),
        ("campaign.response.xml", Kind::CampaignDetail),
        ("credits.response.xml", Kind::Credits),
        ("webhook_dlr.request.json", Kind::Dlr),
        ("webhook_mo.request.json", Kind::Reply),
        ("webhook_clicker.request.json", Kind::Clicker),
        ("webhook_balance_alert.request.json", Kind::BalanceAlert),
    ];
    for (name, kind) in expected {
        let body = fixture(name);
        assert_eq!(Kind::detect(&body, format_of(name)), Some(kind), "{name}");
        // Through the JSON form and back, in the other format too.
        let json = kind.to_json(&body, format_of(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        for format in [Format::Json, Format::Xml] {
            let written = kind.encode_json(&json, format).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(kind.to_json(&written, format).expect("reads back"), json, "{name} via {format:?}");
        }
    }
}

#[test]
fn the_fast_sms_reader_reads_every_send_sample_like_serde() {
    for name in
        ["send.request.xml", "send_shorturl.request.xml", "send_lists.request.xml", "send_lists_simulate.request.xml"]
    {
        let body = fixture(name);
        let fast = decode_sms(&body, Format::Xml).unwrap_or_else(|e| panic!("{name}: {e}"));
        let serde: SmsRequest = decode(&body, Format::Xml).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(fast, serde, "{name}");
    }
    let error = decode_sms(
        "<sms><message><text>x</text></message><recipients><gsm>1</gsm><gsm>&bogus;</gsm></recipients></sms>",
        Format::Xml,
    )
    .expect_err("unknown entity");
    assert!(error.to_string().contains("sms.recipients.gsm[1]"), "{error}");
    assert!(decode_sms("<!DOCTYPE sms [<!ENTITY a 'b'>]><sms/>", Format::Xml).is_err());
}
