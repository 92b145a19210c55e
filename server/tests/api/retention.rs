//! `GET`/`PUT /retention` and the retention pass: with a short period, old message
//! numbers and texts are masked while the counts stay, old replies and list contacts are gone,
//! and recent data is untouched.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;

use crate::{
    delivery::{send, settled, until},
    helpers::{account, spawn_app, spawn_app_with},
};

#[tokio::test]
async fn periods_are_stored_under_both_key_sets_and_bad_ones_are_named() {
    let app = spawn_app().await;
    let (status, empty) = app.json(Method::GET, "/retention", None).await;
    assert_eq!(status, 200, "{empty}");
    assert_eq!(
        (empty["data_retention"]["message"].as_str(), empty["data_retention"]["mts_retention"].as_str()),
        (Some(""), Some("")),
        "kept for good by default"
    );
    let body = json!({"retention": {"message": "30d", "mo": "6M", "list": "12m"}});
    let (status, saved) = app.json(Method::PUT, "/retention", Some(body)).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["retention"]["message"], "30d", "the key the Java SDK reads after PUT");
    assert_eq!(
        (saved["data_retention"]["mos_retention"].as_str(), saved["data_retention"]["lists_retention"].as_str()),
        (Some("6m"), Some("12m"))
    );
    let (status, refused) =
        app.json(Method::PUT, "/retention", Some(json!({"retention": {"campaign": "2w", "lookup": "0d"}}))).await;
    assert_eq!((status, refused["status"].as_i64()), (422, Some(-7)), "{refused}");
    assert!(
        refused.to_string().contains("retention.campaign") && refused.to_string().contains("retention.lookup"),
        "{refused}"
    );
    let (_, cleared) = app.json(Method::PUT, "/retention", Some(json!({"retention": {"message": ""}}))).await;
    assert_eq!(
        (cleared["retention"]["message"].as_str(), cleared["retention"]["mo"].as_str()),
        (Some(""), Some("6m")),
        "a field left out keeps its period"
    );
    let other = account(&app.db(), "other", 0.0).await;
    let (_, theirs) = app.json_as(&other, Method::GET, "/retention", None).await;
    assert_eq!(theirs["retention"]["mo"], "", "each account its own");
    let (status, xml) = app.xml(Method::PUT, "/retention", Some("<retention><survey>3m</survey></retention>")).await;
    assert_eq!(status, 200, "{xml}");
    assert!(xml.contains("<survey>3m</survey>"), "{xml}");
}

#[tokio::test]
async fn the_pass_removes_what_is_older_than_the_period_and_keeps_the_counts() {
    let app = spawn_app_with(|config| {
        config.builtin_dlr_delay_ms = 20;
        config.retention_every = Duration::from_millis(200).into();
    })
    .await;
    let old = send(&app, "Ancienne promo", &["33611111111", "33611111100"], json!({})).await;
    settled(&app, &old).await;
    let recent = send(&app, "Nouvelle promo", &["33622222222"], json!({})).await;
    settled(&app, &recent).await;
    assert_eq!(
        app.json(Method::POST, "/simulator/mo", Some(json!({"from": "33611111111", "text": "Merci"}))).await.0,
        200
    );
    let (_, list) = app.json(Method::POST, "/list", Some(json!({"list": {"name": "Anciens", "contacts": {"gsm": [{"value": "33633333333"}, {"value": "33644444444"}]}}}))).await;
    let list = list["id"].as_str().expect("a list").to_owned();
    until("the reply", || async { (!app.sql("SELECT id FROM replies").await.is_empty()).then_some(()) }).await;
    // Three years back: the old campaign, its messages and reply, and one list contact.
    let past = "2023-01-01T00:00:00Z";
    for sql in [
        format!("UPDATE campaigns SET created_at = '{past}' WHERE id = {old}"),
        format!("UPDATE messages SET created_at = '{past}' WHERE campaign_id = {old}"),
        format!("UPDATE replies SET received_at = '{past}'"),
        format!("UPDATE contacts SET added_at = '{past}' WHERE number = 33633333333"),
        format!("UPDATE account_contacts SET created_at = '{past}' WHERE number = 33633333333"),
    ] {
        app.sql(&sql).await;
    }
    let (_, before) = app.json(Method::GET, &format!("/campaign/{old}"), None).await;
    let body = json!({"retention": {"message": "30d", "mo": "30d", "list": "1m"}});
    assert_eq!(app.json(Method::PUT, "/retention", Some(body)).await.0, 200);

    // The pass masks the messages, then the campaigns' texts, deletes the replies, the list
    // contacts and last the numbers nothing else holds, in batches with pauses between: the
    // checks below wait for its last step.
    until("the pass", || async {
        let rows = app.sql(&format!("SELECT number FROM messages WHERE campaign_id = {old} AND number <> 0")).await;
        let texts = app.sql(&format!("SELECT id FROM campaigns WHERE id = {old} AND text <> ''")).await;
        let held = app.sql("SELECT number FROM account_contacts WHERE number = 33633333333").await;
        (rows.is_empty() && texts.is_empty() && held.is_empty()).then_some(())
    })
    .await;
    let (_, after) = app.json(Method::GET, &format!("/campaign/{old}"), None).await;
    let (before, after) = (&before["campaign"][0], &after["campaign"][0]);
    assert_eq!(after["text"], "", "the old campaign's text is masked: {after}");
    for count in ["total", "sent", "delivered", "npai", "cost", "delivery_rate"] {
        assert_eq!(after[count], before[count], "{count} stays");
    }
    let (_, messages) = app.json(Method::GET, &format!("/messages?campaign_id={old}"), None).await;
    let masked: Vec<(&str, &str)> = messages["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["destination"].as_str().unwrap(), m["message"].as_str().unwrap()))
        .collect();
    assert_eq!(masked, [("", ""), ("", "")], "numbers and texts masked, the messages still counted");
    assert!(app.sql("SELECT id FROM replies").await.is_empty(), "the old reply is deleted");
    let (_, kept) = app.json(Method::GET, &format!("/list/{list}"), None).await;
    let numbers: Vec<&str> =
        kept["list"].as_array().unwrap().iter().map(|c| c["destination"].as_str().unwrap()).collect();
    assert_eq!(numbers, ["33644444444"], "the old contact is deleted, the recent one kept");
    let (_, contacts) = app.json(Method::GET, "/contacts?search=336", None).await;
    let numbers: Vec<&str> =
        contacts["contacts"].as_array().unwrap().iter().filter_map(|c| c["number"].as_str()).collect();
    assert!(
        !numbers.contains(&"33633333333"),
        "nothing else held it: the number is gone from contacts too: {numbers:?}"
    );
    assert!(numbers.contains(&"33644444444"), "{numbers:?}");
    let (_, fresh) = app.json(Method::GET, &format!("/messages?campaign_id={recent}"), None).await;
    assert_eq!(fresh["messages"][0]["destination"], "33622222222", "recent messages are untouched");
    assert_eq!(fresh["messages"][0]["message"], "Nouvelle promo");
}
