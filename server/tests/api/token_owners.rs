//! Whose a token is: a session opened with a token lives no longer, and from no other address,
//! than the token itself; a token made by a person records them, the audit log names the token
//! and its maker (never a bare name that could pass for a person), and the person's removal
//! revokes it and their demotion caps it.

use std::time::Duration;

use reqwest::{Method, header};
use serde_json::{Value, json};
use texto_core::Role;

use crate::{
    helpers::{TestApp, spawn_app, spawn_app_with},
    team::{PASSWORD, Session, as_session, person, sign_in},
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

/// A token `name` made by the person signed in with `session`.
async fn made_by(app: &TestApp, session: &Session, name: &str) -> (String, i64) {
    let body = json!({"token": {"name": name}});
    let (status, created) = as_session(app, session, Method::POST, "/token", Some(body), true).await;
    assert_eq!(status, 200, "{created}");
    (created["token"].as_str().expect("a token").to_owned(), created["token_id"].as_i64().expect("an id"))
}

/// The actor of the newest line of the audit log.
async fn last_actor(app: &TestApp) -> String {
    let (_, log) = app.json(Method::GET, "/audit", None).await;
    log["audit"][0]["actor"].as_str().expect("an actor").to_owned()
}

fn list(name: &str) -> Option<Value> {
    Some(json!({"list": {"name": name, "contacts": {"gsm": []}}}))
}

#[tokio::test]
async fn a_token_answers_to_the_person_who_made_it() {
    let app = spawn_app().await;
    person(&app, "alice", "boss@alice.example", Role::Owner).await;
    person(&app, "alice", "max@alice.example", Role::Admin).await;
    let max = sign_in(&app, "max@alice.example", PASSWORD).await.expect("signed in");
    // A name that reads like a person's email is still the token's.
    let (token, id) = made_by(&app, &max, "boss@alice.example").await;
    assert_eq!(app.json_as(&token, Method::POST, "/list", list("VIP")).await.0, 200);
    assert_eq!(last_actor(&app).await, "token \"boss@alice.example\" (made by max@alice.example)");
    assert_eq!(app.json(Method::POST, "/list", list("Tests")).await.0, 200);
    assert_eq!(last_actor(&app).await, "token \"Tests\"", "a token of the command line has no maker");
    let (_, listed) = app.json(Method::GET, &format!("/token/{id}"), None).await;
    assert_eq!(listed["token"]["made_by"], "max@alice.example", "{listed}");

    // A token made with that token answers to the same person.
    let (status, second) =
        app.json_as(&token, Method::POST, "/token", Some(json!({"token": {"name": "Second"}}))).await;
    assert_eq!(status, 200, "{second}");
    let second = second["token"].as_str().expect("a token").to_owned();
    assert_eq!(app.json_as(&second, Method::POST, "/list", list("Second")).await.0, 200);
    assert_eq!(last_actor(&app).await, "token \"Second\" (made by max@alice.example)");
    let session = session_of(&app, &second, "127.0.0.1").await;
    let (_, me) = as_session(&app, &session, Method::GET, "/me", None, false).await;
    assert_eq!(me["actor"], "token \"Second\" (made by max@alice.example)", "{me}");

    let (_, users) = app.json(Method::GET, "/users", None).await;
    let max_id = users["users"].as_array().expect("users").iter().find(|u| u["email"] == "max@alice.example");
    let max_id = max_id.expect("max is listed")["id"].as_i64().expect("an id");
    let demote = json!({"user": {"role": "analyst"}});
    assert_eq!(app.json(Method::PUT, &format!("/user/{max_id}"), Some(demote)).await.0, 200);
    let (status, capped) = app.json_as(&token, Method::POST, "/list", list("Capped")).await;
    assert_eq!((status, capped["status"].as_i64()), (403, Some(-12)), "demoted, their tokens are too: {capped}");
    let (status, capped) = as_session(&app, &session, Method::POST, "/list", list("Capped"), true).await;
    assert_eq!((status, capped["status"].as_i64()), (403, Some(-12)), "and their tokens' sessions: {capped}");
    assert_eq!(app.json_as(&token, Method::GET, "/credits", None).await.0, 200, "an analyst still reads");

    assert_eq!(app.json(Method::DELETE, &format!("/user/{max_id}"), None).await.0, 200);
    for made in [&token, &second] {
        let (status, gone) = app.json_as(made, Method::GET, "/credits", None).await;
        assert_eq!((status, gone["status"].as_i64()), (401, Some(-1)), "removed, their tokens are revoked: {gone}");
    }
    assert_eq!(as_session(&app, &session, Method::GET, "/me", None, false).await.0, 401);
    let (_, left) = app.json(Method::GET, "/token", None).await;
    assert_eq!(left["tokens"].as_array().map(Vec::len), Some(1), "only the command line's token is left: {left}");
}
