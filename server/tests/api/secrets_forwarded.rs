//! The client's address behind proxies: every `X-Forwarded-For` line is read, right to left,
//! so that a line the client forged before the proxy added its own is not believed.

use reqwest::Method;
use serde_json::json;

use crate::helpers::spawn_app_with;

#[tokio::test]
async fn a_forged_first_forwarded_for_line_does_not_pass_allowed_ips() {
    let app = spawn_app_with(|config| config.trusted_proxies = vec!["127.0.0.1".parse().expect("a range")]).await;
    let (status, created) = app
        .json(Method::POST, "/token", Some(json!({"token": {"name": "Office", "allowed_ips": ["10.0.0.0/8"]}})))
        .await;
    assert_eq!(status, 200, "{created}");
    let office = created["token"].as_str().expect("a token").to_owned();
    // The client forges the first line; a proxy such as HAProxy (`option forwardfor`) adds a line
    // of its own naming the client it saw.
    let through = |forged: &str, seen: &str| {
        app.request(&office, Method::GET, "/credits").header("X-Forwarded-For", forged).header("X-Forwarded-For", seen)
    };
    let forged = through("10.1.2.3", "192.0.2.1").send().await.expect("sent");
    assert_eq!(forged.status(), 401, "the proxy saw 192.0.2.1, outside 10.0.0.0/8");
    let honest = through("192.0.2.1", "10.1.2.3").send().await.expect("sent");
    assert_eq!(honest.status(), 200, "the proxy saw 10.1.2.3, whatever the client wrote before");
    let chained = through("10.9.9.9", "192.0.2.1, 127.0.0.1").send().await.expect("sent");
    assert_eq!(chained.status(), 401, "a trusted hop in the last line is skipped, the next one is the client");
}
