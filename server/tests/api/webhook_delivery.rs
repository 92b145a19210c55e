//! Webhooks going out: a real receiver on loopback verifies each request's signature with
//! texto-core's `verify`; events arrive in order, failures are retried on a shortened schedule
//! with the same delivery id (time-outs too, without holding up another webhook), a paused
//! webhook holds its events, and the log resends.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{body::Bytes, extract::State, http::HeaderMap, http::StatusCode, routing::post};
use reqwest::Method;
use serde_json::{Value, json};
use texto_server::RetryDelays;

use crate::helpers::{TestApp, spawn_app_with};

/// A request the receiver got.
#[derive(Debug, Clone)]
struct Received {
    event: String,
    delivery: String,
    body: Value,
    signed: bool,
}

/// The receiver: answers the queued codes first, then 200, each after its queued delay (none
/// once they run out); records what it got.
#[derive(Clone, Default)]
struct Receiver {
    got: Arc<Mutex<Vec<Received>>>,
    answers: Arc<Mutex<VecDeque<u16>>>,
    delays: Arc<Mutex<VecDeque<Duration>>>,
}

const SECRET: &str = "s3cret";

async fn receive(State(receiver): State<Receiver>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let now = chrono::Utc::now().timestamp();
    let signed = texto_core::verify(
        SECRET,
        &header(texto_core::TIMESTAMP_HEADER),
        &header(texto_core::SIGNATURE_HEADER),
        &body,
        now,
        300,
    )
    .is_ok();
    receiver.got.lock().unwrap().push(Received {
        event: header(texto_core::EVENT_HEADER),
        delivery: header(texto_core::DELIVERY_HEADER),
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        signed,
    });
    let code = receiver.answers.lock().unwrap().pop_front().unwrap_or(200);
    let delay = receiver.delays.lock().unwrap().pop_front();
    if let Some(delay) = delay {
        tokio::time::sleep(delay).await;
    }
    StatusCode::from_u16(code).unwrap_or(StatusCode::OK)
}

