//! Hostile bodies: oversized counts stop while decoding, documents are strict.

use reqwest::Method;
use serde_json::Value;

use crate::helpers::{TestApp, spawn_app, spawn_app_with};

/// Posts `body` with `content_type`, answering JSON: the HTTP status and the answer.
async fn post(app: &TestApp, path: &str, content_type: &str, body: String) -> (u16, Value) {
    let response = app
        .request(&app.token, Method::POST, path)
        .header("Content-Type", content_type)
        .body(body)
        .send()
        .await
        .expect("request sent");
    let status = response.status().as_u16();
    (status, response.json().await.expect("a JSON answer"))
}

/// `n` copies of `item`, comma-separated.
fn repeated(item: &str, n: usize, separator: &str) -> String {
    let mut text = String::with_capacity((item.len() + separator.len()) * n);
    for i in 0..n {
        if i > 0 {
            text.push_str(separator);
        }
        text.push_str(item);
    }
    text
}

#[tokio::test]
async fn a_million_and_one_empty_recipients_are_refused_at_the_limit() {
    let app = spawn_app().await;
    let body = format!(
        r#"{{"sms":{{"message":{{"text":"x"}},"recipients":{{"gsm":[{}]}}}}}}"#,
        repeated("{}", 1_000_001, ",")
    );
    let (status, answer) = post(&app, "/send/simulate", "application/json", body).await;
    assert_eq!((status, answer["status"].as_i64()), (422, Some(-7)), "{answer}");
    assert!(answer.to_string().contains("sms.recipients.gsm") && answer.to_string().contains("1000000"), "{answer}");
}

