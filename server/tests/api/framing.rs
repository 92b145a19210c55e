//! Bodies as the wire carries them: broken chunked framing and early ends are 400 saying so,
//! only a body over the limit is 413. Each test prints how many hostile cases it tried.

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
