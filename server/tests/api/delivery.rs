//! Delivery over SMPP with the built-in simulator: each receipt outcome, what goes on the wire,
//! NPAI, replies and STOP, clicks, balance alerts and cancellation, seen as a client sees them
//! (the API, the simulator's HTTP face under `/simulator/`, and the outbox rows in the database).

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use texto_server::{OperatorAction, account_commands};

use crate::{
    helpers::{TestApp, spawn_app_with},
    mail_sink::smtp_sink,
};

/// A texto whose built-in simulator sends receipts after 20 ms.
pub(crate) async fn quick_app() -> TestApp {
    spawn_app_with(|config| config.builtin_dlr_delay_ms = 20).await
}

/// Polls `probe` every 50 ms until it answers `Some`, for at most 30 s (a CI machine building
/// beside the suites can be that slow).
pub(crate) async fn until<T, F: Future<Output = Option<T>>>(what: &str, mut probe: impl FnMut() -> F) -> T {
    for _ in 0..600 {
        if let Some(value) = probe().await {
            return value;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}

/// Sends `text` to `numbers` (alert unless `extra` says otherwise); returns the ticket.
pub(crate) async fn send(app: &TestApp, text: &str, numbers: &[&str], extra: Value) -> String {
    let mut message = json!({"text": text, "pushtype": "alert"});
    if let (Some(message), Some(extra)) = (message.as_object_mut(), extra.as_object()) {
        message.extend(extra.clone());
    }
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n})).collect();
    let (status, body) =
        app.json(Method::POST, "/send", Some(json!({"sms": {"message": message, "recipients": {"gsm": gsm}}}))).await;
    assert_eq!(status, 200, "{body}");
    body["ticket"].as_str().expect("a ticket").to_owned()
}

/// The campaign's detail once none of its messages waits any more.
pub(crate) async fn settled(app: &TestApp, ticket: &str) -> Value {
    until("every receipt", || async {
        let (_, body) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
        let campaign = body["campaign"][0].clone();
        (campaign["pending"] == 0 && campaign["status"] == "Sent").then_some(campaign)
    })
    .await
}

/// What the simulator received for `destination` of Alice's messages, newest first.
pub(crate) async fn received(app: &TestApp, destination: &str) -> Vec<Value> {
    received_by(app, &app.token.clone(), destination).await
}

/// What the simulator received for `destination`, newest first, as `token` may see it (an
/// operator sees every message, an account its own).
async fn received_by(app: &TestApp, token: &str, destination: &str) -> Vec<Value> {
    let path = format!("/simulator/messages?destination={destination}");
    let (status, body) = app.json_as(token, Method::GET, &path, None).await;
    assert_eq!(status, 200);
    body["messages"].as_array().cloned().unwrap_or_default()
}

/// A new operator's token.
async fn operator(app: &TestApp) -> String {
    account_commands::operator(&app.db(), OperatorAction::Create { name: "Tests".into() }).await.expect("an operator")
}

/// Outbox rows of `event`, oldest first, as (webhook id, body).
pub(crate) async fn outbox(app: &TestApp, event: &str) -> Vec<(i64, Value)> {
    let rows = app.sql(&format!("SELECT webhook_id, body FROM outbox WHERE event = '{event}' ORDER BY id")).await;
    rows.into_iter()
        .map(|row| {
            let webhook = row[0].as_deref().and_then(|id| id.parse().ok()).unwrap_or(-1);
            (webhook, row[1].as_deref().and_then(|body| serde_json::from_str(body).ok()).unwrap_or(Value::Null))
        })
        .collect()
}

