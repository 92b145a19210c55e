//! Whose a token is: a session opened with a token lives no longer, and from no other address,
//! than the token itself.

use std::time::Duration;

use reqwest::{Method, header};
use serde_json::{Value, json};

use crate::{
    helpers::{TestApp, spawn_app_with},
    team::Session,
};

/// A request with the session's cookie, seen as coming from `client` through the trusted proxy.
async fn from(app: &TestApp, cookie: &str, client: &str, method: Method, path: &str) -> (u16, Value) {
    let response = app
        .anonymous(method, path)
        .header("Accept", "application/json")
        .header(header::COOKIE, cookie)
        .header("X-Forwarded-For", client)
        .send()
        .await
        .expect("sent");
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// A session opened with `token`, from `client` through the trusted proxy (if there is one).
async fn session_of(app: &TestApp, token: &str, client: &str) -> Session {
    let response =
        app.request(token, Method::POST, "/session").header("X-Forwarded-For", client).send().await.expect("sent");
    assert_eq!(response.status().as_u16(), 200, "the token opens a session");
    let cookie = response.headers().get(header::SET_COOKIE).and_then(|v| v.to_str().ok()).expect("a cookie");
    let cookie = cookie.split(';').next().expect("a pair").to_owned();
    let body: Value = response.json().await.expect("JSON");
    Session { cookie, csrf: body["csrf_token"].as_str().expect("a CSRF value").to_owned() }
}

#[tokio::test]
async fn a_session_opened_with_a_token_keeps_its_lifetime_addresses_and_revocation() {
    let app = spawn_app_with(|config| config.trusted_proxies = vec!["127.0.0.1".parse().expect("a range")]).await;
    // The sleep below is counted from before the creation, so the token has expired by then
    // however long the first calls took.
    let asked = tokio::time::Instant::now();
    let body = json!({"token": {"name": "Office", "ttl": 5, "allowed_ips": ["10.0.0.0/8"]}});
    let (status, created) = app.json(Method::POST, "/token", Some(body)).await;
    assert_eq!(status, 200, "{created}");
    let token = created["token"].as_str().expect("a token").to_owned();
    let cookie = session_of(&app, &token, "10.1.2.3").await.cookie;
    assert_eq!(from(&app, &cookie, "10.1.2.3", Method::GET, "/credits").await.0, 200, "from the office");
    let (status, elsewhere) = from(&app, &cookie, "192.0.2.1", Method::GET, "/credits").await;
    assert_eq!(
        (status, elsewhere["status"].as_i64()),
        (401, Some(-1)),
        "the token's addresses hold for its session: {elsewhere}"
    );
    tokio::time::sleep_until(asked + Duration::from_millis(6100)).await;
    let (status, expired) = from(&app, &cookie, "10.1.2.3", Method::GET, "/credits").await;
    assert_eq!((status, expired["status"].as_i64()), (401, Some(-1)), "the token's expiry ends its session: {expired}");

    let (_, kept) = app.json(Method::POST, "/token", Some(json!({"token": {"name": "Kept"}}))).await;
    let (token, id) = (kept["token"].as_str().expect("a token"), kept["token_id"].as_i64().expect("an id"));
    let cookie = session_of(&app, token, "192.0.2.1").await.cookie;
    assert_eq!(from(&app, &cookie, "192.0.2.1", Method::GET, "/credits").await.0, 200);
    assert_eq!(app.json(Method::DELETE, &format!("/token/{id}"), None).await.0, 200);
    let (status, revoked) = from(&app, &cookie, "192.0.2.1", Method::GET, "/credits").await;
    assert_eq!((status, revoked["status"].as_i64()), (401, Some(-1)), "revoking it ends its session: {revoked}");
}
