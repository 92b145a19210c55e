//! An id names one thing for good: once a list, segment, keyword or webhook is deleted, its id
//! is never given to a new one, so a saved segment naming a deleted list does not start
//! matching a new list's contacts (the account's, or another account's); and a list id of
//! another account matches none of an account's contacts.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, account, spawn_app};

/// Creates a list of `numbers` with `token`; its id.
async fn list(app: &TestApp, token: &str, name: &str, numbers: &[&str]) -> String {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n})).collect();
    let body = json!({"list": {"name": name, "contacts": {"gsm": gsm}}});
    let (status, body) = app.json_as(token, Method::POST, "/list", Some(body)).await;
    assert_eq!(status, 200, "{body}");
    body["id"].as_str().expect("a list id").to_owned()
}

/// `DELETE path` with Alice's token answers 200.
async fn delete(app: &TestApp, path: &str) {
    let (status, body) = app.json(Method::DELETE, path, None).await;
    assert_eq!(status, 200, "{path}: {body}");
}

/// The count of Alice's saved segment.
async fn count(app: &TestApp, segment: &str) -> i64 {
    let (status, body) = app.json(Method::GET, &format!("/segment/{segment}"), None).await;
    assert_eq!(status, 200, "{body}");
    body["segment"]["count"].as_i64().expect("a count")
}

#[tokio::test]
async fn a_segment_naming_a_deleted_list_never_matches_a_new_list() {
    let app = spawn_app().await;
    let bob = account(&app.db(), "bob", 10.0).await;
    let kept = list(&app, &app.token, "Gardée", &["33611000001"]).await;
    let gone = list(&app, &app.token, "Salon 2025", &["33611000002"]).await;
    let rules = json!([{"type": "list", "list": gone}]);
    let (status, saved) =
        app.json(Method::POST, "/segment", Some(json!({"segment": {"name": "Salon", "rules": rules}}))).await;
    assert_eq!((status, saved["segment"]["count"].as_i64()), (200, Some(1)), "{saved}");
    let segment = saved["segment"]["id"].as_str().expect("a segment id").to_owned();
    delete(&app, &format!("/list/{gone}")).await;
    assert_eq!(count(&app, &segment).await, 0, "the list is gone");

    // The next list, of this account or another, gets an id of its own.
    let bobs = list(&app, &bob, "Clients de Bob", &["33611000003"]).await;
    let next = list(&app, &app.token, "Salon 2026", &["33611000003", "33611000004"]).await;
    assert!(![kept.as_str(), gone.as_str()].contains(&bobs.as_str()), "Bob's list {bobs} reuses an id");
    assert!(![kept.as_str(), gone.as_str(), bobs.as_str()].contains(&next.as_str()), "{next} reuses an id");
    assert_eq!(count(&app, &segment).await, 0, "the segment names the deleted list only");
}

#[tokio::test]
async fn deleted_segments_keywords_webhooks_and_contacts_leave_their_ids_unused() {
    let app = spawn_app().await;
    let clients = list(&app, &app.token, "Clients", &["33611000011"]).await;
    let cases: [(&str, Value, &str); 3] = [
        ("/segment", json!({"segment": {"name": "Tous", "rules": [{"type": "list", "list": clients}]}}), "segment"),
        ("/keyword", json!({"keyword": {"word": "PROMO", "reply": "Merci"}}), "keyword"),
        ("/webhook", json!({"webhook": {"type": "MO", "url": "https://example.com/hook"}}), "webhook"),
    ];
    for (path, body, key) in cases {
        let id = |answer: &Value| {
            let id = &answer[key][if key == "webhook" { "webhook_id" } else { "id" }];
            id.as_str().unwrap_or_else(|| panic!("an id: {answer}")).to_owned()
        };
        let (status, first) = app.json(Method::POST, path, Some(body.clone())).await;
        assert_eq!(status, 200, "{first}");
        let first = id(&first);
        delete(&app, &format!("{path}/{first}")).await;
        let (status, second) = app.json(Method::POST, path, Some(body)).await;
        assert_eq!(status, 200, "{second}");
        assert_ne!(id(&second), first, "{path}: a new one takes the deleted one's id");
    }

    // A list's entries: the newest deleted, the next added.
    let entry_ids = |entries: &Value| -> Vec<String> {
        let entries = entries["list"].as_array().cloned().unwrap_or_default();
        entries.iter().filter_map(|e| e["id"].as_str().map(str::to_owned)).collect()
    };
    let added = json!({"list": {"name": "Clients", "contacts": {"gsm": [{"value": "33611000012"}]}}});
    let (status, body) = app.json(Method::PUT, &format!("/list/{clients}"), Some(added.clone())).await;
    assert_eq!(status, 200, "{body}");
    let (_, entries) = app.json(Method::GET, &format!("/list/{clients}"), None).await;
    let before = entry_ids(&entries);
    let newest = before.iter().max_by_key(|id| id.parse::<i64>().unwrap_or_default()).expect("entries").clone();
    delete(&app, &format!("/list/contact/{newest}")).await;
    let (status, body) = app.json(Method::PUT, &format!("/list/{clients}"), Some(added)).await;
    assert_eq!(status, 200, "{body}");
    let (_, entries) = app.json(Method::GET, &format!("/list/{clients}"), None).await;
    let after = entry_ids(&entries);
    assert_eq!(after.len(), 2, "{entries}");
    assert!(!after.contains(&newest), "the entry added again has a new id: {before:?} then {after:?}");
}

#[tokio::test]
async fn another_accounts_list_filters_none_of_the_contacts() {
    let app = spawn_app().await;
    let bob = account(&app.db(), "bob", 10.0).await;
    list(&app, &app.token, "Clients", &["33611000021", "33611000022"]).await;
    let bobs = list(&app, &bob, "Clients de Bob", &["33611000021"]).await;
    let (status, body) = app.json(Method::GET, &format!("/contacts?list={bobs}"), None).await;
    assert_eq!((status, body["totalRecords"].as_i64()), (200, Some(0)), "Bob's list tells Alice nothing: {body}");
    let (status, body) = app.json_as(&bob, Method::GET, &format!("/contacts?list={bobs}"), None).await;
    assert_eq!((status, body["totalRecords"].as_i64()), (200, Some(1)), "{body}");
}
