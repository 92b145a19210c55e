//! UTM tagging: the account's tags (`PUT /settings`) or a send's own (`sms.message.utm`) are
//! added to each short link's target when a recipient follows it, with the campaign's ticket
//! as `utm_campaign` unless told otherwise.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    delivery::{quick_app, received, send, until},
    helpers::TestApp,
};

/// Where the short link of the message `number` received leads.
async fn followed(app: &TestApp, number: &str) -> String {
    let message = until("the message", || async { received(app, number).await.into_iter().next() }).await;
    let text = message["text"].as_str().unwrap_or_default().to_owned();
    let short_url = text.split_whitespace().find(|w| w.contains("/s/")).expect("a short link").to_owned();
    let response = app.client.get(&short_url).send().await.expect("a click");
    assert_eq!(response.status(), 302);
    response.headers()["location"].to_str().expect("a location").to_owned()
}

async fn settings(app: &TestApp, settings: Value) -> Value {
    let (status, body) = app.json(Method::PUT, "/settings", Some(json!({"settings": settings}))).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn the_account_s_tags_follow_every_short_link_and_a_send_may_change_or_drop_them() {
    let app = quick_app().await;
    let link = json!({"links": ["https://shop.example/soldes?ref=a#avis"]});
    let untagged = send(&app, "Soldes <-short->", &["33612345801"], link.clone()).await;
    assert!(!untagged.is_empty());
    assert_eq!(followed(&app, "33612345801").await, "https://shop.example/soldes?ref=a#avis", "no tags until set");

    let body = settings(&app, json!({"utm": {"source": "sms", "medium": "texto"}})).await;
    assert_eq!(body["settings"]["utm"], json!({"source": "sms", "medium": "texto"}));
    let ticket = send(&app, "Soldes <-short->", &["33612345802"], link.clone()).await;
    assert_eq!(
        followed(&app, "33612345802").await,
        format!("https://shop.example/soldes?ref=a&utm_source=sms&utm_medium=texto&utm_campaign={ticket}#avis")
    );

    let mut own = link.clone();
    own["utm"] = json!({"source": "sms", "campaign": "Noël 2026"});
    send(&app, "Noël <-short->", &["33612345803"], own).await;
    assert_eq!(
        followed(&app, "33612345803").await,
        "https://shop.example/soldes?ref=a&utm_source=sms&utm_campaign=No%C3%ABl+2026#avis"
    );
    let mut none = link.clone();
    none["utm"] = json!({});
    send(&app, "Sans <-short->", &["33612345804"], none).await;
    assert_eq!(followed(&app, "33612345804").await, "https://shop.example/soldes?ref=a#avis", "a send may drop them");

    // Turned off: sends after that are not tagged; one sent before keeps its tags.
    let body = settings(&app, json!({"utm": null})).await;
    assert!(body["settings"].get("utm").is_none(), "{body}");
    send(&app, "Fin <-short->", &["33612345805"], link).await;
    assert_eq!(followed(&app, "33612345805").await, "https://shop.example/soldes?ref=a#avis");
    assert!(followed(&app, "33612345802").await.contains("utm_source=sms"));
}

#[tokio::test]
async fn tags_that_are_too_long_are_refused_with_their_path() {
    let app = quick_app().await;
    let (status, body) =
        app.json(Method::PUT, "/settings", Some(json!({"settings": {"utm": {"source": "s".repeat(101)}}}))).await;
    assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{body}");
    assert!(body["details"].to_string().contains("settings.utm.source"), "{body}");
    let message = json!({"text": "Go <-short->", "pushtype": "alert", "links": ["https://s.example"], "utm": {"medium": "m".repeat(101)}});
    let (status, body) = app
        .json(
            Method::POST,
            "/send/simulate",
            Some(json!({"sms": {"message": message, "recipients": {"gsm": [{"value": "33612345806"}]}}})),
        )
        .await;
    assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{body}");
    assert!(body["details"].to_string().contains("sms.message.utm.medium"), "{body}");
    let xml = "<settings><utm><source>sms</source><medium>texto</medium></utm></settings>";
    let (status, answer) = app.xml(Method::PUT, "/settings", Some(xml)).await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("<source>sms</source>"), "{answer}");
}
