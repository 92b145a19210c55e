//! List upkeep: `PUT /list/contact/:id` edits a contact, `PUT /list/deduplicate/:id`
//! and `PUT /list/:id/npai/clear` say how many contacts went; another account's ids are -5.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, account, spawn_app};

/// A list of `gsm` contacts; its id and its contacts as `GET /list/:id` gives them.
async fn list_of(app: &TestApp, gsm: Value) -> (String, Vec<Value>) {
    let (status, created) =
        app.json(Method::POST, "/list", Some(json!({"list": {"name": "Clients", "contacts": {"gsm": gsm}}}))).await;
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_str().expect("an id").to_owned();
    (id.clone(), contacts(app, &id).await)
}

async fn contacts(app: &TestApp, list: &str) -> Vec<Value> {
    let (_, body) = app.json(Method::GET, &format!("/list/{list}"), None).await;
    body["list"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn a_contact_is_edited_in_place_and_keeps_what_the_request_leaves_out() {
    let app = spawn_app().await;
    let (list, before) =
        list_of(&app, json!([{"value": "33612345678", "info1": "Marie", "info2": "Paris"}, {"value": "33612345679"}]))
            .await;
    let id = before[0]["id"].as_str().expect("an id").to_owned();
    let path = format!("/list/contact/{id}");
    let (status, body) =
        app.json(Method::PUT, &path, Some(json!({"value": "+33 6 12 34 56 70", "info2": "Lyon"}))).await;
    assert_eq!((status, body["status"].as_i64()), (200, Some(1)), "{body}");
    let after = contacts(&app, &list).await;
    let edited = after.iter().find(|c| c["id"] == before[0]["id"]).expect("the contact");
    assert_eq!(
        (edited["destination"].as_str(), edited["info1"].as_str(), edited["info2"].as_str()),
        (Some("33612345670"), Some("Marie"), Some("Lyon"))
    );
    let (status, body) = app.json(Method::PUT, &path, Some(json!({"contact": {"value": "33612345679"}}))).await;
    assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "the list already has that number: {body}");
    let (status, body) = app.json(Method::PUT, &path, Some(json!({"value": "12", "info3": "a\u{7}b"}))).await;
    assert_eq!(status, 422, "{body}");
    assert!(body.to_string().contains("\"value\"") && body.to_string().contains("info3"), "{body}");
    let other = account(&app.db(), "other", 0.0).await;
    let (status, body) = app.json_as(&other, Method::PUT, &path, Some(json!({"info1": "x"}))).await;
    assert_eq!((status, body["status"].as_i64()), (404, Some(-5)), "{body}");
    let (status, xml) = app.xml(Method::PUT, &path, Some("<contact><info4>VIP</info4></contact>")).await;
    assert_eq!(status, 200, "{xml}");
    assert_eq!(contacts(&app, &list).await.iter().find(|c| c["id"] == before[0]["id"]).unwrap()["info4"], "VIP");
}

#[tokio::test]
async fn the_npai_numbers_of_a_list_are_taken_out_and_counted() {
    let app = spawn_app().await;
    let (list, _) =
        list_of(&app, json!([{"value": "33612345678"}, {"value": "33612345600"}, {"value": "33612345601"}])).await;
    let npai = json!({"npai": {"contacts": {"gsm": [{"value": "33612345600"}, {"value": "33612345601"}, {"value": "33699999999"}]}}});
    assert_eq!(app.json(Method::POST, "/npai", Some(npai)).await.0, 200);
    let other = account(&app.db(), "other", 0.0).await;
    assert_eq!(app.json_as(&other, Method::PUT, &format!("/list/{list}/npai/clear"), None).await.0, 404);
    let (status, body) = app.json(Method::PUT, &format!("/list/{list}/npai/clear"), Some(json!([]))).await;
    assert_eq!((status, body["removed"].as_i64()), (200, Some(2)), "{body}");
    let left: Vec<Value> = contacts(&app, &list).await.iter().map(|c| c["destination"].clone()).collect();
    assert_eq!(left, [json!("33612345678")]);
    let (_, again) = app.json(Method::PUT, &format!("/list/{list}/npai/clear"), None).await;
    assert_eq!(again["removed"].as_i64(), Some(0));
}

#[tokio::test]
async fn deduplicating_a_list_says_how_many_went_which_is_none_as_a_list_keeps_each_number_once() {
    let app = spawn_app().await;
    let (list, before) =
        list_of(&app, json!([{"value": "33612345678"}, {"value": "+33 6 12 34 56 78"}, {"value": "33612345679"}]))
            .await;
    assert_eq!(before.len(), 2, "the same number written twice is one contact");
    let (status, body) = app.json(Method::PUT, &format!("/list/deduplicate/{list}"), Some(json!([]))).await;
    assert_eq!((status, body["removed"].as_i64()), (200, Some(0)), "{body}");
    assert_eq!(contacts(&app, &list).await.len(), 2);
    let other = account(&app.db(), "other", 0.0).await;
    let (status, body) = app.json_as(&other, Method::PUT, &format!("/list/deduplicate/{list}"), None).await;
    assert_eq!((status, body["status"].as_i64()), (404, Some(-5)), "{body}");
}
