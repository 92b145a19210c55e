//! Bodies as the wire carries them: broken chunked framing and early ends are 400 saying so,
//! only a body over the limit is 413, and large bodies beyond the cap get 503 with
//! `Retry-After`. Each test prints how many hostile cases it tried.

use std::time::Duration;

use crate::helpers::{TestApp, spawn_app_with};

const SECOND: Duration = Duration::from_secs(1);

/// The head of a `POST /send/simulate` with `token` and the given framing header.
fn head(token: &str, framing: &str) -> String {
    format!(
        "POST /send/simulate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\nAccept: application/json\r\nContent-Type: application/json\r\nConnection: close\r\n{framing}\r\n\r\n"
    )
}

/// Sends `body` after the head, half-closing when `early_eof`; returns the server's answer.
async fn answer(app: &TestApp, token: &str, framing: &str, body: &str, early_eof: bool) -> String {
    let request = format!("{}{body}", head(token, framing));
    app.raw(request.as_bytes(), b"", SECOND, SECOND * 10, early_eof).await.answer
}

#[tokio::test]
async fn malformed_framing_is_400_saying_so_and_only_an_oversized_body_is_413() {
    let app = spawn_app_with(|c| c.max_body_bytes = 1000).await;
    let chunked = "Transfer-Encoding: chunked";
    let cases = [
        ("a chunk size that is not hex", chunked, "zz\r\n{}\r\n0\r\n\r\n", false),
        ("a chunk size that overflows", chunked, "fffffffffffffffffffff\r\n{}\r\n0\r\n\r\n", false),
        ("chunk data longer than its size", chunked, "2\r\n{}}}\r\n0\r\n\r\n", false),
        ("chunk data shorter than its size, then EOF", chunked, "10\r\n{}\r\n0\r\n\r\n", true),
        ("no last chunk before EOF", chunked, "2\r\n{}\r\n", true),
        ("a body shorter than Content-Length, then EOF", "Content-Length: 100", "{\"sms\":", true),
    ];
    for (what, framing, body, early_eof) in cases {
        let anonymous = answer(&app, "nope", framing, body, early_eof).await;
        assert!(anonymous.starts_with("HTTP/1.1 401"), "{what} without a token: {anonymous}");
        let answered = answer(&app, &app.token, framing, body, early_eof).await;
        assert!(answered.starts_with("HTTP/1.1 400"), "{what}: {answered}");
        assert!(answered.contains("\"status\":-7") && answered.contains("Malformed body"), "{what}: {answered}");
        assert!(!answered.contains("over 1000 bytes"), "{what} is not called too large: {answered}");
    }
    let big = "x".repeat(2000);
    let oversized = [
        ("a chunked body over the limit", chunked.to_owned(), format!("{:x}\r\n{big}\r\n0\r\n\r\n", big.len())),
        ("a declared body over the limit", format!("Content-Length: {}", big.len()), big.clone()),
    ];
    for (what, framing, body) in &oversized {
        let answered = answer(&app, &app.token, framing, body, false).await;
        assert!(answered.starts_with("HTTP/1.1 413"), "{what}: {answered}");
        assert!(answered.contains("over 1000 bytes"), "{what}: {answered}");
    }
    println!("hostile cases tried (framing): {}", cases.len() * 2 + oversized.len());
}

/// A valid send request of about 2 MB (a long text), so it counts as a large body.
fn large_request() -> String {
    format!(
        r#"{{"sms":{{"message":{{"text":"{}"}},"recipients":{{"gsm":[{{"value":"33612345678"}}]}}}}}}"#,
        "x".repeat(2 * 1024 * 1024)
    )
}

#[tokio::test]
async fn large_bodies_over_the_cap_get_503_with_retry_after() {
    let app = spawn_app_with(|c| c.max_large_bodies = Some(0)).await;
    let body = large_request();
    let anonymous = answer(&app, "nope", &format!("Content-Length: {}", body.len()), &body, false).await;
    assert!(anonymous.starts_with("HTTP/1.1 401"), "{anonymous}");
    let framings = [format!("Content-Length: {}", body.len()), "Transfer-Encoding: chunked".to_owned()];
    for framing in &framings {
        let sent = if framing.starts_with("Transfer") {
            format!("{:x}\r\n{body}\r\n0\r\n\r\n", body.len())
        } else {
            body.clone()
        };
        let answered = answer(&app, &app.token, framing, &sent, false).await;
        assert!(answered.starts_with("HTTP/1.1 503"), "{framing}: {}", &answered[..answered.len().min(500)]);
        assert!(answered.to_ascii_lowercase().contains("\r\nretry-after: 1\r\n"), "{answered}");
        assert!(answered.contains("\"status\":-11") && answered.contains("Server busy"), "{answered}");
    }
    // A small body is not held back by the cap.
    let small = r#"{"sms":{"message":{"text":"x"},"recipients":{"gsm":[{"value":"33612345678"}]}}}"#;
    let answered = answer(&app, &app.token, &format!("Content-Length: {}", small.len()), small, false).await;
    assert!(answered.starts_with("HTTP/1.1 200"), "{answered}");
    println!("hostile cases tried (large bodies): {}", framings.len() + 2);
}

#[tokio::test]
async fn large_bodies_within_the_cap_are_decoded() {
    let app = spawn_app_with(|_| {}).await;
    let body = large_request();
    let answered = answer(&app, &app.token, &format!("Content-Length: {}", body.len()), &body, false).await;
    assert!(!answered.starts_with("HTTP/1.1 503"), "{}", &answered[..answered.len().min(500)]);
    assert!(answered.contains("\"status\":"), "an envelope: {}", &answered[..answered.len().min(500)]);
}
