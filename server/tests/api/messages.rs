//! `GET /messages`, `GET /messages/mo` and what a campaign caused: each message with
//! its status and receipt date, each filter narrowing the answer, the replies, the STOPs and
//! the NPAI numbers of one campaign.

use chrono::{Duration, Utc};
use reqwest::Method;
use serde_json::{Value, json};
use texto_core::format_paris;

use crate::{
    delivery::{quick_app, send, settled, until},
    helpers::{TestApp, account},
};

/// `date_start` and `date_end` around today, as the SDKs write them.
fn around_today() -> String {
    let day = |offset: i64| format_paris(Utc::now() + Duration::days(offset))[..10].to_owned();
    format!("date_start={}&date_end={}", day(-1), day(1))
}

/// `GET /messages` with the period and `filters`: the destinations listed, in order, after
/// checking the totals.
async fn listed(app: &TestApp, filters: &str) -> (Vec<String>, Value) {
    let (status, body) = app.json(Method::GET, &format!("/messages?{}&{filters}", around_today()), None).await;
    assert_eq!(status, 200, "{filters}: {body}");
    let numbers: Vec<String> = body["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["destination"].as_str().unwrap().to_owned())
        .collect();
    if !filters.contains("length=") {
        assert_eq!(body["totalDisplayRecords"].as_i64(), Some(numbers.len() as i64), "{filters}: {body}");
    }
    (numbers, body)
}

/// A list of a delivered, an unknown (NPAI) and an undelivered number, with first names, sent
/// "Bonjour [info1]"; the ticket once every receipt came.
async fn three_outcomes(app: &TestApp) -> String {
    let gsm = json!([
        {"value": "33612345678", "info1": "Marie"},
        {"value": "33612345600", "info1": "Paul"},
        {"value": "33612345699", "info1": "Lina"}
    ]);
    let (status, list) =
        app.json(Method::POST, "/list", Some(json!({"list": {"name": "Clients", "contacts": {"gsm": gsm}}}))).await;
    assert_eq!(status, 200, "{list}");
    let body = json!({"sms": {"message": {"text": "Bonjour [info1]", "pushtype": "alert", "sender": "Boutique"}, "lists": [{"value": list["id"]}]}});
    let (status, sent) = app.json(Method::POST, "/send/lists", Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    let ticket = sent["ticket"].as_str().expect("a ticket").to_owned();
    settled(app, &ticket).await;
    ticket
}

#[tokio::test]
async fn each_message_shows_its_text_as_sent_its_status_and_when_its_receipt_came() {
    let app = quick_app().await;
    let ticket = three_outcomes(&app).await;
    let (numbers, body) = listed(&app, "sort=asc").await;
    assert_eq!(numbers, ["33612345678", "33612345600", "33612345699"]);
    assert_eq!(body["totalRecords"].as_i64(), Some(3));
    let first = &body["messages"][0];
    assert_eq!(first["message"], "Bonjour Marie", "the text as its recipient got it: {first}");
    assert_eq!((first["status"].as_str(), first["type"].as_str()), (Some("delivered"), Some("alert")));
    assert_eq!((first["campaign_id"].to_string(), first["sender"].as_str()), (ticket, Some("Boutique")));
    assert_eq!(first["country"], "FR");
    assert!(first["dlr_date"].as_str().is_some_and(|d| d.len() == 19), "{first}");
    let statuses: Vec<&str> =
        body["messages"].as_array().unwrap().iter().map(|m| m["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["delivered", "npai", "not_delivered"]);
    let (newest_first, _) = listed(&app, "").await;
    assert_eq!(newest_first, ["33612345699", "33612345600", "33612345678"], "desc by default");

    let other = account(&app.db(), "other", 10.0).await;
    let (_, theirs) = app.json_as(&other, Method::GET, &format!("/messages?{}", around_today()), None).await;
    assert_eq!((theirs["messages"].clone(), theirs["totalRecords"].as_i64()), (json!([]), Some(0)), "{theirs}");
    let (status, xml) = app.xml(Method::GET, &format!("/messages?{}&status=npai", around_today()), None).await;
    assert_eq!(status, 200, "{xml}");
    assert!(xml.contains("<destination>33612345600</destination>") && !xml.contains("33612345678"), "{xml}");
}

#[tokio::test]
async fn each_filter_of_get_messages_narrows_the_answer() {
    let app = quick_app().await;
    three_outcomes(&app).await;
    let promo = send(&app, "Promo du jour", &["33698765432"], json!({"pushtype": "alert"})).await;
    settled(&app, &promo).await;
    let cases: [(&str, &[&str]); 8] = [
        ("status=delivered&sort=asc", &["33612345678", "33698765432"]),
        ("status=npai", &["33612345600"]),
        ("destination=%2B33%206%2012%2034%2056%2099", &["33612345699"]),
        ("message=PROMO", &["33698765432"]),
        ("message=bonjour&sort=asc", &["33612345678", "33612345600", "33612345699"]),
        ("type=marketing", &[]),
        ("country=be", &[]),
        ("country=FR&length=2&start=1&sort=asc", &["33612345600", "33612345699"]),
    ];
    for (filters, expected) in cases {
        let (numbers, body) = listed(&app, filters).await;
        assert_eq!(numbers, expected, "{filters}");
        if filters.contains("length=2") {
            assert_eq!(body["totalDisplayRecords"].as_i64(), Some(4), "a page of two of the four kept");
        }
        assert_eq!(body["totalRecords"].as_i64(), Some(4), "{filters}: the period holds four");
    }
}

#[tokio::test]
async fn get_messages_needs_its_period_and_names_each_bad_filter() {
    let app = quick_app().await;
    let (status, body) = app.json(Method::GET, "/messages?status=lost&country=XX&type=sms", None).await;
    assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{body}");
    let text = body.to_string();
    for field in ["date_start", "date_end", "status", "country", "type"] {
        assert!(text.contains(&format!("\"{field}\"")), "{field} named: {text}");
    }
    let (status, body) = app.json(Method::GET, "/messages/mo", None).await;
    assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{body}");
}

#[tokio::test]
async fn replies_are_listed_by_period_and_by_campaign_with_its_stops() {
    let app = quick_app().await;
    let ticket = send(&app, "Soldes", &["33633333333"], json!({})).await;
    settled(&app, &ticket).await;
    for text in ["Merci !", "STOP"] {
        let (status, _) =
            app.json(Method::POST, "/simulator/mo", Some(json!({"from": "33633333333", "text": text}))).await;
        assert_eq!(status, 200);
    }
    let replies = until("both replies", || async {
        let (_, body) = app.json(Method::GET, &format!("/messages/mo?{}&sort=asc", around_today()), None).await;
        (body["replies"].as_array().map(Vec::len) == Some(2)).then_some(body)
    })
    .await;
    assert_eq!(replies["totalRecords"].as_i64(), Some(2));
    assert_eq!(
        (replies["replies"][0]["message"].as_str(), replies["replies"][1]["message"].as_str()),
        (Some("Merci !"), Some("STOP"))
    );
    assert_eq!(replies["replies"][0]["campaign_id"].to_string(), ticket);
    assert_eq!(replies["replies"][0]["destination"], "33633333333");
    let (_, newest) = app.json(Method::GET, &format!("/messages/mo?{}", around_today()), None).await;
    assert_eq!(newest["replies"][0]["message"], "STOP", "newest first by default");
    let (_, earlier) = app.json(Method::GET, "/messages/mo?date_start=2020-01-01&date_end=2020-01-31", None).await;
    assert_eq!(
        (earlier["replies"].clone(), earlier["totalRecords"].as_i64()),
        (json!([]), Some(0)),
        "the period narrows"
    );
    let (_, paged) =
        app.json(Method::GET, &format!("/messages/mo?{}&sort=asc&start=1&length=1", around_today()), None).await;
    assert_eq!(
        (paged["replies"][0]["message"].as_str(), paged["totalRecords"].as_i64()),
        (Some("STOP"), Some(2)),
        "{paged}"
    );

    let (status, by_campaign) = app.json(Method::GET, &format!("/campaign/{ticket}/mo"), None).await;
    assert_eq!((status, by_campaign["replies"].as_array().map(Vec::len)), (200, Some(2)), "{by_campaign}");
    let stops = until("the STOP", || async {
        let (_, body) = app.json(Method::GET, &format!("/campaign/{ticket}/blacklist"), None).await;
        (body["stops"].as_array().map(Vec::len) == Some(1)).then_some(body)
    })
    .await;
    assert_eq!(stops["stops"][0]["destination"], "33633333333");
    for path in [
        format!("/campaign/{ticket}/mo"),
        format!("/campaign/{ticket}/blacklist"),
        format!("/messages/mo?{}", around_today()),
    ] {
        let (status, xml) = app.xml(Method::GET, &path, None).await;
        assert_eq!(status, 200, "{path}: {xml}");
        assert!(xml.contains("<destination>33633333333</destination>"), "{path}: {xml}");
    }
    let other = account(&app.db(), "other", 10.0).await;
    for path in ["mo", "blacklist", "npai"] {
        let (status, body) = app.json_as(&other, Method::GET, &format!("/campaign/{ticket}/{path}"), None).await;
        assert_eq!((status, body["status"].as_i64()), (404, Some(-5)), "{path} of another's campaign: {body}");
    }
    let (_, theirs) = app.json_as(&other, Method::GET, &format!("/messages/mo?{}", around_today()), None).await;
    assert_eq!(theirs["replies"], json!([]));
}

#[tokio::test]
async fn a_campaigns_npai_numbers_are_listed_and_moved_to_the_blacklist_once() {
    let app = quick_app().await;
    let ticket = three_outcomes(&app).await;
    let (status, npai) = app.json(Method::GET, &format!("/campaign/{ticket}/npai"), None).await;
    assert_eq!(status, 200, "{npai}");
    let numbers: Vec<&str> =
        npai["npai"].as_array().unwrap().iter().map(|n| n["destination"].as_str().unwrap()).collect();
    assert_eq!(numbers, ["33612345600"]);
    assert_eq!(npai["npai"][0]["info1"], "Paul", "the contact's fields come along");
    let (status, xml) = app.xml(Method::GET, &format!("/campaign/{ticket}/npai"), None).await;
    assert!(status == 200 && xml.contains("<destination>33612345600</destination>"), "{xml}");
    let (status, moved) = app.json(Method::PUT, &format!("/campaign/{ticket}/npai"), Some(json!([]))).await;
    assert_eq!((status, moved["added_contacts"].as_i64()), (200, Some(1)), "{moved}");
    let (_, blacklist) = app.json(Method::GET, "/blacklist", None).await;
    assert_eq!(blacklist["list"][0]["destination"], "33612345600", "{blacklist}");
    assert_eq!(blacklist["list"][0]["info1"], "Paul");
    let (_, again) = app.json(Method::PUT, &format!("/campaign/{ticket}/npai"), None).await;
    assert_eq!(again["added_contacts"].as_i64(), Some(0), "already there: {again}");
    let other = account(&app.db(), "other", 10.0).await;
    assert_eq!(app.json_as(&other, Method::PUT, &format!("/campaign/{ticket}/npai"), None).await.0, 404);
}

#[tokio::test]
async fn a_campaigns_messages_are_listed_without_a_period_and_exported_as_csv() {
    let app = quick_app().await;
    let ticket = three_outcomes(&app).await;
    send(&app, "Autre campagne", &["33698765432"], json!({})).await;
    let (status, body) = app.json(Method::GET, &format!("/messages?campaign_id={ticket}&status=delivered"), None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["totalRecords"].as_i64(), Some(3), "the campaign's messages: {body}");
    assert_eq!(body["messages"].as_array().map(Vec::len), Some(1), "{body}");
    let response =
        app.request(&app.token, Method::GET, &format!("/campaign/{ticket}/messages.csv")).send().await.expect("sent");
    assert_eq!(response.status(), 200);
    let csv = response.text().await.expect("text");
    let lines: Vec<&str> = csv.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(lines[0], "number,status,status_details,date,dlr_date,cost,country,message");
    assert_eq!(lines.len(), 4, "a header and three messages: {csv}");
    assert!(lines[1].starts_with("33612345678,delivered,") && lines[1].ends_with(",FR,Bonjour Marie"), "{csv}");
    let npai = app
        .request(&app.token, Method::GET, &format!("/campaign/{ticket}/messages.csv?status=npai"))
        .send()
        .await
        .expect("sent");
    assert_eq!(npai.text().await.expect("text").lines().count(), 2, "the status filter applies to the export");
    let other = account(&app.db(), "other", 10.0).await;
    let theirs =
        app.request(&other, Method::GET, &format!("/campaign/{ticket}/messages.csv")).send().await.expect("sent");
    assert_eq!(theirs.status(), 404);
}
