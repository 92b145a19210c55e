//! The routes anyone may call: a route without credentials reads a few KiB at most and
//! refuses more before reading it.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;

use crate::helpers::spawn_app;

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
