//! Long replies: a phone sends a reply longer than one SMS as concatenated parts
//! (the simulator's `POST /mo` does the same, with a user data header); texto puts them back
//! together and stores, shows and raises it once, whole.

use reqwest::Method;
use serde_json::json;

use crate::delivery::{outbox, quick_app, send, settled, until, webhook};

#[tokio::test]
async fn a_reply_in_several_parts_is_stored_and_raised_once_whole() {
    let app = quick_app().await;
    webhook(&app, "MO").await;
    let ticket = send(&app, "Votre avis ?", &["33633333333", "33644444444"], json!({})).await;
    settled(&app, &ticket).await;
    let gsm = "Merci pour votre message. ".repeat(14); // 364 characters: 3 parts of 153
    let ucs2 = "Très bien 👍 ".repeat(12); // 144 UTF-16 units with the emoji: 3 parts of 67
    for (from, text) in [("33633333333", gsm.as_str()), ("33644444444", ucs2.as_str())] {
        let (status, body) = app.json(Method::POST, "/simulator/mo", Some(json!({"from": from, "text": text}))).await;
        assert_eq!(status, 200, "{body}");
    }
    let events = until("both replies raised", || async {
        let events = outbox(&app, "MO").await;
        (events.len() >= 2).then_some(events)
    })
    .await;
    let texts: Vec<&str> = events.iter().map(|(_, body)| body["message"].as_str().unwrap_or("")).collect();
    assert_eq!(texts, [gsm.as_str(), ucs2.as_str()], "each reply whole, once");
    let (_, replies) = app.json(Method::GET, "/messages/mo?date_start=2020-01-01&date_end=2099-12-31", None).await;
    let stored: Vec<&str> =
        replies["replies"].as_array().expect("replies").iter().map(|r| r["message"].as_str().unwrap_or("")).collect();
    assert_eq!(stored.len(), 2, "{replies}");
    assert!(stored.contains(&gsm.as_str()) && stored.contains(&ucs2.as_str()), "{stored:?}");
}
