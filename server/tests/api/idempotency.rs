//! `Idempotency-Key` on the sends: a retry gets the first answer and is charged once, the same
//! key with another request is refused, racing retries make one campaign, and a retry after the
//! connection dropped before the answer finds the campaign the first try made.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use tokio::{io::AsyncWriteExt, net::TcpStream};

use crate::helpers::{TestApp, account, spawn_app};

fn one_recipient(number: &str) -> Value {
    json!({"sms": {"message": {"text": "Votre code: 1234", "pushtype": "alert"}, "recipients": {"gsm": [{"value": number}]}}})
}

/// POSTs `body` to `path` with `key`; the status and the JSON answer.
async fn keyed(app: &TestApp, path: &str, key: &str, body: &Value) -> (u16, Value) {
    let response = app
        .request(&app.token, Method::POST, path)
        .header("Idempotency-Key", key)
        .json(body)
        .send()
        .await
        .expect("request sent");
    (response.status().as_u16(), response.json().await.expect("a JSON answer"))
}

async fn campaigns(app: &TestApp) -> Vec<String> {
    let (_, body) = app.json(Method::GET, "/campaigns", None).await;
    body["campaigns"].as_array().into_iter().flatten().filter_map(|c| c["id"].as_str().map(str::to_owned)).collect()
}

async fn credits(app: &TestApp) -> f64 {
    let (_, body) = app.json(Method::GET, "/credits", None).await;
    body["credits"].as_str().and_then(|credits| credits.parse().ok()).expect("credits")
}

#[tokio::test]
async fn a_retry_gets_the_first_answer_and_is_charged_once() {
    let app = spawn_app().await;
    let before = credits(&app).await;
    let (status, first) = keyed(&app, "/send", "order-1842", &one_recipient("33612345678")).await;
    assert_eq!(status, 200, "{first}");
    let (status, again) = keyed(&app, "/send", "order-1842", &one_recipient("33612345678")).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again, first, "the same ticket, counts and balance");
    assert_eq!(campaigns(&app).await, [first["ticket"].as_str().unwrap_or_default()]);
    assert_eq!(credits(&app).await, first["credits"].as_f64().unwrap_or_default());
    assert!(credits(&app).await < before);
    // Without a key, or with another, the same request is a new campaign.
    let (_, other) = keyed(&app, "/send", "order-1843", &one_recipient("33612345678")).await;
    assert_ne!(other["ticket"], first["ticket"]);
    let (status, unkeyed) = app.json(Method::POST, "/send", Some(one_recipient("33612345678"))).await;
    assert_eq!(status, 200, "{unkeyed}");
    assert_eq!(campaigns(&app).await.len(), 3);
}

#[tokio::test]
async fn the_same_key_for_another_request_is_refused_and_creates_nothing() {
    let app = spawn_app().await;
    let (status, _) = keyed(&app, "/send", "k-1", &one_recipient("33612345678")).await;
    assert_eq!(status, 200);
    let (status, body) = keyed(&app, "/send", "k-1", &one_recipient("33612345679")).await;
    assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{body}");
    assert_eq!(body["message"], "Invalid data");
    assert!(body.to_string().contains("this idempotency key was used for another request"), "{body}");
    let (status, body) =
        keyed(&app, "/send/lists", "k-1", &json!({"sms": {"message": {"text": "x"}, "lists": [{"value": "1"}]}})).await;
    assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "another path is another request: {body}");
    assert_eq!(campaigns(&app).await.len(), 1);
    let (status, body) = keyed(&app, "/send", "", &one_recipient("33612345678")).await;
    assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "an empty key: {body}");
}

#[tokio::test]
async fn a_retry_after_its_first_try_spent_the_balance_gets_the_first_answer() {
    let app = spawn_app().await;
    let one_send = account(&app.db(), "one-send", 1.0).await;
    let send = |key: &'static str| {
        let body = one_recipient("33612345678");
        let request = app.request(&one_send, Method::POST, "/send").header("Idempotency-Key", key).json(&body);
        async move {
            let response = request.send().await.expect("request sent");
            (response.status().as_u16(), response.json::<Value>().await.expect("a JSON answer"))
        }
    };
    let (status, first) = send("last-credit").await;
    assert_eq!((status, first["credits"].as_f64()), (200, Some(0.0)), "{first}");
    let (status, again) = send("last-credit").await;
    assert_eq!(status, 200, "the retry is answered, not refused for want of credits: {again}");
    assert_eq!(again, first);
    let (status, other) = send("another-order").await;
    assert_eq!((status, other["status"].as_i64()), (402, Some(-3)), "a new key pays: {other}");
}