#[tokio::test]
async fn every_list_shape_stops_at_the_limit_plus_one() {
    let app = spawn_app_with(|config| config.max_recipients = 100).await;
    let contacts =
        |root: &str| format!(r#"{{"{root}":{{"name":"big","contacts":{{"gsm":[{}]}}}}}}"#, repeated("{}", 101, ","));
    let xml_contacts =
        |root: &str| format!("<{root}><name>big</name><contacts>{}</contacts></{root}>", repeated("<gsm/>", 101, ""));
    let cases = [
        ("/list", "application/json", contacts("list"), "list.contacts.gsm"),
        ("/npai", "application/json", contacts("npai"), "npai.contacts.gsm"),
        ("/blacklist", "application/json", contacts("blacklist"), "blacklist.contacts.gsm"),
        ("/list", "application/xml", xml_contacts("list"), "list.contacts.gsm"),
        ("/npai", "application/xml", xml_contacts("npai"), "npai.contacts.gsm"),
        ("/blacklist", "application/xml", xml_contacts("blacklist"), "blacklist.contacts.gsm"),
        (
            "/send/simulate",
            "application/xml",
            format!(
                "<sms><message><text>x</text></message><recipients>{}</recipients></sms>",
                repeated("<gsm/>", 101, "")
            ),
            "sms.recipients.gsm",
        ),
        (
            "/send",
            "application/json",
            format!(r#"{{"sms":{{"message":{{"text":"x"}},"recipients":{{"gsm":[{}]}}}}}}"#, repeated("{}", 101, ",")),
            "sms.recipients.gsm",
        ),
    ];
    for (path, content_type, body, field) in cases {
        let (status, answer) = post(&app, path, content_type, body).await;
        assert_eq!((status, answer["status"].as_i64()), (422, Some(-7)), "{path} {content_type}: {answer}");
        let text = answer.to_string();
        assert!(text.contains(field) && text.contains("at most 100"), "{path} {content_type}: {answer}");
    }
    // The limit itself still reads.
    let body = format!(r#"{{"npai":{{"contacts":{{"gsm":[{}]}}}}}}"#, repeated(r#"{"value":"33612345678"}"#, 100, ","));
    let (status, answer) = post(&app, "/npai", "application/json", body).await;
    assert_eq!(status, 200, "{answer}");
}

#[tokio::test]
async fn content_after_the_document_is_refused() {
    let app = spawn_app().await;
    let send = r#"{"sms":{"message":{"text":"x"},"recipients":{"gsm":[{"value":"33612345678"}]}}}"#;
    let (status, answer) = post(&app, "/send/simulate", "application/json", format!("{send}}}]]garbage")).await;
    assert_eq!((status, answer["status"].as_i64()), (400, Some(-6)), "{answer}");
    let xml = "<sms><message><text>x</text></message><recipients><gsm>33612345678</gsm></recipients></sms>";
    for body in [format!("{xml}<sms/>"), format!("{xml}garbage")] {
        let (status, answer) = post(&app, "/send/simulate", "application/xml", body).await;
        assert_eq!((status, answer["status"].as_i64()), (400, Some(-2)), "{answer}");
    }
    let list = "<list><name>x</name><contacts><gsm>33612345678</gsm></contacts></list>";
    let (status, answer) = post(&app, "/list", "application/xml", format!("{list}<list/>")).await;
    assert_eq!((status, answer["status"].as_i64()), (400, Some(-2)), "{answer}");
    // Blanks and comments after the root element are fine.
    let (status, answer) = post(&app, "/send/simulate", "application/xml", format!("{xml}\n<!-- end -->\n")).await;
    assert_eq!(status, 200, "{answer}");
    let (status, answer) = post(&app, "/send/simulate", "application/json", format!("{send}\n  ")).await;
    assert_eq!(status, 200, "{answer}");
}

#[tokio::test]
async fn a_duplicate_root_key_is_refused() {
    let app = spawn_app().await;
    let one = r#"{"message":{"text":"x"},"recipients":{"gsm":[{"value":"33612345678"}]}}"#;
    let (status, answer) =
        post(&app, "/send/simulate", "application/json", format!(r#"{{"sms":{one},"sms":{one}}}"#)).await;
    assert_eq!((status, answer["status"].as_i64()), (400, Some(-6)), "{answer}");
    let body = r#"{"sms":{"message":{"text":"x","text":"y"},"recipients":{"gsm":[{"value":"33612345678"}]}}}"#;
    let (status, answer) = post(&app, "/send/simulate", "application/json", body.to_owned()).await;
    assert_eq!((status, answer["status"].as_i64()), (400, Some(-6)), "{answer}");
}

#[tokio::test]
async fn a_json_body_may_start_with_a_byte_order_mark() {
    let app = spawn_app().await;
    let send = r#"{"sms":{"message":{"text":"x"},"recipients":{"gsm":[{"value":"33612345678"}]}}}"#;
    for content_type in ["application/json", "text/plain"] {
        let (status, answer) = post(&app, "/send/simulate", content_type, format!("\u{feff}{send}")).await;
        assert_eq!(status, 200, "{content_type}: {answer}");
    }
}

#[tokio::test]
async fn a_delay_that_is_not_text_is_refused() {
    let app = spawn_app().await;
    for delay in ["{}", "5", "[]", "true"] {
        let body = format!(
            r#"{{"sms":{{"message":{{"text":"x","delay":{delay}}},"recipients":{{"gsm":[{{"value":"33612345678"}}]}}}}}}"#
        );
        let (status, answer) = post(&app, "/send/simulate", "application/json", body).await;
        assert_eq!((status, answer["status"].as_i64()), (422, Some(-7)), "{delay}: {answer}");
        assert!(answer.to_string().contains("sms.message.delay"), "{delay}: {answer}");
    }
}

#[tokio::test]
async fn an_error_quotes_an_excerpt_of_a_long_value() {
    let app = spawn_app().await;
    let long = "\u{1}".repeat(1 << 20);
    for (method, path, body) in [
        (Method::PUT, "/notification/balance", serde_json::json!({"notification": {"alert_trigger": long}})),
        (
            Method::POST,
            "/send/simulate",
            serde_json::json!({"sms": {"message": {"text": "x", "pushtype": long}, "recipients": {"gsm": [{"value": "33612345678"}]}}}),
        ),
        (Method::POST, "/npai", serde_json::json!({"npai": {"contacts": {"gsm": [{"value": long}]}}})),
    ] {
        let response = app.request(&app.token, method, path).json(&body).send().await.expect("request sent");
        let status = response.status().as_u16();
        let text = response.text().await.expect("text");
        assert!((400..500).contains(&status), "{path}: {status}");
        assert!(text.len() < 64 * 1024, "{path}: {} bytes", text.len());
        assert!(text.contains("(1048576 characters)"), "{path}: {text}");
    }
}

#[tokio::test]
async fn an_error_lists_a_bounded_number_of_problems() {
    let app = spawn_app().await;
    let body = format!(
        r#"{{"npai":{{"contacts":{{"gsm":[{}]}}}}}}"#,
        repeated(&format!(r#"{{"value":"{}"}}"#, "9".repeat(60)), 20_000, ",")
    );
    let response = app
        .request(&app.token, Method::POST, "/npai")
        .header("Content-Type", "application/json")
        .body(body)
        .send()
        .await
        .expect("sent");
    assert_eq!(response.status().as_u16(), 422);
    let text = response.text().await.expect("text");
    assert!(text.len() < 64 * 1024, "{} bytes", text.len());
    assert!(text.contains("more problems"), "{text}");
}

#[tokio::test]
async fn control_characters_are_refused_where_they_do_harm() {
    use serde_json::json;
    let app = spawn_app().await;
    let cases = [
        (
            Method::POST,
            "/webhook",
            json!({"webhook": {"type": "MO", "url": "https://example.com/\r\nX-Injected: 1"}}),
            "webhook.url",
        ),
        (Method::POST, "/webhook", json!({"webhook": {"type": "MO", "url": "https://example.com/\ta"}}), "webhook.url"),
        (
            Method::POST,
            "/webhook",
            json!({"webhook": {"type": "MO", "url": "https://example.com/\u{0}"}}),
            "webhook.url",
        ),
        (
            Method::POST,
            "/list",
            json!({"list": {"name": "a\u{0}b", "contacts": {"gsm": [{"value": "33612345678"}]}}}),
            "list.name",
        ),
        (
            Method::POST,
            "/list",
            json!({"list": {"name": "a\nb", "contacts": {"gsm": [{"value": "33612345678"}]}}}),
            "list.name",
        ),
        (
            Method::POST,
            "/npai",
            json!({"npai": {"contacts": {"gsm": [{"value": "33612345678", "info2": "x\u{1b}[31m"}]}}}),
            "npai.contacts.gsm[0].info2",
        ),
        (
            Method::POST,
            "/list",
            json!({"list": {"name": "ok", "contacts": {"gsm": [{"value": "33612345678", "info1": "a\u{0}"}]}}}),
            "list.contacts.gsm[0].info1",
        ),
        (
            Method::PUT,
            "/notification/balance",
            json!({"notification": {"alert_trigger": 5, "alert_email": 1, "email": "a@b.fr\r\nBcc: x@y.fr"}}),
            "notification.email",
        ),
        (
            Method::POST,
            "/send/simulate",
            json!({"sms": {"message": {"text": "a\u{0}b"}, "recipients": {"gsm": [{"value": "33612345678"}]}}}),
            "sms.message.text",
        ),
    ];
    for (method, path, body, field) in cases {
        let (status, answer) = app.json(method, path, Some(body.clone())).await;
        assert_eq!((status, answer["status"].as_i64()), (422, Some(-7)), "{path} {body}: {answer}");
        assert!(answer.to_string().contains(field), "{path}: {answer}");
    }
    // Tab in a name, CR and LF in a text are fine.
    let (status, answer) = app
        .json(
            Method::POST,
            "/list",
            Some(json!({"list": {"name": "a\tb", "contacts": {"gsm": [{"value": "33612345678"}]}}})),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let send = json!({"sms": {"message": {"text": "a\r\nb"}, "recipients": {"gsm": [{"value": "33612345678"}]}}});
    let (status, answer) = app.json(Method::POST, "/send/simulate", Some(send)).await;
    assert_eq!(status, 200, "{answer}");
}
