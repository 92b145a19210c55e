//! The routes anyone may call, and the session cookie, against other sites and large bodies:
//! a request from another site (`Origin`, `Sec-Fetch-Site`) may not sign in, use a one-time
//! link or use the cookie; `POST /session` takes JSON only; a route without credentials reads
//! a few KiB at most and refuses more before reading it.

use std::time::Duration;

use reqwest::{Method, header};
use serde_json::{Value, json};
use texto_core::Role;

use crate::{
    helpers::{TestApp, spawn_app},
    team::{PASSWORD, Session, person, sign_in},
};

const LEA: &str = "lea@alice.example";

/// The headers by which a browser tells a request from another site.
const FROM_ELSEWHERE: &[(&str, &str)] = &[
    ("Origin", "https://evil.example"),
    ("Origin", "null"),
    ("Sec-Fetch-Site", "cross-site"),
    ("Sec-Fetch-Site", "same-site"),
];

/// `method path` with `headers` and a JSON `body`: the status, the answer and whether it set
/// a cookie.
async fn call(app: &TestApp, method: Method, path: &str, headers: &[(&str, &str)], body: Value) -> (u16, Value, bool) {
    let mut request = app.anonymous(method, path).header("Accept", "application/json").json(&body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("sent");
    let status = response.status().as_u16();
    let cookie = response.headers().contains_key(header::SET_COOKIE);
    (status, response.json().await.unwrap_or(Value::Null), cookie)
}

fn credentials() -> Value {
    json!({"session": {"email": LEA, "password": PASSWORD}})
}

#[tokio::test]
async fn another_site_cannot_sign_a_browser_in_nor_use_the_public_routes() {
    let app = spawn_app().await;
    person(&app, "alice", LEA, Role::Owner).await;
    let public = [
        ("/session", credentials()),
        ("/password-reset", json!({"email": LEA})),
        ("/password-reset/0123", json!({"password": "a brand new password"})),
        ("/invitation/0123", json!({"invitation": {"name": "Eve", "password": "a brand new password"}})),
        ("/operator/session", json!({"name": "Night shift", "password": PASSWORD})),
    ];
    for (path, body) in &public {
        for header in FROM_ELSEWHERE {
            let (status, answer, cookie) = call(&app, Method::POST, path, &[*header], body.clone()).await;
            assert_eq!((status, answer["status"].as_i64()), (403, Some(-12)), "{path} {header:?}: {answer}");
            assert!(answer.to_string().contains("another site"), "{answer}");
            assert!(!cookie, "{path} {header:?} set no cookie");
        }
    }
    // The web app (same origin), a typed address, and API clients (no such headers) sign in.
    let own = app.base_url.clone();
    for headers in [
        vec![("Origin", own.as_str())],
        vec![("Origin", own.as_str()), ("Sec-Fetch-Site", "same-origin")],
        vec![("Sec-Fetch-Site", "none")],
        vec![],
    ] {
        let (status, answer, cookie) = call(&app, Method::POST, "/session", &headers, credentials()).await;
        assert_eq!((status, cookie), (200, true), "{headers:?}: {answer}");
    }
}

#[tokio::test]
async fn sign_in_takes_json_only() {
    let app = spawn_app().await;
    person(&app, "alice", LEA, Role::Owner).await;
    let document = credentials().to_string();
    let form = format!("data={}", form_urlencoded::byte_serialize(document.as_bytes()).collect::<String>());
    for (content_type, body) in [
        (Some("application/x-www-form-urlencoded"), form),
        (Some("application/x-www-form-urlencoded"), document.clone()),
        (Some("text/plain"), document.clone()),
        (Some("multipart/form-data; boundary=x"), document.clone()),
        (None, document.clone()),
    ] {
        let mut request = app.anonymous(Method::POST, "/session").header("Accept", "application/json").body(body);
        if let Some(content_type) = content_type {
            request = request.header(header::CONTENT_TYPE, content_type);
        }
        let response = request.send().await.expect("sent");
        let status = response.status().as_u16();
        assert!(!response.headers().contains_key(header::SET_COOKIE), "{content_type:?}");
        let answer: Value = response.json().await.expect("the envelope");
        assert_eq!((status, answer["status"].as_i64()), (415, Some(-7)), "{content_type:?}: {answer}");
        assert!(answer["details"].to_string().contains("application/json"), "{answer}");
    }
    let json = app.anonymous(Method::POST, "/session").header(header::CONTENT_TYPE, "application/json; charset=utf-8");
    assert_eq!(json.body(document).send().await.expect("sent").status(), 200);
    // A bearer token exchanged for a session has no body, so no type.
    let exchanged = app.anonymous(Method::POST, "/session").bearer_auth(&app.token).send().await.expect("sent");
    assert_eq!(exchanged.status(), 200);
}

/// A request made with the session's cookie and CSRF value, and `headers`: its status.
async fn with_cookie(app: &TestApp, session: &Session, method: Method, path: &str, headers: &[(&str, &str)]) -> u16 {
    let mut request = app
        .anonymous(method, path)
        .header("Accept", "application/json")
        .header(header::COOKIE, &session.cookie)
        .header("X-CSRF-Token", &session.csrf);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.expect("sent").status().as_u16()
}

#[tokio::test]
async fn the_session_cookie_is_refused_from_another_site_and_a_bearer_token_is_not() {
    let app = spawn_app().await;
    person(&app, "alice", LEA, Role::Owner).await;
    let session = sign_in(&app, LEA, PASSWORD).await.expect("signed in");
    for header in FROM_ELSEWHERE {
        assert_eq!(with_cookie(&app, &session, Method::GET, "/me", &[*header]).await, 403, "{header:?}");
        assert_eq!(with_cookie(&app, &session, Method::DELETE, "/session", &[*header]).await, 403, "{header:?}");
        let by_token = app.request(&app.token, Method::GET, "/credits").header(header.0, header.1);
        assert_eq!(by_token.send().await.expect("sent").status(), 200, "a token is no cookie: {header:?}");
    }
    let own = [("Origin", app.base_url.as_str()), ("Sec-Fetch-Site", "same-origin")];
    assert_eq!(with_cookie(&app, &session, Method::GET, "/me", &own).await, 200);
    assert_eq!(with_cookie(&app, &session, Method::DELETE, "/session", &own).await, 200, "the session was still open");
}

/// The head of a `POST path` carrying `framing`, as a browser or a script would send it.
fn head(path: &str, framing: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nContent-Type: application/json\r\n{framing}\r\n\r\n"
    )
}

