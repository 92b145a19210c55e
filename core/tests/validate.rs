//! `validate_send`: the wire request becomes a campaign, or every problem is named.

use chrono::{DateTime, TimeZone, Utc};
use texto_core::{
    Audience, Endpoint, Error, MessageOptions, PushType, validate_send,
    wire::{Format, SmsRequest, decode},
};

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap()
}

fn check(body: &str, endpoint: Endpoint) -> Result<texto_core::Campaign<'_>, Error> {
    let request: SmsRequest = decode(body, Format::Json).expect("decodes");
    validate_send(request, endpoint, &MessageOptions::default(), now())
}

fn paths(error: Error) -> Vec<String> {
    error.field_errors().into_iter().map(|e| e.path).collect()
}

#[test]
fn a_complete_request_becomes_a_campaign() {
    let body = r#"{"sms":{"message":{"text":"Hello <-short->","pushtype":"marketing","sender":"Shop",
        "delay":"2026-12-24 09:30:00","links":["https://example.com/a"],"unicode":1},
        "recipients":{"gsm":[{"value":"33612345678","gsmsmsid":"a1"}]}}}"#;
    let campaign = check(body, Endpoint::Send).expect("valid");
    assert_eq!(campaign.pushtype(), PushType::Marketing);
    assert_eq!(campaign.sender().map(|s| s.as_str()), Some("Shop"));
    assert_eq!(campaign.delay(), Some(Utc.with_ymd_and_hms(2026, 12, 24, 8, 30, 0).unwrap()));
    assert!(campaign.unicode());
    match campaign.audience() {
        Audience::Numbers(r) => {
            let first = r.iter().next().expect("one recipient");
            assert_eq!((first.number, first.gsmsmsid), ("33612345678", Some("a1")));
        }
        other => panic!("numbers expected, got {other:?}"),
    }
}

#[test]
fn every_problem_is_reported_at_once() {
    let body = r#"{"sms":{"message":{"pushtype":"promo","sender":"A B","links":["ftp://x"]}}}"#;
    let error = check(body, Endpoint::Send).expect_err("invalid");
    assert_eq!(error.status(), -7);
    let paths = paths(error);
    for expected in [
        "sms.message.text",
        "sms.message.pushtype",
        "sms.message.sender",
        "sms.message.links",
        "sms.message.links[0]",
        "sms.recipients.gsm",
    ] {
        assert!(paths.iter().any(|p| p == expected), "{expected} missing from {paths:?}");
    }
}

#[test]
fn pushtype_is_required_to_send_but_not_to_simulate() {
    let body = r#"{"sms":{"message":{"text":"Hi"},"recipients":{"gsm":[{"value":"33612345678"}]}}}"#;
    assert_eq!(paths(check(body, Endpoint::Send).expect_err("required")), ["sms.message.pushtype"]);
    assert_eq!(check(body, Endpoint::Simulate).expect("optional").pushtype(), PushType::Alert);
}

#[test]
fn links_must_match_the_short_markers() {
    let body = r#"{"sms":{"message":{"text":"<-short-> and <-short->","pushtype":"alert","links":["https://a.fr"]},
        "recipients":{"gsm":[{"value":"33612345678"}]}}}"#;
    assert_eq!(paths(check(body, Endpoint::Send).expect_err("count")), ["sms.message.links"]);
}

#[test]
fn a_bad_delay_alone_is_status_minus_4() {
    for delay in ["2026-03-29 02:30:00", "24/12/2026", "2028-01-01 10:00:00"] {
        let body = format!(
            r#"{{"sms":{{"message":{{"text":"Hi","pushtype":"alert","delay":"{delay}"}},"recipients":{{"gsm":[{{"value":"33612345678"}}]}}}}}}"#
        );
        let error = check(&body, Endpoint::Send).expect_err(delay);
        assert_eq!(error.status(), -4, "{delay}");
    }
}

#[test]
fn a_bad_delay_with_other_problems_is_listed_among_them() {
    let body = r#"{"sms":{"message":{"pushtype":"alert","delay":"nope"},"recipients":{"gsm":[{"value":"1"}]}}}"#;
    let error = check(body, Endpoint::Send).expect_err("invalid");
    assert_eq!(error.status(), -7);
    assert_eq!(paths(error), ["sms.message.text", "sms.message.delay"]);
}

#[test]
fn past_or_empty_delay_sends_now() {
    let body = r#"{"sms":{"message":{"text":"Hi","pushtype":"alert","delay":"2020-01-01 10:00:00"},"recipients":{"gsm":[{"value":"1"}]}}}"#;
    assert_eq!(check(body, Endpoint::Send).expect("valid").delay(), None);
}

#[test]
fn list_endpoints_need_lists() {
    let body =
        r#"{"sms":{"message":{"text":"Hi [info1]","pushtype":"alert"},"lists":[{"value":45190},{"value":"5a03"}]}}"#;
    match check(body, Endpoint::SendLists).expect("valid").audience() {
        Audience::Lists { lists, segments } => {
            assert_eq!(lists, &["45190", "5a03"]);
            assert!(segments.is_empty());
        }
        other => panic!("lists expected, got {other:?}"),
    }
    let none = r#"{"sms":{"message":{"text":"Hi","pushtype":"alert"}}}"#;
    assert_eq!(paths(check(none, Endpoint::SimulateLists).expect_err("no lists")), ["sms.lists"]);
}

