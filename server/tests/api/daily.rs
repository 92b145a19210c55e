//! `GET /metrics/daily`: today's figures, counted as things happen, match the
//! campaign's own; every day of the period is listed; bad periods are refused.

use reqwest::Method;
use serde_json::{Value, json};

use crate::delivery::{quick_app, received, send, settled, until};

/// Today's row (the last of the default period).
async fn today(app: &crate::helpers::TestApp) -> Value {
    let (status, body) = app.json(Method::GET, "/metrics/daily", None).await;
    assert_eq!(status, 200, "{body}");
    let days = body["days"].as_array().expect("days");
    assert_eq!(days.len(), 30, "the last 30 days by default");
    days[29].clone()
}

#[tokio::test]
async fn todays_figures_match_the_campaigns_and_count_clicks_replies_and_stops() {
    let app = quick_app().await;
    let ticket = send(
        &app,
        "Offre <-short->",
        &["33671111111", "33672222222", "33673333333"],
        json!({"links": ["https://shop.example/offre"]}),
    )
    .await;
    let campaign = settled(&app, &ticket).await;
    let message = until("a message", || async { received(&app, "33671111111").await.into_iter().next() }).await;
    let text = message["text"].as_str().unwrap_or_default().to_owned();
    let short_url = text.split_whitespace().find(|w| w.contains("/s/")).expect("a short link").to_owned();
    let click = app.client.get(&short_url).send().await.expect("a click");
    assert_eq!(click.status(), 302);
    for (from, text) in [("33671111111", "Merci"), ("33672222222", "STOP")] {
        let (status, body) = app.json(Method::POST, "/simulator/mo", Some(json!({"from": from, "text": text}))).await;
        assert_eq!(status, 200, "{body}");
    }
    let day = until("the replies counted", || async {
        let day = today(&app).await;
        (day["replies"] == 2).then_some(day)
    })
    .await;
    assert_eq!(day["sent"], campaign["sent"], "{day} against {campaign}");
    assert_eq!(day["delivered"], campaign["delivered"], "{day} against {campaign}");
    assert_eq!((day["clicks"].as_i64(), day["stops"].as_i64()), (Some(1), Some(1)), "{day}");
    assert_eq!(day["cost"].as_f64(), campaign["cost"].as_f64(), "{day} {campaign}");
}

#[tokio::test]
async fn every_day_of_the_period_is_listed_and_bad_periods_are_refused() {
    let app = quick_app().await;
    let (status, body) = app.json(Method::GET, "/metrics/daily?date_start=2026-02-27&date_end=2026-03-02", None).await;
    assert_eq!(status, 200, "{body}");
    let dates: Vec<&str> = body["days"].as_array().expect("days").iter().filter_map(|d| d["date"].as_str()).collect();
    assert_eq!(dates, ["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"]);
    assert_eq!(body["days"][0]["sent"], 0);
    for bad in [
        "date_start=27/02/2026",
        "date_start=2026-03-02&date_end=2026-03-01",
        "date_start=2024-01-01&date_end=2026-01-01",
    ] {
        let (status, body) = app.json(Method::GET, &format!("/metrics/daily?{bad}"), None).await;
        assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{bad}: {body}");
    }
    let (status, xml) = app.xml(Method::GET, "/metrics/daily?date_start=2026-03-01&date_end=2026-03-01", None).await;
    assert_eq!(status, 200);
    assert!(xml.contains("<date>2026-03-01</date>"), "{xml}");
}
