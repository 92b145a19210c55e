//! Webhooks: create, list, update, pause and resume, delete and the request log, in JSON and
//! XML; every validation error; private addresses; one account never touching another's.

use reqwest::Method;
use serde_json::{Value, json};
use texto_core::wire::{
    ErrorResponse, Format, StatusResponse, WebhookListResponse, WebhookLogResponse, WebhookResponse, decode,
};

use crate::helpers::{TestApp, account, spawn_app, spawn_app_with};

fn webhook(kind: &str, url: &str) -> Value {
    json!({"webhook": {"type": kind, "url": url}})
}

/// Creates a webhook as Alice and returns its id.
async fn create(app: &TestApp, kind: &str, url: &str) -> String {
    let (status, body) = app.json(Method::POST, "/webhook", Some(webhook(kind, url))).await;
    assert_eq!(status, 200, "{body}");
    body["webhook"]["webhook_id"].as_str().expect("webhook_id is a string").to_owned()
}

/// The paths of the problems of an error answer.
fn paths(body: &Value) -> Vec<String> {
    body["errors"]
        .as_array()
        .map(|e| e.iter().filter_map(|p| p["path"].as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn create_answers_a_live_webhook_never_delivered() {
    let app = spawn_app().await;
    let (status, body) = app.json(Method::POST, "/webhook", Some(webhook("DLR", "https://example.com/dlr"))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["status"].as_i64(), body["message"].as_str()), (Some(1), Some("OK")));
    let hook = &body["webhook"];
    assert!(hook["webhook_id"].is_string(), "{body}");
    assert_eq!(
        (hook["type"].as_str(), hook["url"].as_str(), hook["status"].as_str()),
        (Some("DLR"), Some("https://example.com/dlr"), Some("live"))
    );
    assert!(hook["signature"].is_null() && hook.get("signature").is_some(), "signature is null when none: {body}");
    assert!(hook["last_http_code"].is_null() && hook.get("last_http_code").is_some(), "{body}");

    let (status, body) = app
        .json(
            Method::POST,
            "/webhook",
            Some(json!({"webhook": {"type": "MO", "url": "https://example.com/mo", "signature": "s3cret"}})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["webhook"]["signature"], "s3cret");
    assert_ne!(body["webhook"]["webhook_id"], hook["webhook_id"]);
}

#[tokio::test]
async fn every_type_can_be_created() {
    let app = spawn_app().await;
    for kind in ["MO", "DLR", "STOP", "CLICKER", "BALANCE_ALERT"] {
        let (status, body) = app.json(Method::POST, "/webhook", Some(webhook(kind, "https://example.com/hook"))).await;
        assert_eq!((status, body["webhook"]["type"].as_str()), (200, Some(kind)), "{body}");
    }
}

#[tokio::test]
async fn create_in_xml_answers_in_xml() {
    let app = spawn_app().await;
    let body = r#"<?xml version="1.0" encoding="UTF-8"?><webhook><type>CLICKER</type><url>https://example.com/click?a=1&amp;b=2</url><signature>s3cret</signature></webhook>"#;
    let (status, xml) = app.xml(Method::POST, "/webhook", Some(body)).await;
    assert_eq!(status, 200, "{xml}");
    let answer: WebhookResponse = decode(&xml, Format::Xml).expect("a webhook response");
    assert_eq!((answer.status, answer.message.as_str()), (1, "OK"));
    let hook = answer.webhook;
    assert!(hook.webhook_id.as_deref().is_some_and(|id| id.parse::<i64>().is_ok()), "{xml}");
    assert_eq!(hook.kind.as_deref(), Some("CLICKER"));
    assert_eq!(hook.url.as_deref(), Some("https://example.com/click?a=1&b=2"));
    assert_eq!(hook.signature, Some(Some("s3cret".into())));
    assert_eq!(hook.status.as_deref(), Some("live"));
    assert_eq!(hook.last_http_code, Some(None));

    let (status, xml) = app
        .xml(Method::POST, "/webhook", Some("<webhook><type>MO</type><url>http://example.org/mo</url></webhook>"))
        .await;
    assert_eq!(status, 200, "{xml}");
    assert!(xml.contains("<signature>null</signature>"), "null is written as the text null: {xml}");
    let answer: WebhookResponse = decode(&xml, Format::Xml).expect("a webhook response");
    assert_eq!((answer.webhook.signature, answer.webhook.last_http_code), (Some(None), Some(None)));
}

#[tokio::test]
async fn the_list_is_paged_in_json_and_xml() {
    let app = spawn_app().await;
    let (status, xml) = app.xml(Method::GET, "/webhook", None).await;
    assert_eq!(status, 200, "{xml}");
    let empty: WebhookListResponse = decode(&xml, Format::Xml).expect("a webhook list");
    assert_eq!((empty.webhooks.len(), empty.total_records, empty.total_display_records), (0, 0, 0));

    let ids = [
        create(&app, "MO", "https://a.example.com/").await,
        create(&app, "DLR", "https://b.example.com/").await,
        create(&app, "STOP", "https://c.example.com/").await,
    ];
    let (status, body) = app.json(Method::GET, "/webhook", None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["totalRecords"].as_i64(), body["totalDisplayRecords"].as_i64()), (Some(3), Some(3)));
    let listed: Vec<&str> =
        body["webhook"].as_array().expect("an array").iter().filter_map(|w| w["webhook_id"].as_str()).collect();
    assert_eq!(listed, ids.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(body["webhook"][0]["status"], "live");

    let (_, page) = app.json(Method::GET, "/webhook?start=1&length=1", None).await;
    assert_eq!(page["totalRecords"], 3);
    assert_eq!(page["webhook"].as_array().map(Vec::len), Some(1));
    assert_eq!(page["webhook"][0]["webhook_id"].as_str(), Some(ids[1].as_str()));

    let (status, xml) = app.xml(Method::GET, "/webhook?start=2", None).await;
    assert_eq!(status, 200, "{xml}");
    let list: WebhookListResponse = decode(&xml, Format::Xml).expect("a webhook list");
    assert_eq!(list.total_records, 3);
    assert_eq!(list.webhooks.len(), 1);
    assert_eq!(list.webhooks[0].webhook_id.as_deref(), Some(ids[2].as_str()));
    assert_eq!(
        (list.webhooks[0].kind.as_deref(), list.webhooks[0].url.as_deref()),
        (Some("STOP"), Some("https://c.example.com/"))
    );
}

#[tokio::test]
async fn put_changes_type_url_and_signature() {
    let app = spawn_app().await;
    let id = create(&app, "MO", "https://example.com/old").await;
    let path = format!("/webhook/{id}");
    let (status, body) = app
        .json(
            Method::PUT,
            &path,
            Some(json!({"webhook": {"type": "DLR", "url": "https://example.com/new", "signature": "k"}})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let hook = &body["webhook"];
    assert_eq!(
        (hook["webhook_id"].as_str(), hook["type"].as_str(), hook["url"].as_str()),
        (Some(id.as_str()), Some("DLR"), Some("https://example.com/new"))
    );
    assert_eq!((hook["signature"].as_str(), hook["status"].as_str()), (Some("k"), Some("live")));
    assert!(hook["last_http_code"].is_null(), "{body}");

    // Only what the body holds changes; a null signature stops signing.
    let (status, body) = app.json(Method::PUT, &path, Some(json!({"webhook": {"signature": null}}))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["webhook"]["type"].as_str(), body["webhook"]["url"].as_str()),
        (Some("DLR"), Some("https://example.com/new"))
    );
    assert!(body["webhook"]["signature"].is_null(), "{body}");

    let xml_body =
        "<webhook><type>BALANCE_ALERT</type><url>https://example.com/xml</url><signature>x</signature></webhook>";
    let (status, xml) = app.xml(Method::PUT, &path, Some(xml_body)).await;
    assert_eq!(status, 200, "{xml}");
    let answer: WebhookResponse = decode(&xml, Format::Xml).expect("a webhook response");
    assert_eq!(answer.webhook.webhook_id.as_deref(), Some(id.as_str()));
    assert_eq!(
        (answer.webhook.kind.as_deref(), answer.webhook.url.as_deref()),
        (Some("BALANCE_ALERT"), Some("https://example.com/xml"))
    );
    assert_eq!(answer.webhook.signature, Some(Some("x".into())));

    let (_, list) = app.json(Method::GET, "/webhook", None).await;
    assert_eq!(
        (list["webhook"][0]["type"].as_str(), list["webhook"][0]["url"].as_str()),
        (Some("BALANCE_ALERT"), Some("https://example.com/xml"))
    );
}

#[tokio::test]
async fn status_pauses_and_resumes_at_both_paths_and_in_both_formats() {
    let app = spawn_app().await;
    let id = create(&app, "DLR", "https://example.com/dlr").await;
    let (status, body) =
        app.json(Method::PUT, &format!("/webhook/{id}/status"), Some(json!({"webhook": {"status": "paused"}}))).await;
    assert_eq!(status, 200, "{body}");
    let hook = &body["webhook"];
    assert_eq!((hook["webhook_id"].as_str(), hook["status"].as_str()), (Some(id.as_str()), Some("paused")));
    assert_eq!((hook["type"].as_str(), hook["url"].as_str()), (Some("DLR"), Some("https://example.com/dlr")));
    assert!(hook["signature"].is_null() && hook["last_http_code"].is_null(), "{body}");
    let (_, list) = app.json(Method::GET, "/webhook", None).await;
    assert_eq!(list["webhook"][0]["status"], "paused");

    // The public samples send the status to PUT /webhook/:id.
    let (status, xml) =
        app.xml(Method::PUT, &format!("/webhook/{id}"), Some("<webhook><status>live</status></webhook>")).await;
    assert_eq!(status, 200, "{xml}");
    let answer: WebhookResponse = decode(&xml, Format::Xml).expect("a webhook response");
    assert_eq!((answer.webhook.status.as_deref(), answer.webhook.kind.as_deref()), (Some("live"), Some("DLR")));

    let (status, xml) = app
        .xml(Method::PUT, &format!("/webhook/{id}/status"), Some("<webhook><status>paused</status></webhook>"))
        .await;
    assert_eq!(status, 200, "{xml}");
    let answer: WebhookResponse = decode(&xml, Format::Xml).expect("a webhook response");
    assert_eq!(
        (answer.webhook.webhook_id.as_deref(), answer.webhook.status.as_deref()),
        (Some(id.as_str()), Some("paused"))
    );
    assert_eq!(answer.webhook.url.as_deref(), Some("https://example.com/dlr"));

    let (status, body) =
        app.json(Method::PUT, &format!("/webhook/{id}"), Some(json!({"webhook": {"status": "live"}}))).await;
    assert_eq!((status, body["webhook"]["status"].as_str()), (200, Some("live")), "{body}");
}

#[tokio::test]
async fn delete_removes_the_webhook_in_json_and_xml() {
    let app = spawn_app().await;
    let first = create(&app, "MO", "https://example.com/1").await;
    let second = create(&app, "MO", "https://example.com/2").await;
    let (status, body) = app.json(Method::DELETE, &format!("/webhook/{first}"), None).await;
    assert_eq!(
        (status, body),
        (200, json!({"status": 1, "message": "OK", "deleted_id": first.parse::<i64>().unwrap()}))
    );
    let (status, xml) = app.xml(Method::DELETE, &format!("/webhook/{second}"), None).await;
    assert_eq!(status, 200, "{xml}");
    assert!(xml.contains(&format!("<deleted_id>{second}</deleted_id>")), "{xml}");
    assert_eq!(decode::<StatusResponse>(&xml, Format::Xml), Ok(StatusResponse::ok()));
    let (_, list) = app.json(Method::GET, "/webhook", None).await;
    assert_eq!(list["totalRecords"], 0);
    for path in [format!("/webhook/{first}"), format!("/webhook/{first}/log")] {
        let method = if path.ends_with("log") { Method::GET } else { Method::DELETE };
        let (status, body) = app.json(method, &path, None).await;
        assert_eq!((status, body["status"].as_i64()), (404, Some(-5)), "{path}: {body}");
    }
}

#[tokio::test]
async fn the_request_log_is_empty_until_something_is_delivered() {
    let app = spawn_app().await;
    let id = create(&app, "DLR", "https://example.com/dlr").await;
    let (status, body) = app.json(Method::GET, &format!("/webhook/{id}/log"), None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["status"].as_i64(), body["totalRecords"].as_i64(), body["totalDisplayRecords"].as_i64()),
        (Some(1), Some(0), Some(0))
    );
    assert_eq!(body["log"], json!([]));
    let (status, xml) = app.xml(Method::GET, &format!("/webhook/{id}/log"), None).await;
    assert_eq!(status, 200, "{xml}");
    let log: WebhookLogResponse = decode(&xml, Format::Xml).expect("a webhook log");
    assert_eq!((log.status, log.log.len(), log.total_records), (1, 0, 0));
}

#[tokio::test]
async fn the_request_log_lists_attempts_newest_first_and_paged() {
    let app = spawn_app().await;
    let id = create(&app, "DLR", "https://example.com/dlr").await;
    // Attempts as the sender writes them, with chosen times and results.
    app.sql(&format!(
        "INSERT INTO webhook_deliveries (webhook_id, delivery_id, event, body, attempt, http_code, latency_ms, error, created_at) VALUES
         ({id}, 'd1', 'DLR', '{{\"status\":3}}', 1, NULL, 10000, 'time-out after 10 s', '2026-01-05T09:00:00Z'),
         ({id}, 'd1', 'DLR', '{{\"status\":3}}', 2, 500, 42, 'HTTP 500', '2026-01-05T09:00:30Z'),
         ({id}, 'd1', 'DLR', '{{\"status\":3}}', 3, 200, 7, NULL, '2026-01-05T09:02:30Z')"
    ))
    .await;
    let (status, body) = app.json(Method::GET, &format!("/webhook/{id}/log"), None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["totalRecords"], 3);
    let attempts: Vec<i64> =
        body["log"].as_array().expect("an array").iter().filter_map(|e| e["attempt"].as_i64()).collect();
    assert_eq!(attempts, [3, 2, 1], "newest first: {body}");
    let newest = &body["log"][0];
    assert_eq!(
        (newest["delivery_id"].as_str(), newest["event"].as_str(), newest["http_code"].as_i64()),
        (Some("d1"), Some("DLR"), Some(200))
    );
    assert_eq!(
        (newest["latency_ms"].as_i64(), newest["body"].as_str(), newest["date"].as_str()),
        (Some(7), Some("{\"status\":3}"), Some("2026-01-05 10:02:30"))
    );
    assert!(newest["error"].is_null(), "{body}");

    let (status, xml) = app.xml(Method::GET, &format!("/webhook/{id}/log?start=2&length=5"), None).await;
    assert_eq!(status, 200, "{xml}");
    let log: WebhookLogResponse = decode(&xml, Format::Xml).expect("a webhook log");
    assert_eq!((log.total_records, log.log.len()), (3, 1));
    let oldest = &log.log[0];
    assert_eq!((oldest.attempt, oldest.http_code, oldest.latency_ms), (1, None, Some(10_000)));
    assert_eq!(oldest.error.as_deref(), Some("time-out after 10 s"));
    assert_eq!(oldest.body, "{\"status\":3}");

    // Deleting the webhook deletes its log.
    assert_eq!(app.json(Method::DELETE, &format!("/webhook/{id}"), None).await.0, 200);
    let left = app.sql("SELECT COUNT(*) FROM webhook_deliveries").await;
    assert_eq!(left[0][0].as_deref(), Some("0"));
}

#[tokio::test]
async fn invalid_webhooks_are_refused_with_the_field_named() {
    let app = spawn_app().await;
    let id = create(&app, "MO", "https://example.com/mo").await;
    let put = format!("/webhook/{id}");
    let status_path = format!("/webhook/{id}/status");
    let cases: Vec<(&str, Method, &str, Value, &[&str])> = vec![
        ("no type", Method::POST, "/webhook", json!({"webhook": {"url": "https://example.com/"}}), &["webhook.type"]),
        ("no url", Method::POST, "/webhook", json!({"webhook": {"type": "MO"}}), &["webhook.url"]),
        ("nothing", Method::POST, "/webhook", json!({"webhook": {}}), &["webhook.type", "webhook.url"]),
        ("unknown type", Method::POST, "/webhook", webhook("SMS", "https://example.com/"), &["webhook.type"]),
        ("lower-case type", Method::POST, "/webhook", webhook("dlr", "https://example.com/"), &["webhook.type"]),
        ("empty url", Method::POST, "/webhook", webhook("MO", ""), &["webhook.url"]),
        ("relative url", Method::POST, "/webhook", webhook("MO", "/hook"), &["webhook.url"]),
        ("no scheme", Method::POST, "/webhook", webhook("MO", "example.com/hook"), &["webhook.url"]),
        ("ftp url", Method::POST, "/webhook", webhook("MO", "ftp://example.com/hook"), &["webhook.url"]),
        ("no host", Method::POST, "/webhook", webhook("MO", "http://"), &["webhook.url"]),
        (
            "long url",
            Method::POST,
            "/webhook",
            webhook("MO", &format!("https://example.com/{}", "a".repeat(2100))),
            &["webhook.url"],
        ),
        (
            "long secret",
            Method::POST,
            "/webhook",
            json!({"webhook": {"type": "MO", "url": "https://example.com/", "signature": "s".repeat(300)}}),
            &["webhook.signature"],
        ),
        ("put: bad type", Method::PUT, &put, json!({"webhook": {"type": "NOPE"}}), &["webhook.type"]),
        ("put: bad url", Method::PUT, &put, json!({"webhook": {"url": "mailto:a@example.com"}}), &["webhook.url"]),
        ("put: bad status", Method::PUT, &put, json!({"webhook": {"status": "off"}}), &["webhook.status"]),
        ("put: nothing", Method::PUT, &put, json!({"webhook": {}}), &["webhook"]),
        ("status: missing", Method::PUT, &status_path, json!({"webhook": {}}), &["webhook.status"]),
        ("status: bad", Method::PUT, &status_path, json!({"webhook": {"status": "LIVE"}}), &["webhook.status"]),
    ];
    for (name, method, path, body, fields) in cases {
        let (status, answer) = app.json(method, path, Some(body)).await;
        assert_eq!((status, answer["status"].as_i64()), (422, Some(-7)), "{name}: {answer}");
        assert_eq!(paths(&answer), fields.iter().map(|f| f.to_string()).collect::<Vec<_>>(), "{name}: {answer}");
        assert!(answer["details"].as_str().is_some_and(|d| d.contains(fields[0])), "{name}: {answer}");
    }
    // Nothing was changed by the refused updates.
    let (_, list) = app.json(Method::GET, "/webhook", None).await;
    assert_eq!(
        (list["totalRecords"].as_i64(), list["webhook"][0]["status"].as_str(), list["webhook"][0]["url"].as_str()),
        (Some(1), Some("live"), Some("https://example.com/mo"))
    );

    let (status, xml) = app.xml(Method::POST, "/webhook", Some("<webhook><type>BOGUS</type></webhook>")).await;
    assert_eq!(status, 422, "{xml}");
    let error: ErrorResponse = decode(&xml, Format::Xml).expect("an error envelope");
    assert_eq!(error.status, -7);
    assert_eq!(error.errors.iter().map(|e| e.path.as_str()).collect::<Vec<_>>(), ["webhook.type", "webhook.url"]);

    let malformed = app
        .request(&app.token, Method::POST, "/webhook")
        .header("Content-Type", "application/json")
        .body("{\"webhook\": ")
        .send()
        .await
        .expect("sent");
    assert_eq!(malformed.status(), 400);
    assert_eq!(malformed.json::<Value>().await.expect("json")["status"], -6);
    let (status, xml) = app.xml(Method::POST, "/webhook", Some("<webhook><type>")).await;
    assert_eq!(status, 400, "{xml}");
    assert_eq!(decode::<ErrorResponse>(&xml, Format::Xml).map(|e| e.status), Ok(-2));
}

#[tokio::test]
async fn an_unknown_webhook_is_not_found() {
    let app = spawn_app().await;
    let change = json!({"webhook": {"status": "paused"}});
    for id in ["999", "abc", "-1", "99999999999999999999"] {
        let cases = [
            (Method::PUT, format!("/webhook/{id}"), Some(change.clone())),
            (Method::PUT, format!("/webhook/{id}/status"), Some(change.clone())),
            (Method::DELETE, format!("/webhook/{id}"), None),
            (Method::GET, format!("/webhook/{id}/log"), None),
        ];
        for (method, path, body) in cases {
            let (status, answer) = app.json(method.clone(), &path, body).await;
            assert_eq!((status, answer["status"].as_i64()), (404, Some(-5)), "{method} {path}: {answer}");
        }
    }
    let (status, xml) = app.xml(Method::DELETE, "/webhook/999", None).await;
    assert_eq!(status, 404);
    assert_eq!(decode::<ErrorResponse>(&xml, Format::Xml).map(|e| e.status), Ok(-5));
}

const PRIVATE_URLS: [&str; 11] = [
    "http://localhost:8080/hook",
    "http://127.0.0.1/hook",
    "http://10.0.0.5/hook",
    "http://192.168.1.10/hook",
    "http://172.20.0.1/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://0.0.0.0/",
    "http://[::1]:9000/hook",
    "http://[fd12:3456::1]/hook",
    // Teredo and 6to4, whatever IPv4 address they embed: here TEST-NET-1 192.0.2.45 (reserved,
    // not private) and the public 93.184.216.34.
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
    "http://[2002:5db8:d822::1]/hook",
];

#[tokio::test]
async fn private_addresses_are_refused_by_default() {
    let app = spawn_app().await;
    for url in PRIVATE_URLS {
        let (status, body) = app.json(Method::POST, "/webhook", Some(webhook("DLR", url))).await;
        assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{url}: {body}");
        assert_eq!(paths(&body), ["webhook.url"], "{url}: {body}");
    }
    let id = create(&app, "DLR", "https://example.com/dlr").await;
    let (status, body) = app
        .json(Method::PUT, &format!("/webhook/{id}"), Some(json!({"webhook": {"url": "http://127.0.0.1:3000/"}})))
        .await;
    assert_eq!((status, paths(&body)), (422, vec!["webhook.url".to_owned()]), "{body}");
}

#[tokio::test]
async fn private_addresses_are_accepted_when_the_server_allows_them() {
    let app = spawn_app_with(|c| c.allow_private_webhooks = true).await;
    for url in PRIVATE_URLS {
        let (status, body) = app.json(Method::POST, "/webhook", Some(webhook("DLR", url))).await;
        assert_eq!(status, 200, "{url}: {body}");
        assert_eq!(body["webhook"]["url"], url);
    }
    let (status, body) = app.json(Method::POST, "/webhook", Some(webhook("DLR", "ftp://127.0.0.1/"))).await;
    assert_eq!(status, 422, "still http(s) only: {body}");
}

#[tokio::test]
async fn one_account_never_touches_another_accounts_webhooks() {
    let app = spawn_app().await;
    let alices = create(&app, "DLR", "https://alice.example.com/dlr").await;
    let bob = account(&app.db(), "bob", 10.0).await;
    let (status, body) =
        app.json_as(&bob, Method::POST, "/webhook", Some(webhook("MO", "https://bob.example.com/mo"))).await;
    assert_eq!(status, 200, "{body}");
    let bobs = body["webhook"]["webhook_id"].as_str().expect("an id").to_owned();

    let attempts = [
        (Method::GET, format!("/webhook/{alices}/log"), None),
        (
            Method::PUT,
            format!("/webhook/{alices}"),
            Some(json!({"webhook": {"url": "https://bob.example.com/stolen"}})),
        ),
        (Method::PUT, format!("/webhook/{alices}"), Some(json!({"webhook": {"status": "paused"}}))),
        (Method::PUT, format!("/webhook/{alices}/status"), Some(json!({"webhook": {"status": "paused"}}))),
        (Method::DELETE, format!("/webhook/{alices}"), None),
    ];
    for (method, path, body) in attempts {
        let (status, answer) = app.json_as(&bob, method.clone(), &path, body).await;
        assert_eq!((status, answer["status"].as_i64()), (404, Some(-5)), "{method} {path}: {answer}");
    }
    let (_, list) = app.json_as(&bob, Method::GET, "/webhook", None).await;
    assert_eq!(list["totalRecords"], 1);
    assert_eq!(list["webhook"][0]["webhook_id"].as_str(), Some(bobs.as_str()));

    let (_, list) = app.json(Method::GET, "/webhook", None).await;
    assert_eq!(list["totalRecords"], 1);
    let hook = &list["webhook"][0];
    assert_eq!(
        (hook["webhook_id"].as_str(), hook["url"].as_str(), hook["status"].as_str()),
        (Some(alices.as_str()), Some("https://alice.example.com/dlr"), Some("live"))
    );
    let (status, _) = app.json(Method::DELETE, &format!("/webhook/{bobs}"), None).await;
    assert_eq!(status, 404, "and the other way round");
}