#[test]
fn more_than_ten_parts_is_refused() {
    let long = "a".repeat(1531);
    let body = format!(
        r#"{{"sms":{{"message":{{"text":"{long}","pushtype":"alert"}},"recipients":{{"gsm":[{{"value":"1"}}]}}}}}}"#
    );
    let error = check(&body, Endpoint::Send).expect_err("too long");
    assert!(error.to_string().contains("11 SMS parts"), "{error}");
    let fits = "a".repeat(1530);
    let body = format!(
        r#"{{"sms":{{"message":{{"text":"{fits}","pushtype":"alert"}},"recipients":{{"gsm":[{{"value":"1"}}]}}}}}}"#
    );
    assert!(check(&body, Endpoint::Send).is_ok());
}

#[test]
fn blanks_around_the_text_are_dropped() {
    let xml = "<sms><message><text>\n   <![CDATA[Hi <-short->]]>\n  </text><pushtype>alert</pushtype><links>https://a.fr</links></message><recipients><gsm>33612345678</gsm></recipients></sms>";
    let request: SmsRequest = decode(xml, Format::Xml).expect("decodes");
    let campaign = validate_send(request, Endpoint::Send, &MessageOptions::default(), now()).expect("valid");
    assert_eq!(campaign.text(), "Hi <-short->");
}

#[test]
fn a_text_with_nul_is_refused_and_line_breaks_stay() {
    let body = |text: &str| {
        format!(
            r#"{{"sms":{{"message":{{"text":"{text}","pushtype":"alert"}},"recipients":{{"gsm":[{{"value":"33612345678"}}]}}}}}}"#
        )
    };
    let error = check(&body("a\\u0000b"), Endpoint::Send).unwrap_err();
    assert_eq!(paths(error), ["sms.message.text"]);
    assert_eq!(check(&body("a\\r\\nb"), Endpoint::Send).unwrap().text(), "a\r\nb");
}

#[test]
fn gsm_encoding_replaces_the_look_alikes_and_says_what_it_saved() {
    let long = "Fête d\u{2019}été : –20 % sur les crêpes… Venez goûter nos nouveautés, cœur fondant, tôt ce week-end !";
    let body = format!(
        r#"{{"sms":{{"message":{{"text":"{long}","pushtype":"alert","encoding":"gsm","validity":90}},
        "recipients":{{"gsm":[{{"value":"33612345678"}}]}}}}}}"#
    );
    let request: SmsRequest = decode(&body, Format::Json).expect("decodes");
    let campaign = validate_send(request, Endpoint::Send, &MessageOptions::default(), now()).expect("valid");
    assert!(campaign.text().starts_with("Fete d'été : -20 % sur les crepes... Venez gouter"));
    let smart = campaign.smart().expect("smart encoding applied");
    assert_eq!((smart.replaced, smart.parts_saved), (8, 1));
    assert_eq!(campaign.segments(&MessageOptions::default(), None).parts, 1);
    assert_eq!(campaign.validity().map(|v| v.minutes()), Some(90));
}

#[test]
fn auto_keeps_the_text_and_a_contact_field_is_made_gsm_too() {
    let body = r#"{"sms":{"message":{"text":"Bonjour [info1] – à bientôt","pushtype":"alert"},
        "recipients":{"gsm":[{"value":"33612345678"}]}}}"#;
    let campaign = check(body, Endpoint::Send).expect("valid");
    assert!(campaign.smart().is_none());
    assert_eq!(campaign.text(), "Bonjour [info1] – à bientôt");
    let gsm = r#"{"sms":{"message":{"text":"Bonjour [info1]","pushtype":"alert","encoding":"gsm"},
        "recipients":{"gsm":[{"value":"33612345678"}]}}}"#;
    let campaign = check(gsm, Endpoint::Send).expect("valid");
    let info = texto_core::MergeValues { info: ["Jérôme", "", "", ""], card: &[] };
    assert_eq!(campaign.segments(&MessageOptions::default(), Some(&info)).encoding, texto_core::Encoding::Gsm7);
    // A card's value too.
    let gsm = r#"{"sms":{"message":{"text":"Bonjour [firstname]","pushtype":"alert","encoding":"gsm"},
        "recipients":{"gsm":[{"value":"33612345678"}]}}}"#;
    let campaign = check(gsm, Endpoint::Send).expect("valid");
    let card = vec!["Jérôme".to_owned()];
    let values = texto_core::MergeValues { info: ["", "", "", ""], card: &card };
    assert_eq!(campaign.segments(&MessageOptions::default(), Some(&values)).encoding, texto_core::Encoding::Gsm7);
}

#[test]
fn a_bad_encoding_or_validity_is_named() {
    for (message, path) in [
        (r#""encoding":"latin1""#, "sms.message.encoding"),
        (r#""encoding":"gsm","unicode":1"#, "sms.message.encoding"),
        (r#""validity":4"#, "sms.message.validity"),
        (r#""validity":4321"#, "sms.message.validity"),
    ] {
        let body = format!(
            r#"{{"sms":{{"message":{{"text":"Hi","pushtype":"alert",{message}}},"recipients":{{"gsm":[{{"value":"33612345678"}}]}}}}}}"#
        );
        let request: SmsRequest = decode(&body, Format::Json).expect("decodes");
        let error = validate_send(request, Endpoint::Send, &MessageOptions::default(), now()).expect_err(message);
        assert_eq!(error.status(), -7);
        assert_eq!(paths(error), [path], "{message}");
    }
}
