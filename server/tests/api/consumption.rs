//! `GET /metrics/consumption`: the messages handed to the carrier in a period, by
//! country; what waits to be sent does not count.

use chrono::{Duration, Utc};
use reqwest::Method;
use serde_json::json;
use texto_core::format_paris;

use crate::{
    delivery::{quick_app, send, settled},
    helpers::account,
};

fn around_today() -> String {
    let day = |offset: i64| format_paris(Utc::now() + Duration::days(offset))[..10].to_owned();
    format!("date_start={}&date_end={}", day(-1), day(1))
}

#[tokio::test]
async fn consumption_counts_the_messages_handed_over_by_country() {
    let app = quick_app().await;
    let france = send(&app, "Bonjour", &["33612345678", "33612345679"], json!({})).await;
    settled(&app, &france).await;
    let belgium = send(&app, "Hallo", &["32470123456"], json!({})).await;
    settled(&app, &belgium).await;
    let later = format_paris(Utc::now() + Duration::days(5));
    send(&app, "Plus tard", &["33612345670"], json!({"delay": later})).await;

    let (status, body) = app.json(Method::GET, &format!("/metrics/consumption?{}", around_today()), None).await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(data["total"].as_i64(), Some(3), "the scheduled message is not consumed yet: {body}");
    assert_eq!(data["by_country"][0]["country"], "FR");
    assert_eq!(data["by_country"][0]["total"].as_i64(), Some(2));
    assert_eq!(
        (data["by_country"][1]["country"].as_str(), data["by_country"][1]["total"].as_i64()),
        (Some("BE"), Some(1))
    );
    assert_eq!(
        (data["my_account"]["company"].as_str(), data["my_account"]["conso"].as_i64()),
        (Some("alice"), Some(3))
    );
    assert_eq!(data["by_sub_accounts"], json!([]));

    let (_, belgian) =
        app.json(Method::GET, &format!("/metrics/consumption?{}&country=be", around_today()), None).await;
    assert_eq!(belgian["data"]["total"].as_i64(), Some(1), "{belgian}");
    let (_, past) = app.json(Method::GET, "/metrics/consumption?date_start=2020-01-01&date_end=2020-01-31", None).await;
    assert_eq!(past["data"]["total"].as_i64(), Some(0), "{past}");
    let other = account(&app.db(), "other", 0.0).await;
    let (_, theirs) = app.json_as(&other, Method::GET, &format!("/metrics/consumption?{}", around_today()), None).await;
    assert_eq!(theirs["data"]["total"].as_i64(), Some(0), "{theirs}");

    let (status, refused) = app.json(Method::GET, "/metrics/consumption?country=ZZ", None).await;
    assert_eq!((status, refused["status"].as_i64()), (422, Some(-7)), "{refused}");
    let text = refused.to_string();
    assert!(text.contains("date_start") && text.contains("date_end") && text.contains("\"country\""), "{text}");
    let (status, _) =
        app.json(Method::GET, &format!("/metrics/consumption?{}&sub_account_id=7", around_today()), None).await;
    assert_eq!(status, 404, "no sub-accounts yet");
    let (status, xml) = app.xml(Method::GET, &format!("/metrics/consumption?{}", around_today()), None).await;
    assert_eq!(status, 200, "{xml}");
    assert!(xml.contains("<total>3</total>") && xml.contains("<country>BE</country>"), "{xml}");
}