pub(crate) async fn webhook(app: &TestApp, kind: &str) {
    let (status, body) = app
        .json(Method::POST, "/webhook", Some(json!({"webhook": {"type": kind, "url": "https://example.com/hook"}})))
        .await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn each_receipt_outcome_is_counted_and_unknown_subscribers_join_npai() {
    let app = quick_app().await;
    webhook(&app, "DLR").await;
    let ticket = send(
        &app,
        "Votre colis arrive",
        &["33612345678", "33612345600", "33612345699", "33612345698", "33612345697"],
        json!({}),
    )
    .await;
    let campaign = settled(&app, &ticket).await;
    assert_eq!(campaign["delivered"], 1);
    assert_eq!(campaign["error"], 2, "UNDELIV err:000 (2) and REJECTD (9)");
    assert_eq!(campaign["expired"], 1);
    assert_eq!(campaign["npai"], 1);
    assert_eq!(campaign["delivery_rate"], 20);
    let (_, npai) = app.json(Method::GET, "/npai", None).await;
    assert_eq!(npai["list"][0]["destination"], "33612345600");
    assert_eq!(npai["list"][0]["source"], "receipt");
    assert_eq!(npai["list"][0]["campaign_id"].to_string().trim_matches('"'), ticket);
    let mut statuses: Vec<i64> =
        outbox(&app, "DLR").await.iter().map(|(_, body)| body["status"].as_i64().unwrap_or(-1)).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [2, 3, 5, 9, 12]);
    let (_, history) = app.json(Method::GET, "/campaigns", None).await;
    assert_eq!(history["campaigns"][0]["delivery_rate"], 20);
}

#[tokio::test]
async fn long_and_unicode_texts_go_out_as_their_parts() {
    let app = quick_app().await;
    let long = "Bonjour ".repeat(25);
    send(&app, &long, &["33611111111"], json!({})).await;
    send(&app, "Привет, ça va ? 😀", &["33622222222"], json!({})).await;
    let gsm = until("the long text", || async { received(&app, "33611111111").await.into_iter().next() }).await;
    assert_eq!((gsm["parts"].as_i64(), gsm["data_coding"].as_i64()), (Some(2), Some(0)));
    assert_eq!(gsm["text"], long.trim_end(), "the text as accepted (trimmed)");
    assert_eq!(gsm["source_addr"], "36180", "no sender: the default sender");
    let ucs2 = until("the unicode text", || async { received(&app, "33622222222").await.into_iter().next() }).await;
    assert_eq!((ucs2["parts"].as_i64(), ucs2["data_coding"].as_i64()), (Some(1), Some(8)));
    assert_eq!(ucs2["text"], "Привет, ça va ? 😀");
}

#[tokio::test]
async fn a_stop_reply_blacklists_the_number_and_the_next_send_filters_it() {
    let app = quick_app().await;
    for kind in ["MO", "STOP"] {
        webhook(&app, kind).await;
    }
    let ticket = send(&app, "Soldes", &["33633333333"], json!({"sender": "Boutique"})).await;
    settled(&app, &ticket).await;
    let (status, _) =
        app.json(Method::POST, "/simulator/mo", Some(json!({"from": "33633333333", "text": "Hello"}))).await;
    assert_eq!(status, 200);
    let (status, _) =
        app.json(Method::POST, "/simulator/mo", Some(json!({"from": "33633333333", "text": "stop"}))).await;
    assert_eq!(status, 200);
    let blacklist = until("the blacklist entry", || async {
        let (_, body) = app.json(Method::GET, "/blacklist", None).await;
        (body["list"].as_array().map(Vec::len) == Some(1)).then_some(body)
    })
    .await;
    assert_eq!(blacklist["list"][0]["destination"], "33633333333");
    assert_eq!(blacklist["list"][0]["source"], "stop");
    let mo = outbox(&app, "MO").await;
    assert_eq!(mo.iter().map(|(_, b)| b["message"].as_str().unwrap_or("")).collect::<Vec<_>>(), ["Hello", "stop"]);
    assert_eq!(mo[0].1["from"], "33633333333");
    assert_eq!(outbox(&app, "STOP").await.len(), 1);
    let (_, detail) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert_eq!(detail["campaign"][0]["stop"], 1);
    let (_, next) = app.json(Method::POST, "/send", Some(json!({"sms": {"message": {"text": "Encore", "pushtype": "alert"}, "recipients": {"gsm": [{"value": "33633333333"}]}}}))).await;
    assert_eq!((next["blacklisted"].as_i64(), next["sent"].as_i64()), (Some(1), Some(0)));
}