/// Starts a receiver; returns its URL.
async fn receiver(receiver: &Receiver) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("http://{}/hook", listener.local_addr().expect("an address"));
    let app = axum::Router::new().route("/hook", post(receive)).with_state(receiver.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

/// texto with private webhooks allowed, receipts after 20 ms and retries after 100 ms.
async fn app() -> TestApp {
    spawn_app_with(|config| {
        config.allow_private_webhooks = true;
        config.builtin_dlr_delay_ms = 20;
        config.webhook_retry_delays = RetryDelays(vec![Duration::from_millis(100)]);
    })
    .await
}

async fn dlr_webhook(app: &TestApp, url: &str) -> String {
    let (status, body) = app
        .json(Method::POST, "/webhook", Some(json!({"webhook": {"type": "DLR", "url": url, "signature": SECRET}})))
        .await;
    assert_eq!(status, 200, "{body}");
    body["webhook"]["webhook_id"].as_str().expect("an id").to_owned()
}

async fn send(app: &TestApp, number: &str) {
    let body = json!({"sms": {"message": {"text": "Bonjour", "pushtype": "alert"}, "recipients": {"gsm": [{"value": number}]}}});
    let (status, answer) = app.json(Method::POST, "/send", Some(body)).await;
    assert_eq!(status, 200, "{answer}");
}

/// The destinations of the DLR events raised for the webhook at `url`, in the order they were
/// raised (the receipts of messages sent back to back may come in any order).
async fn raised(app: &TestApp, url: &str) -> Vec<String> {
    let rows = app
        .sql(&format!(
            "SELECT o.body FROM outbox o JOIN webhooks w ON w.id = o.webhook_id WHERE w.url = '{url}' ORDER BY o.id"
        ))
        .await;
    let destination = |body: &str| {
        serde_json::from_str::<Value>(body).ok().and_then(|b| b["destination"].as_str().map(str::to_owned))
    };
    rows.iter().filter_map(|row| row[0].as_deref().and_then(destination)).collect()
}

fn destinations(got: &[Received]) -> Vec<String> {
    got.iter().map(|r| r.body["destination"].as_str().unwrap_or("").to_owned()).collect()
}

async fn until_got(receiver: &Receiver, count: usize) -> Vec<Received> {
    for _ in 0..400 {
        let got = receiver.got.lock().unwrap().clone();
        if got.len() >= count {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the receiver got {:?}", receiver.got.lock().unwrap());
}

#[tokio::test]
async fn events_arrive_signed_in_order_and_failures_are_retried_with_the_same_delivery_id() {
    let app = app().await;
    let hook = Receiver::default();
    hook.answers.lock().unwrap().extend([500, 503]);
    let id = dlr_webhook(&app, &receiver(&hook).await).await;
    send(&app, "33611111101").await;
    until_got(&hook, 1).await;
    send(&app, "33611111102").await;
    let got = until_got(&hook, 4).await;
    assert!(got.iter().all(|r| r.signed && r.event == "DLR"), "{got:?}");
    assert_eq!(
        destinations(&got),
        ["33611111101", "33611111101", "33611111101", "33611111102"],
        "the first is retried before the second goes"
    );
    assert_eq!(got[0].delivery, got[2].delivery, "one delivery id for every attempt of an event");
    assert_ne!(got[2].delivery, got[3].delivery);
    let (_, list) = app.json(Method::GET, "/webhook", None).await;
    assert_eq!(list["webhook"][0]["last_http_code"].to_string().trim_matches('"'), "200");
    // The receiver has the last event before the sender stores that attempt's result.
    let mut log = Vec::new();
    for _ in 0..100 {
        let (_, page) = app.json(Method::GET, &format!("/webhook/{id}/log"), None).await;
        log = page["log"].as_array().cloned().unwrap_or_default();
        if log.len() >= 4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let codes: Vec<i64> = log.iter().rev().map(|e| e["http_code"].as_i64().unwrap_or(0)).collect();
    assert_eq!(codes, [500, 503, 200, 200]);
    assert_eq!(log[1]["state"], "delivered");
    assert_eq!(log.last().map(|e| e["attempt"].clone()), Some(json!(1)));
    assert_eq!(log[1]["attempt"], 3);
}

#[tokio::test]
async fn a_paused_webhook_keeps_its_events_until_it_is_live_and_the_log_resends() {
    let app = app().await;
    let hook = Receiver::default();
    let url = receiver(&hook).await;
    let id = dlr_webhook(&app, &url).await;
    let pause = |status: &'static str| json!({"webhook": {"status": status}});
    let (status, _) = app.json(Method::PUT, &format!("/webhook/{id}/status"), Some(pause("paused"))).await;
    assert_eq!(status, 200);
    for number in ["33622222201", "33622222202", "33622222203"] {
        send(&app, number).await;
    }
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(hook.got.lock().unwrap().is_empty(), "nothing goes to a paused webhook");
    app.json(Method::PUT, &format!("/webhook/{id}/status"), Some(pause("live"))).await;
    let got = until_got(&hook, 3).await;
    let mut sent = destinations(&got);
    assert_eq!(sent, raised(&app, &url).await, "in the order they were raised");
    sent.sort();
    assert_eq!(sent, ["33622222201", "33622222202", "33622222203"]);

    // The receiver has its request before the sender writes the attempt down: the log is read
    // until it holds the three, the first one last.
    let first = crate::delivery::until("the three logged attempts", || async {
        let (_, log) = app.json(Method::GET, &format!("/webhook/{id}/log"), None).await;
        log["log"].as_array().filter(|l| l.len() >= 3).and_then(|l| l.last()).cloned()
    })
    .await;
    let attempt = first["id"].as_i64().expect("an attempt id");
    let (status, resent) = app.json(Method::POST, &format!("/webhook/{id}/log/{attempt}/resend"), None).await;
    assert_eq!(status, 200, "{resent}");
    assert_eq!(resent["log"][0]["http_code"], 200);
    let got = until_got(&hook, 4).await;
    assert_eq!(got[3].delivery, got[0].delivery, "a resend keeps the delivery id");
    let (status, _) = app.json(Method::POST, &format!("/webhook/{id}/log/999999/resend"), None).await;
    assert_eq!(status, 404);
    let other = crate::helpers::account(&app.db(), "mallory", 10.0).await;
    let (status, _) = app.json_as(&other, Method::POST, &format!("/webhook/{id}/log/{attempt}/resend"), None).await;
    assert_eq!(status, 404, "another account's attempt is not found");
}

#[tokio::test]
async fn a_receiver_that_times_out_is_retried_without_holding_up_another_webhook() {
    let app = app().await;
    let slow = Receiver::default();
    slow.delays.lock().unwrap().push_back(Duration::from_secs(12));
    let slow_url = receiver(&slow).await;
    let slow_id = dlr_webhook(&app, &slow_url).await;
    send(&app, "33633333301").await;
    until_got(&slow, 1).await;
    let quick = Receiver::default();
    dlr_webhook(&app, &receiver(&quick).await).await;
    for number in ["33633333302", "33633333303"] {
        send(&app, number).await;
    }
    // The slow receiver holds its first request for longer than the 10 s time-out; meanwhile
    // the other webhook gets its events at once.
    let began = std::time::Instant::now();
    let quick_got = until_got(&quick, 2).await;
    assert!(began.elapsed() < Duration::from_secs(5), "the other webhook waited {:?}", began.elapsed());
    assert_eq!(slow.got.lock().unwrap().len(), 1, "the slow webhook's next events wait behind its first");
    assert!(quick_got.iter().all(|r| r.signed));

    let got = until_got(&slow, 4).await;
    let mut expected = raised(&app, &slow_url).await;
    assert_eq!(expected.first().map(String::as_str), Some("33633333301"));
    expected.insert(0, expected[0].clone());
    assert_eq!(destinations(&got), expected, "retried after the time-out, then the rest in the order they were raised");
    assert_eq!(got[0].delivery, got[1].delivery, "the retry keeps the delivery id");
    let (_, log) = app.json(Method::GET, &format!("/webhook/{slow_id}/log"), None).await;
    let timed_out = log["log"].as_array().and_then(|l| l.last()).cloned().expect("the first attempt");
    assert_eq!(timed_out["http_code"], Value::Null, "{timed_out}");
    assert!(timed_out["latency_ms"].as_i64().unwrap_or(0) >= 10_000, "{timed_out}");
    assert!(timed_out["error"].as_str().unwrap_or("").contains("no answer within 10 s"), "{timed_out}");
}

#[tokio::test]
async fn the_request_log_is_kept_as_long_as_configured() {
    let app = spawn_app_with(|config| {
        config.allow_private_webhooks = true;
        config.builtin_dlr_delay_ms = 20;
        config.webhook_log_keep = Duration::from_secs(2).into();
    })
    .await;
    let hook = Receiver::default();
    let id = dlr_webhook(&app, &receiver(&hook).await).await;
    send(&app, "33644444401").await;
    until_got(&hook, 1).await;
    let log_size = || async {
        app.json(Method::GET, &format!("/webhook/{id}/log"), None).await.1["log"].as_array().map_or(0, Vec::len)
    };
    // The receiver has the event before the sender stores the attempt's result.
    let mut logged = 0;
    for _ in 0..50 {
        logged = log_size().await;
        if logged == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(logged, 1, "the attempt is logged");
    for _ in 0..100 {
        if log_size().await == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the attempt was still logged 10 s later, though kept for 2 s");
}
