//! A campaign's report: the funnel and its rates, the first 48 hours, per country, as JSON,
//! XML and CSV, on the account's campaigns only.

use reqwest::Method;
use serde_json::json;

use crate::{
    delivery::{quick_app, received, send, settled, until},
    helpers::account,
};

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

#[tokio::test]
async fn a_large_campaigns_report_reads_the_counts_kept_as_it_went_out() {
    // More than KEPT_FROM (1,000) messages: their counts are kept as they are written and
    // delivered. The simulator fails numbers ending 00, 97, 98 and 99.
    let app = quick_app().await;
    let mut numbers: Vec<String> = (0..1_000).map(|i| format!("336123{i:05}")).collect();
    numbers.extend(["32470123401".to_owned(), "32470123499".to_owned()]);
    let big = account(&app.db(), "big", 5_000.0).await;
    let gsm: Vec<_> = numbers.iter().map(|n| json!({"value": n})).collect();
    let body = json!({"sms": {"message": {"text": "Soldes", "pushtype": "alert"}, "recipients": {"gsm": gsm}}});
    let (status, sent) = app.json_as(&big, Method::POST, "/send", Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    let ticket = sent["ticket"].as_str().expect("a ticket").to_owned();
    let detail = until("every receipt", || async {
        let (_, body) = app.json_as(&big, Method::GET, &format!("/campaign/{ticket}"), None).await;
        let campaign = body["campaign"][0].clone();
        (campaign["pending"] == 0 && campaign["status"] == "Sent").then_some(campaign)
    })
    .await;
    let delivered = detail["delivered"].as_i64().expect("the detail's delivered, counted from the messages");
    assert!(delivered > 900 && delivered < 1_002, "{detail}");
    let (status, body) = app.json_as(&big, Method::GET, &format!("/campaign/{ticket}/report"), None).await;
    assert_eq!(status, 200, "{body}");
    let report = &body["report"];
    assert_eq!((report["sent"].as_i64(), report["delivered"].as_i64()), (Some(1_002), Some(delivered)), "{report}");
    let by_country: i64 =
        report["countries"].as_array().expect("countries").iter().filter_map(|c| c["delivered"].as_i64()).sum();
    let by_hour: i64 = report["hours"].as_array().expect("hours").iter().filter_map(|h| h["delivered"].as_i64()).sum();
    assert_eq!((by_country, by_hour), (delivered, delivered), "{report}");
    assert_eq!(report["countries"][0]["country"], "FR");
    assert_eq!(report["countries"][1], json!({"country": "BE", "sent": 2, "delivered": 1, "clicked": 0}));
}