#[tokio::test]
async fn a_reply_to_nobody_is_dropped() {
    let app = quick_app().await;
    webhook(&app, "MO").await;
    // Only an operator simulates a reply from a number no account wrote to; the simulator
    // only takes replies once texto is bound.
    let operator = operator(&app).await;
    let reply = json!({"from": "33644444444", "text": "Hi"});
    until("a bind", || async {
        (app.json_as(&operator, Method::POST, "/simulator/mo", Some(reply.clone())).await.0 == 200).then_some(())
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(outbox(&app, "MO").await.is_empty());
}

#[tokio::test]
async fn the_clickers_export_opens_in_french_excel_and_runs_no_formula() {
    let app = quick_app().await;
    let formula = "=HYPERLINK(\"https://evil.example\",\"ok\")";
    let contacts = json!({"gsm": [{"value": "33655555556", "info1": formula, "info2": "Hélène", "info3": "@SUM(A1)"}]});
    let (status, list) =
        app.json(Method::POST, "/list", Some(json!({"list": {"name": "Offre", "contacts": contacts}}))).await;
    assert_eq!(status, 200, "{list}");
    let (status, body) = app
        .json(
            Method::POST,
            "/send/lists",
            Some(json!({"sms": {
                "message": {"text": "Offre <-short->", "pushtype": "alert", "links": ["https://shop.example/offre"]},
                "lists": [{"value": list["id"]}]
            }})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let ticket = body["ticket"].as_str().expect("a ticket").to_owned();
    let message = until("the message", || async { received(&app, "33655555556").await.into_iter().next() }).await;
    let text = message["text"].as_str().unwrap_or_default().to_owned();
    let short_url = text.split_whitespace().find(|w| w.contains("/s/")).expect("a short link in the text").to_owned();
    let response = app.client.get(&short_url).header("User-Agent", "curl/8.0").send().await.expect("a click");
    assert_eq!(response.status(), 302);
    let csv = app
        .request(&app.token, Method::GET, &format!("/campaign/{ticket}/clickers.csv"))
        .send()
        .await
        .expect("the export")
        .bytes()
        .await
        .unwrap_or_default();
    assert!(csv.starts_with("\u{feff}".as_bytes()), "a byte order mark first: {csv:?}");
    let csv = String::from_utf8_lossy(&csv[3..]).into_owned();
    let row = csv.lines().nth(1).unwrap_or_default();
    assert!(row.contains(",\"'=HYPERLINK(\"\"https://evil.example\"\",\"\"ok\"\")\",Hélène,'@SUM(A1),"), "{csv}");
}

#[tokio::test]
async fn a_click_redirects_and_raises_clicker_with_the_phone() {
    let app = quick_app().await;
    webhook(&app, "CLICKER").await;
    let ticket =
        send(&app, "Offre <-short->", &["33655555555"], json!({"links": ["https://shop.example/offre"]})).await;
    let message = until("the message", || async { received(&app, "33655555555").await.into_iter().next() }).await;
    let text = message["text"].as_str().unwrap_or_default().to_owned();
    let short_url = text.split_whitespace().find(|w| w.contains("/s/")).expect("a short link in the text").to_owned();
    assert!(short_url.starts_with(&format!("{}/s/", app.base_url)), "{short_url}");
    let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1";
    for _ in 0..2 {
        let response = app.client.get(&short_url).header("User-Agent", iphone).send().await.expect("a click");
        assert_eq!(response.status(), 302);
        assert_eq!(response.headers()["location"], "https://shop.example/offre");
    }
    let clicks = outbox(&app, "CLICKER").await;
    assert_eq!(clicks.len(), 2);
    let last = &clicks[1].1;
    assert_eq!(
        (last["brand"].as_str(), last["model"].as_str(), last["os"].as_str()),
        (Some("Apple"), Some("iPhone"), Some("iOS"))
    );
    assert_eq!((last["clicks_on_link"].as_i64(), last["short_url"].as_str()), (Some(2), Some(short_url.as_str())));
    assert_eq!(last["long_url"], "https://shop.example/offre");
    let (_, detail) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert_eq!(
        detail["campaign"][0]["short_links"],
        json!([{"url": "https://shop.example/offre", "clicks": 2, "clickers": 1}])
    );
    let (_, clickers) = app.json(Method::GET, &format!("/campaign/{ticket}/clickers"), None).await;
    assert_eq!(clickers["totalRecords"], 1);
    let row = &clickers["clickers"][0];
    assert_eq!(
        (row["destination"].as_str(), row["clicks"].as_i64(), row["brand"].as_str()),
        (Some("33655555555"), Some(2), Some("Apple"))
    );
    let csv = app
        .request(&app.token, Method::GET, &format!("/campaign/{ticket}/clickers.csv"))
        .send()
        .await
        .expect("the export");
    assert_eq!(csv.headers()["content-type"], "text/csv; charset=utf-8");
    let csv = csv.text().await.unwrap_or_default();
    let lines: Vec<&str> = csv.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(lines[0], "number,link,clicks,last_click,brand,model,os,info1,info2,info3,info4");
    assert!(lines[1].starts_with("33655555555,https://shop.example/offre,2,"), "{csv}");
    assert!(lines[1].ends_with(",Apple,iPhone,iOS,,,,"), "{csv}");
    assert_eq!(app.get(&format!("/campaign/{ticket}/clickers.csv")).await.status(), 401);
    let unknown = app.get("/s/zzzzzz").await;
    assert_eq!(unknown.status(), 404);
    assert!(unknown.text().await.unwrap_or_default().contains("Link not found"));
}

#[tokio::test]
async fn balance_alert_fires_once_per_crossing_with_its_email_and_sms() {
    let (port, mut mails) = smtp_sink().await;
    let app = spawn_app_with(|config| {
        config.builtin_dlr_delay_ms = 20;
        config.smtp_url = Some(format!("smtp://127.0.0.1:{port}"));
    })
    .await;
    webhook(&app, "BALANCE_ALERT").await;
    let settings = json!({"notification": {"alert_trigger": "998", "alert_email": "1", "alert_gsm": "1", "email": "ops@example.com", "phone_number": "33699999999"}});
    let (status, _) = app.json(Method::PUT, "/notification/balance", Some(settings)).await;
    assert_eq!(status, 200);
    send(&app, "Un", &["33666666661"], json!({})).await; // 999: still at or above 998
    assert!(outbox(&app, "BALANCE_ALERT").await.is_empty());
    send(&app, "Deux", &["33666666662", "33666666663"], json!({})).await; // 997: crosses
    send(&app, "Trois", &["33666666664"], json!({})).await; // 996: already below
    let alerts = outbox(&app, "BALANCE_ALERT").await;
    assert_eq!(alerts.len(), 1);
    assert_eq!((alerts[0].1["balance"].as_str(), alerts[0].1["trigger"].as_str()), (Some("997"), Some("998")));
    let mail = tokio::time::timeout(Duration::from_secs(10), mails.recv())
        .await
        .expect("the alert email in time")
        .expect("an email");
    // Quoted-printable: undo its soft line breaks.
    let mail = mail.replace("=\n", "");
    assert!(mail.contains("To: ops@example.com"), "{mail}");
    assert!(mail.contains("below your alert threshold of 998 credits"), "{mail}");
    // The alert is texto's own SMS, not one of the account's messages: an operator sees it.
    let operator = operator(&app).await;
    let sms = until("the alert SMS at the SMSC", || async {
        received_by(&app, &operator, "33699999999").await.into_iter().next()
    })
    .await;
    assert_eq!(sms["source_addr"], "36180");
    assert!(sms["text"].as_str().unwrap_or_default().contains("997 credits"));
    let (_, credits) = app.json(Method::GET, "/credits", None).await;
    assert_eq!(credits["credits"], "996", "the alert SMS is not charged");
    assert!(tokio::time::timeout(Duration::from_millis(300), mails.recv()).await.is_err(), "one email per crossing");
}

#[tokio::test]
async fn a_cancelled_scheduled_campaign_never_reaches_the_smsc() {
    let app = quick_app().await;
    let later = (chrono::Utc::now() + chrono::Duration::days(2)).format("%Y-%m-%d 10:00:00").to_string();
    let ticket = send(&app, "Plus tard", &["33677777777"], json!({"delay": later})).await;
    let (status, _) = app.json(Method::DELETE, &format!("/send/{ticket}"), None).await;
    assert_eq!(status, 200);
    let now = send(&app, "Maintenant", &["33688888888"], json!({})).await;
    settled(&app, &now).await;
    assert!(received_by(&app, &operator(&app).await, "33677777777").await.is_empty());
    let (_, detail) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert_eq!(detail["campaign"][0]["status"], "Cancelled");
}

#[tokio::test]
async fn the_simulator_face_needs_a_token() {
    let app = quick_app().await;
    assert_eq!(app.get("/simulator/messages").await.status(), 401);
}
