//! The frequency cap: a marketing send skips the numbers that already got that many marketing
//! messages of the account in the period (counted in `capped`); alerts are not capped, nor are
//! cancelled campaigns counted.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{delivery::quick_app, helpers::TestApp};

async fn post(app: &TestApp, path: &str, pushtype: &str, numbers: &[&str], delay: Option<&str>) -> Value {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n})).collect();
    let mut message = json!({"text": "Soldes ce week-end", "pushtype": pushtype});
    if let Some(delay) = delay {
        message["delay"] = json!(delay);
    }
    let (status, body) =
        app.json(Method::POST, path, Some(json!({"sms": {"message": message, "recipients": {"gsm": gsm}}}))).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn a_marketing_send_skips_numbers_at_their_cap_and_says_how_many() {
    let app = quick_app().await;
    let first = post(&app, "/send", "marketing", &["33612345901", "33612345902"], None).await;
    assert!(first.get("capped").is_none(), "absent while no cap is set: {first}");

    let cap = json!({"settings": {"marketing_cap": {"messages": 1, "days": 7}}});
    let (status, body) = app.json(Method::PUT, "/settings", Some(cap)).await;
    assert_eq!((status, &body["settings"]["marketing_cap"]), (200, &json!({"messages": 1, "days": 7})), "{body}");

    let simulated = post(&app, "/send/simulate", "marketing", &["33612345901", "33612345903"], None).await;
    assert_eq!((simulated["sent"].as_i64(), simulated["capped"].as_i64()), (Some(1), Some(1)), "{simulated}");
    let second = post(&app, "/send", "marketing", &["33612345901", "33612345903"], None).await;
    assert_eq!((second["sent"].as_i64(), second["capped"].as_i64()), (Some(1), Some(1)), "{second}");
    let alert = post(&app, "/send", "alert", &["33612345901"], None).await;
    assert_eq!(alert["sent"].as_i64(), Some(1), "alerts are not capped: {alert}");
    assert!(alert.get("capped").is_none());

    // A cancelled campaign's messages do not count.
    let scheduled = post(&app, "/send", "marketing", &["33612345904"], Some("2027-01-11 10:00:00")).await;
    let ticket = scheduled["ticket"].as_str().expect("a ticket");
    assert_eq!(app.json(Method::DELETE, &format!("/send/{ticket}"), None).await.0, 200);
    let after = post(&app, "/send/simulate", "marketing", &["33612345904"], None).await;
    assert_eq!((after["sent"].as_i64(), after["capped"].as_i64()), (Some(1), Some(0)), "{after}");

    let (_, off) = app.json(Method::PUT, "/settings", Some(json!({"settings": {"marketing_cap": null}}))).await;
    assert!(off["settings"].get("marketing_cap").is_none(), "{off}");
    let uncapped = post(&app, "/send/simulate", "marketing", &["33612345901"], None).await;
    assert_eq!(uncapped["sent"].as_i64(), Some(1), "{uncapped}");
}

#[tokio::test]
async fn a_cap_out_of_bounds_is_refused_with_its_path() {
    let app = quick_app().await;
    let (status, body) = app
        .json(Method::PUT, "/settings", Some(json!({"settings": {"marketing_cap": {"messages": 0, "days": 365}}})))
        .await;
    assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{body}");
    for path in ["settings.marketing_cap.messages", "settings.marketing_cap.days"] {
        assert!(body["details"].to_string().contains(path), "{path}: {body}");
    }
    let xml = "<settings><marketing_cap><messages>2</messages><days>1</days></marketing_cap></settings>";
    let (status, answer) = app.xml(Method::PUT, "/settings", Some(xml)).await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("<messages>2</messages>"), "{answer}");
}
