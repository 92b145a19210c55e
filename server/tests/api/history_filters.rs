//! `GET /campaigns` filters: each of `date_start`, `date_end`, `sms_min`, `sms_max`,
//! `destination`, `text` and `sort` narrows or orders the answer, in JSON and XML.

use chrono::{Duration, Utc};
use reqwest::Method;
use serde_json::{Value, json};
use texto_core::format_paris;

use crate::helpers::{TestApp, account, spawn_app};

/// Sends `text` to `numbers` (at `delay` when given) and returns its ticket.
async fn send(app: &TestApp, text: &str, numbers: &[&str], delay: Option<String>) -> String {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n})).collect();
    let mut body = json!({"sms": {"message": {"text": text, "pushtype": "alert"}, "recipients": {"gsm": gsm}}});
    if let Some(delay) = delay {
        body["sms"]["message"]["delay"] = json!(delay);
    }
    let (status, sent) = app.json(Method::POST, "/send", Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    sent["ticket"].as_str().expect("a ticket").to_owned()
}

/// The tickets `GET /campaigns?{query}` lists, in order, checked against its `totalRecords`.
async fn tickets(app: &TestApp, query: &str) -> Vec<String> {
    let (status, body) = app.json(Method::GET, &format!("/campaigns?{query}"), None).await;
    assert_eq!(status, 200, "{query}: {body}");
    let ids: Vec<String> =
        body["campaigns"].as_array().expect("campaigns").iter().map(|c| c["id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(
        body["totalRecords"].as_i64(),
        Some(ids.len() as i64),
        "{query}: the total counts the filtered campaigns"
    );
    ids
}

/// Today's sale to one number, and a collection for two numbers going out in three days.
async fn two_campaigns(app: &TestApp) -> (String, String, chrono::DateTime<Utc>) {
    let later = Utc::now() + Duration::days(3);
    let sale = send(app, "Soldes d'hiver : -50%", &["33612345678"], None).await;
    let collection = send(app, "Nouvelle collection", &["33612345679", "33612345680"], Some(format_paris(later))).await;
    (sale, collection, later)
}

#[tokio::test]
async fn the_text_filter_finds_a_word_whatever_its_case_and_takes_wildcards_literally() {
    let app = spawn_app().await;
    let (sale, collection, _) = two_campaigns(&app).await;
    assert_eq!(tickets(&app, "text=SOLDES").await, vec![sale.clone()]);
    assert_eq!(tickets(&app, "text=collection").await, [collection]);
    assert_eq!(tickets(&app, "text=50%25").await, [sale], "%, sent encoded, is the character");
    assert_eq!(tickets(&app, "text=5_%25").await, Vec::<String>::new(), "_ is not a wildcard");
}

#[tokio::test]
async fn the_destination_filter_keeps_the_campaigns_sent_to_that_number_in_any_written_form() {
    let app = spawn_app().await;
    let (sale, collection, _) = two_campaigns(&app).await;
    assert_eq!(tickets(&app, "destination=33612345678").await, [sale]);
    assert_eq!(tickets(&app, "destination=%2B33%206%2012%2034%2056%2080").await, [collection]);
    assert!(tickets(&app, "destination=33699999999").await.is_empty());
    let other = account(&app.db(), "other", 10.0).await;
    let (_, theirs) = app.json_as(&other, Method::GET, "/campaigns?destination=33612345678", None).await;
    assert_eq!(theirs["campaigns"], json!([]), "another account finds none of alice's: {theirs}");
}

#[tokio::test]
async fn sms_min_and_sms_max_bound_the_number_of_recipients() {
    let app = spawn_app().await;
    let (sale, collection, _) = two_campaigns(&app).await;
    assert_eq!(tickets(&app, "sms_min=2").await, vec![collection.clone()]);
    assert_eq!(tickets(&app, "sms_max=1").await, [sale]);
    assert_eq!(tickets(&app, "sms_min=2&sms_max=2").await, [collection]);
    assert!(tickets(&app, "sms_min=3").await.is_empty());
}

#[tokio::test]
async fn date_start_and_date_end_take_a_day_or_a_time_in_paris() {
    let app = spawn_app().await;
    let (sale, collection, later) = two_campaigns(&app).await;
    let day = |at: chrono::DateTime<Utc>| format_paris(at)[..10].to_owned();
    assert_eq!(tickets(&app, &format!("date_start={}", day(later))).await, vec![collection.clone()]);
    assert_eq!(
        tickets(&app, &format!("date_end={}", day(Utc::now()))).await,
        vec![sale.clone()],
        "the whole day counts"
    );
    let (from, to) = (format_paris(later - Duration::minutes(1)), format_paris(later + Duration::minutes(1)));
    let query = format!("date_start={}&date_end={}", from.replace(' ', "%20"), to.replace(' ', "%20"));
    assert_eq!(tickets(&app, &query).await, [collection]);
    let (status, body) = app.json(Method::GET, "/campaigns?date_start=14/07/2026&sms_min=-1", None).await;
    assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{body}");
    let text = body.to_string();
    assert!(text.contains("date_start") && text.contains("sms_min"), "every bad field is named: {text}");
}

#[tokio::test]
async fn sort_asc_lists_the_oldest_first_and_filters_read_the_same_in_xml() {
    let app = spawn_app().await;
    let (sale, collection, _) = two_campaigns(&app).await;
    assert_eq!(tickets(&app, "").await, [collection.clone(), sale.clone()], "newest first by default");
    assert_eq!(tickets(&app, "sort=asc").await, [sale.clone(), collection]);
    let (status, body) = app.json(Method::GET, "/campaigns?sort=sideways", None).await;
    assert_eq!((status, body["status"].as_i64()), (400, Some(-7)), "{body}");
    let (status, xml) = app.xml(Method::GET, "/campaigns?text=soldes", None).await;
    assert_eq!(status, 200, "{xml}");
    assert!(xml.contains(&format!("<id>{sale}</id>")) && !xml.contains("Nouvelle"), "{xml}");
}