#[tokio::test]
async fn public_routes_refuse_a_body_over_16_kib_before_reading_it() {
    let app = spawn_app().await;
    let (second, bound) = (Duration::from_secs(1), Duration::from_secs(5));
    // What a client sends before it sees the answer: 1 KiB of the body, and for chunks 17 KiB
    // in one unfinished chunk (the answer comes once 16 KiB are read, and then the server has
    // read all that was sent: its closing cannot reset the connection before the answer).
    let start = format!("{{\"session\":{{\"email\":\"{}", "x".repeat(1024));
    let chunk = format!("{:x}\r\n{}", 17 * 1024, "x".repeat(17 * 1024));
    for path in ["/session", "/password-reset", "/password-reset/0123", "/invitation/0123", "/operator/session"] {
        // 8 MiB announced, 1 KiB sent: the answer comes without the rest.
        let declared = head(path, &format!("Content-Length: {}", 8 * 1024 * 1024));
        let outcome = app.raw(format!("{declared}{start}").as_bytes(), b"", second, bound, false).await;
        assert!(outcome.answer.starts_with("HTTP/1.1 413"), "{path}, 8 MiB declared: {}", outcome.answer);
        assert!(
            outcome.answer.contains("\"status\":-7") && outcome.answer.contains("16384 bytes"),
            "{}",
            outcome.answer
        );
        // The same without a length: chunks, never ended.
        let chunked = head(path, "Transfer-Encoding: chunked");
        let outcome = app.raw(format!("{chunked}{chunk}").as_bytes(), b"", second, bound, false).await;
        assert!(outcome.answer.starts_with("HTTP/1.1 413"), "{path}, chunked: {}", outcome.answer);
    }
    // A route with credentials reads bodies up to --max-body-bytes, as before.
    let text = "x".repeat(20 * 1024);
    let body = json!({"sms": {"message": {"text": text}, "recipients": {"gsm": [{"value": "33612345678"}]}}});
    let (status, answer) = app.json(Method::POST, "/send/simulate", Some(body)).await;
    assert_ne!(status, 413, "{answer}");
}
