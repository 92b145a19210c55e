//! A campaign's report: the funnel and its rates, the first 48 hours, per country, as JSON,
//! XML and CSV, on the account's campaigns only.

use reqwest::Method;
use serde_json::json;

use crate::delivery::{quick_app, received, send, settled, until};

#[tokio::test]
async fn the_report_counts_the_funnel_the_hours_and_the_countries() {
    let app = quick_app().await;
    let numbers = ["33612346001", "33612346002", "33612346003", "33612346004"];
    let ticket = send(&app, "Soldes <-short->", &numbers, json!({"links": ["https://shop.example/soldes"]})).await;
    settled(&app, &ticket).await;
    // One recipient clicks (twice), one replies, one sends STOP.
    let message = until("the message", || async { received(&app, "33612346001").await.into_iter().next() }).await;
    let text = message["text"].as_str().unwrap_or_default().to_owned();
    let short_url = text.split_whitespace().find(|w| w.contains("/s/")).expect("a short link").to_owned();
    for _ in 0..2 {
        assert_eq!(app.client.get(&short_url).send().await.expect("a click").status(), 302);
    }
    for (from, text) in [("33612346002", "Merci, à quelle heure ?"), ("33612346003", "STOP")] {
        let (status, body) = app.json(Method::POST, "/simulator/mo", Some(json!({"from": from, "text": text}))).await;
        assert_eq!(status, 200, "{body}");
    }

    let report = until("the reply and the STOP counted", || async {
        let (_, body) = app.json(Method::GET, &format!("/campaign/{ticket}/report"), None).await;
        let report = body["report"].clone();
        (report["replied"] == 1 && report["stopped"] == 1).then_some(report)
    })
    .await;
    assert_eq!(
        (report["sent"].as_i64(), report["delivered"].as_i64(), report["clicked"].as_i64()),
        (Some(4), Some(4), Some(1)),
        "{report}"
    );
    assert_eq!(
        (report["delivered_rate"].as_f64(), report["clicked_rate"].as_f64(), report["stopped_rate"].as_f64()),
        (Some(100.0), Some(25.0), Some(25.0))
    );
    let hours = report["hours"].as_array().expect("hours");
    assert_eq!(hours.len(), 48);
    assert_eq!(
        hours[0]["delivered"].as_i64().unwrap_or(0) + hours[1]["delivered"].as_i64().unwrap_or(0),
        4,
        "delivered in its first hour (or the next, at an hour's turn)"
    );
    let clicks: i64 = hours.iter().filter_map(|h| h["clicks"].as_i64()).sum();
    assert_eq!(clicks, 2, "every click, hour by hour");
    assert_eq!(report["countries"], json!([{"country": "FR", "sent": 4, "delivered": 4, "clicked": 1}]));

    let (status, xml) = app.xml(Method::GET, &format!("/campaign/{ticket}/report"), None).await;
    assert_eq!(status, 200);
    assert!(
        xml.contains("<clicked_rate>25</clicked_rate>") || xml.contains("<clicked_rate>25.0</clicked_rate>"),
        "{xml}"
    );
    let csv = app
        .request(&app.token, Method::GET, &format!("/campaign/{ticket}/report.csv"))
        .send()
        .await
        .expect("the export")
        .bytes()
        .await
        .unwrap_or_default();
    assert!(csv.starts_with("\u{feff}".as_bytes()), "a byte order mark first");
    let csv = String::from_utf8_lossy(&csv[3..]).into_owned();
    assert!(csv.starts_with("measure,count,rate_percent\nsent,4,\ndelivered,4,100\nclicked,1,25\n"), "{csv}");
    assert!(csv.contains("\ncountry,sent,delivered,clicked\nFR,4,4,1\n"), "{csv}");
}

#[tokio::test]
async fn another_account_s_report_is_not_found() {
    let app = quick_app().await;
    let ticket = send(&app, "Rappel", &["33612346010"], json!({})).await;
    let bob = crate::helpers::account(&app.db(), "bob", 10.0).await;
    for path in [
        format!("/campaign/{ticket}/report"),
        format!("/campaign/{ticket}/report.csv"),
        "/campaign/999999/report".to_owned(),
    ] {
        let (status, body) = app.json_as(&bob, Method::GET, &path, None).await;
        assert_eq!((status, body["status"].as_i64()), (404, Some(-5)), "{path}: {body}");
    }
}
