//! The inbox: the numbers that wrote, newest first with their unread replies,
//! filtered; one timeline of what was sent and answered; an answer sent from the app, charged
//! and delivered; read marks.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    delivery::{quick_app, received, send, settled, until},
    helpers::{TestApp, account},
};

async fn mo(app: &TestApp, from: &str, text: &str) {
    let (status, body) = app.json(Method::POST, "/simulator/mo", Some(json!({"from": from, "text": text}))).await;
    assert_eq!(status, 200, "{body}");
}

async fn conversations(app: &TestApp, query: &str) -> Value {
    let (status, body) = app.json(Method::GET, &format!("/conversations{query}"), None).await;
    assert_eq!(status, 200, "{body}");
    body
}

fn numbers(list: &Value) -> Vec<String> {
    list["conversations"]
        .as_array()
        .expect("conversations")
        .iter()
        .map(|c| c["number"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[tokio::test]
async fn replies_fill_the_inbox_and_an_answer_from_it_reaches_the_phone() {
    let app = quick_app().await;
    let ticket = send(&app, "Soldes ce soir", &["33611111111", "33622222222"], json!({})).await;
    settled(&app, &ticket).await;
    mo(&app, "33611111111", "Bonjour").await;
    mo(&app, "33611111111", "Encore moi").await;
    let inbox = until("the first number's replies", || async {
        let inbox = conversations(&app, "").await;
        (inbox["conversations"][0]["unread"] == 2).then_some(inbox)
    })
    .await;
    assert_eq!(inbox["conversations"][0]["last_message"], "Encore moi", "{inbox}");
    mo(&app, "33622222222", "Oui").await;
    let inbox = until("the second number's reply", || async {
        let inbox = conversations(&app, "").await;
        (inbox["unread_conversations"] == 2).then_some(inbox)
    })
    .await;
    assert_eq!(numbers(&inbox), ["33622222222", "33611111111"], "the most recent first");

    assert_eq!(numbers(&conversations(&app, "?search=encore").await), ["33611111111"]);
    assert_eq!(numbers(&conversations(&app, "?search=3362222").await), ["33622222222"]);
    assert_eq!(numbers(&conversations(&app, &format!("?campaign={ticket}")).await).len(), 2);
    assert_eq!(numbers(&conversations(&app, "?campaign=999999").await).len(), 0);

    let (status, timeline) = app.json(Method::GET, "/conversation/33611111111", None).await;
    assert_eq!(status, 200, "{timeline}");
    let entries: Vec<(&str, &str)> = timeline["timeline"]
        .as_array()
        .expect("a timeline")
        .iter()
        .map(|e| (e["direction"].as_str().unwrap_or(""), e["message"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(entries, [("sent", "Soldes ce soir"), ("received", "Bonjour"), ("received", "Encore moi")]);
    assert!(!timeline["timeline"][0]["status"].as_str().unwrap_or("").is_empty(), "a message sent has its status");

    let (_, before) = app.json(Method::GET, "/credits", None).await;
    let (status, answered) =
        app.json(Method::POST, "/conversation/33611111111/reply", Some(json!({"reply": {"text": "Merci !"}}))).await;
    assert_eq!((status, answered["sent"].as_i64()), (200, Some(1)), "{answered}");
    assert!(answered["ticket"].as_str().is_some(), "{answered}");
    let (_, after) = app.json(Method::GET, "/credits", None).await;
    let credits = |v: &Value| v["credits"].as_str().and_then(|c| c.parse::<f64>().ok()).unwrap_or(0.0);
    assert!(credits(&after) < credits(&before), "charged like any send");
    until("the answer at the SMSC", || async {
        received(&app, "33611111111").await.iter().any(|m| m["text"] == "Merci !").then_some(())
    })
    .await;
    let inbox = conversations(&app, "").await;
    assert_eq!(inbox["unread_conversations"].as_i64(), Some(1), "answering reads: {inbox}");

    let (status, _) = app.json(Method::PUT, "/conversation/33622222222/read", None).await;
    assert_eq!(status, 200);
    assert_eq!(conversations(&app, "?unread=1").await["conversations"], json!([]));
    let (status, _) =
        app.json(Method::POST, "/conversation/33699999999/reply", Some(json!({"reply": {"text": "Hello"}}))).await;
    assert_eq!(status, 404, "only a number that wrote is answered");
    let (status, empty) =
        app.json(Method::POST, "/conversation/33611111111/reply", Some(json!({"reply": {"text": " "}}))).await;
    assert_eq!(status, 422, "{empty}");

    let other = account(&app.db(), "other", 10.0).await;
    let (_, theirs) = app.json_as(&other, Method::GET, "/conversations", None).await;
    assert_eq!(theirs["conversations"], json!([]), "another account sees none");
    let (status, _) = app.json_as(&other, Method::PUT, "/conversation/33611111111/read", None).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn the_inbox_counts_follow_replies_reads_and_erasures() {
    let app = quick_app().await;
    let ticket = send(&app, "Soldes", &["33611111101", "33611111102", "33611111103"], json!({})).await;
    settled(&app, &ticket).await;
    for (from, text) in [("33611111101", "Oui"), ("33611111102", "Non"), ("33611111102", "Si"), ("33611111103", "?")] {
        mo(&app, from, text).await;
    }
    let counts = |inbox: &Value| (inbox["totalDisplayRecords"].as_i64(), inbox["unread_conversations"].as_i64());
    let inbox = until("three conversations", || async {
        let inbox = conversations(&app, "?length=1").await;
        (counts(&inbox) == (Some(3), Some(3))).then_some(inbox)
    })
    .await;
    assert_eq!(numbers(&inbox).len(), 1, "a page of one, counted among three: {inbox}");
    let (status, _) = app.json(Method::PUT, "/conversation/33611111102/read", None).await;
    assert_eq!(status, 200);
    assert_eq!(counts(&conversations(&app, "").await), (Some(3), Some(2)), "one read");
    assert_eq!(counts(&conversations(&app, "?unread=1").await), (Some(2), Some(2)), "the unread ones");
    let (status, _) = app.json(Method::PUT, "/conversation/33611111102/read", None).await;
    assert_eq!(status, 200);
    assert_eq!(counts(&conversations(&app, "").await), (Some(3), Some(2)), "read twice is read once");
    mo(&app, "33611111102", "Encore").await;
    until("unread again", || async { (counts(&conversations(&app, "").await) == (Some(3), Some(3))).then_some(()) })
        .await;
    assert_eq!(counts(&conversations(&app, "?search=encore").await), (Some(1), Some(3)), "a search counts its own");
    // A search's pages, full, partial or past its last match, count all its matches ("Oui"
    // and "Encore").
    for (page, shown) in
        [("length=1", 1), ("length=1&start=1", 1), ("length=1&start=5", 0), ("length=5", 2), ("length=5&start=1", 1)]
    {
        let inbox = conversations(&app, &format!("?search=o&{page}")).await;
        assert_eq!((numbers(&inbox).len(), counts(&inbox)), (shown, (Some(2), Some(3))), "{page}: {inbox}");
    }
    // The text index: any case, inside a word, with quotes; two characters still search; the
    // index's own query syntax is read as plain text.
    for (search, found) in [
        ("NCOR", 1),
        ("ncore\"", 0),
        ("Ou", 1),
        ("?", 1),
        ("zz", 0),
        ("%25", 0),
        ("NEAR%28ncor%20ui%29%2A", 0),
        ("%5E%22-%2B%3A", 0),
    ] {
        let inbox = conversations(&app, &format!("?search={search}")).await;
        assert_eq!(numbers(&inbox).len(), found, "{search}: {inbox}");
    }

    // An erased number's conversation leaves the counts.
    let (status, body) = app.json(Method::DELETE, "/contact/33611111101", None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(counts(&conversations(&app, "").await), (Some(2), Some(2)), "{body}");
    let other = account(&app.db(), "other", 10.0).await;
    let (_, theirs) = app.json_as(&other, Method::GET, "/conversations", None).await;
    assert_eq!(counts(&theirs), (Some(0), Some(0)), "another account counts none");
}
