//! Conversions: the account's link tagging names a click parameter, the site gets the click's
//! code with the visit, and `POST /conversion` (a token) or the pixel (none) credits a sale to
//! the click, once; the campaign's report counts them and their value.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    delivery::{quick_app, received, send, settled, until},
    helpers::{TestApp, account},
};

/// The short code of the link the simulator received for `number`.
async fn code_for(app: &TestApp, number: &str) -> String {
    let message = until("the message", || async { received(app, number).await.into_iter().next() }).await;
    let text = message["text"].as_str().unwrap_or_default().to_owned();
    let url = text.split_whitespace().find(|w| w.contains("/s/")).expect("a short link").to_owned();
    url.rsplit('/').next().expect("a code").to_owned()
}

/// Follows `/s/{code}`; where it leads.
async fn follow(app: &TestApp, code: &str) -> String {
    let response = app.anonymous(Method::GET, &format!("/s/{code}")).send().await.expect("a click");
    assert_eq!(response.status(), 302);
    response.headers()["location"].to_str().expect("a location").to_owned()
}

async fn convert(app: &TestApp, token: &str, conversion: Value) -> (u16, Value) {
    app.json_as(token, Method::POST, "/conversion", Some(json!({"conversion": conversion}))).await
}

#[tokio::test]
async fn a_followed_click_converts_once_by_api_or_pixel_and_the_report_counts_it() {
    let app = quick_app().await;
    let (status, body) =
        app.json(Method::PUT, "/settings", Some(json!({"settings": {"utm": {"click": "texto_click"}}}))).await;
    assert_eq!(status, 200, "{body}");
    let link = json!({"links": ["https://shop.example/soldes"]});
    let ticket = send(&app, "Soldes <-short->", &["33612345901", "33612345902", "33612345903"], link).await;
    let (first, second) = (code_for(&app, "33612345901").await, code_for(&app, "33612345902").await);

    // Not followed yet: nothing to credit.
    let (status, refused) = convert(&app, &app.token, json!({"click": first, "value": 49.9})).await;
    assert_eq!((status, refused["status"].as_i64()), (404, Some(-5)), "{refused}");
    assert_eq!(follow(&app, &first).await, format!("https://shop.example/soldes?texto_click={first}"));

    let (status, converted) = convert(&app, &app.token, json!({"click": first, "value": 49.9})).await;
    assert_eq!(status, 200, "{converted}");
    assert_eq!(converted["conversion"]["value"], 49.9);
    assert_eq!(converted["conversion"]["campaign_id"], ticket.as_str());
    // Once per click: a second conversion answers the first.
    let (status, again) = convert(&app, &app.token, json!({"click": first, "value": 10})).await;
    assert_eq!((status, &again["conversion"]), (200, &converted["conversion"]), "{again}");

    // Another account cannot credit this account's click; bad input is named.
    let bob = account(&app.db(), "bob", 10.0).await;
    let (status, _) = convert(&app, &bob, json!({"click": first, "value": 1})).await;
    assert_eq!(status, 404);
    for (bad, path) in [
        (json!({"click": "AbC", "value": 1}), "conversion.click"),
        (json!({"click": first, "value": -3}), "conversion.value"),
    ] {
        let (status, refused) = convert(&app, &app.token, bad).await;
        assert_eq!((status, refused["errors"][0]["path"].as_str()), (422, Some(path)), "{refused}");
    }
    let anonymous =
        app.anonymous(Method::POST, "/conversion").json(&json!({"conversion": {"click": first}})).send().await;
    assert_eq!(anonymous.expect("an answer").status(), 401);

    // The pixel: no token, always the same image, a click converts once.
    follow(&app, &second).await;
    for query in [
        format!("click={second}&value=12.50"),
        format!("click={second}&value=99"),
        "click=zzzzzz".into(),
        "value=abc".into(),
    ] {
        let response = app.anonymous(Method::GET, &format!("/conversion.gif?{query}")).send().await.expect("a pixel");
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], "image/gif");
    }

    settled(&app, &ticket).await;
    let (status, report) = app.json(Method::GET, &format!("/campaign/{ticket}/report"), None).await;
    assert_eq!(status, 200, "{report}");
    let report = &report["report"];
    assert_eq!((report["converted"].as_i64(), report["conversion_value"].as_f64()), (Some(2), Some(62.4)), "{report}");
    assert_eq!(report["converted_rate"].as_f64(), Some(66.7), "2 of 3 delivered: {report}");
    let csv = app.request(&app.token, Method::GET, &format!("/campaign/{ticket}/report.csv")).send().await;
    let csv = csv.expect("an answer").text().await.expect("a CSV");
    assert!(csv.contains("converted,2,66.7") && csv.contains("conversion_value,62.40,"), "{csv}");
}

#[tokio::test]
async fn a_conversion_reads_and_answers_xml() {
    let app = quick_app().await;
    send(&app, "Soldes <-short->", &["33612345911"], json!({"links": ["https://shop.example/"]})).await;
    let code = code_for(&app, "33612345911").await;
    follow(&app, &code).await;
    let body = format!("<conversion><click>{code}</click><value>19.99</value></conversion>");
    let (status, answer) = app.xml(Method::POST, "/conversion", Some(&body)).await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("<value>19.99</value>") && answer.contains(&format!("<click>{code}</click>")), "{answer}");
}

#[tokio::test]
async fn many_conversions_of_one_click_at_once_record_one() {
    let app = quick_app().await;
    send(&app, "Soldes <-short->", &["33612345921"], json!({"links": ["https://shop.example/"]})).await;
    let code = code_for(&app, "33612345921").await;
    follow(&app, &code).await;
    let tries = (0..8).map(|i| convert(&app, &app.token, json!({"click": code, "value": i})));
    let answers = futures_util::future::join_all(tries).await;
    let recorded: std::collections::BTreeSet<String> = answers
        .iter()
        .map(|(status, answer)| {
            assert_eq!(*status, 200, "{answer}");
            answer["conversion"].to_string()
        })
        .collect();
    assert_eq!(recorded.len(), 1, "every answer is the one conversion recorded: {answers:?}");
}