#[tokio::test]
async fn a_key_stands_for_24_hours_then_makes_a_new_campaign() {
    let app = spawn_app().await;
    let (_, first) = keyed(&app, "/send", "weekly", &one_recipient("33612345678")).await;
    // A day later: each store keeps the key's time where it keeps the key.
    let on_postgres = app.db().to_string_lossy().starts_with("postgres");
    let table = if on_postgres { "idempotency_keys" } else { "campaigns" };
    app.sql(&format!("UPDATE {table} SET created_at = '2020-01-01T00:00:00Z'")).await;
    let (status, next) = keyed(&app, "/send", "weekly", &one_recipient("33612345679")).await;
    assert_eq!(status, 200, "an expired key is free again, even for another request: {next}");
    assert_ne!(next["ticket"], first["ticket"]);
    let (_, again) = keyed(&app, "/send", "weekly", &one_recipient("33612345679")).await;
    assert_eq!(again, next, "and it stands for its new first answer");
    assert_eq!(campaigns(&app).await.len(), 2);
}

#[tokio::test]
async fn racing_retries_with_one_key_make_one_campaign() {
    let app = spawn_app().await;
    let body = one_recipient("33612345678");
    let answers = futures_util::future::join_all((0..8).map(|_| keyed(&app, "/send", "race-7", &body))).await;
    let tickets: Vec<&Value> = answers
        .iter()
        .map(|(status, answer)| {
            assert_eq!(*status, 200, "{answer}");
            &answer["ticket"]
        })
        .collect();
    assert!(tickets.iter().all(|ticket| *ticket == tickets[0]), "{answers:?}");
    assert_eq!(campaigns(&app).await.len(), 1);
}

#[tokio::test]
async fn a_retry_after_the_connection_dropped_finds_the_first_campaign() {
    let app = spawn_app().await;
    let body = one_recipient("33612345678").to_string();
    let request = format!(
        "POST /send HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\nAccept: application/json\r\nContent-Type: application/json\r\nIdempotency-Key: dropped-1\r\nContent-Length: {}\r\n\r\n{body}",
        app.token,
        body.len()
    );
    let mut socket = TcpStream::connect(app.address()).await.expect("connected");
    socket.write_all(request.as_bytes()).await.expect("sent");
    drop(socket); // gone before the answer
    // The first try stands: its campaign shows without an answer ever read.
    let mut listed = Vec::new();
    for _ in 0..50 {
        listed = campaigns(&app).await;
        if !listed.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(listed.len(), 1, "the first try made its campaign");
    let (status, retry) = keyed(&app, "/send", "dropped-1", &serde_json::from_str(&body).expect("json")).await;
    assert_eq!((status, retry["ticket"].as_str()), (200, Some(listed[0].as_str())), "{retry}");
    let (status, again) = keyed(&app, "/send", "dropped-1", &serde_json::from_str(&body).expect("json")).await;
    assert_eq!((status, &again), (200, &retry));
    assert_eq!(campaigns(&app).await, [retry["ticket"].as_str().unwrap_or_default()]);
}

#[tokio::test]
async fn get_send_takes_a_key_too() {
    let app = spawn_app().await;
    let path = "/send?text=Bonjour&to=33612345678";
    let get = |key: &'static str| app.request(&app.token, Method::GET, path).header("Idempotency-Key", key).send();
    let first: Value = get("g-1").await.expect("sent").json().await.expect("json");
    let again: Value = get("g-1").await.expect("sent").json().await.expect("json");
    assert_eq!(first["status"], 1, "{first}");
    assert_eq!(again, first);
    assert_eq!(campaigns(&app).await.len(), 1);
}
