//! A journey's webhook step: it posts to one of the account's JOURNEY webhooks, signed with
//! that webhook's secret (a real receiver on loopback verifies it with texto-core's `verify`);
//! saving a journey adds the webhook of a new address for a role that may change webhooks, and
//! a role that may not names only the addresses already added.

use std::sync::{Arc, Mutex};

use axum::{body::Bytes, extract::State, http::HeaderMap, http::StatusCode, routing::post};
use reqwest::Method;
use serde_json::{Value, json};
use texto_core::Role;

use crate::{
    delivery::until,
    helpers::{TestApp, spawn_app_with},
    journeys::{at, contacts_when, create, set_status},
    team::token_with,
};

const SECRET: &str = "journey-s3cret";

/// What the receiver got: (event header, whether the signature held, body).
type Got = Arc<Mutex<Vec<(String, bool, Value)>>>;

async fn receive(State(got): State<Got>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let (timestamp, signature) = (header(texto_core::TIMESTAMP_HEADER), header(texto_core::SIGNATURE_HEADER));
    let signed = texto_core::verify(SECRET, &timestamp, &signature, &body, chrono::Utc::now().timestamp(), 300).is_ok();
    let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
    got.lock().unwrap().push((header(texto_core::EVENT_HEADER), signed, body));
    StatusCode::OK
}

/// Starts a receiver on loopback; its URL.
async fn receiver(got: &Got) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("http://{}/journey", listener.local_addr().expect("an address"));
    let app = axum::Router::new().route("/journey", post(receive)).with_state(got.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

async fn journey_webhooks(app: &TestApp) -> Vec<Value> {
    let (_, body) = app.json(Method::GET, "/webhook", None).await;
    let all = body["webhooks"].as_array().cloned().unwrap_or_default();
    all.into_iter().filter(|w| w["type"] == "JOURNEY").collect()
}

#[tokio::test]
async fn a_webhook_step_posts_the_contacts_place_signed_with_its_journey_webhooks_secret() {
    let app = spawn_app_with(|config| {
        config.allow_private_webhooks = true;
        config.builtin_dlr_delay_ms = 20;
    })
    .await;
    let got = Got::default();
    let url = receiver(&got).await;
    let journey = json!({
        "name": "CRM", "trigger": {"type": "api"},
        "steps": [{"type": "tag", "add": "crm"}, {"type": "webhook", "url": url}, {"type": "send", "text": "Merci !"}]
    });

    // An author may not point texto at a new address: the step is refused by its path.
    let author = token_with(&app, "alice", Role::Author).await;
    let body = json!({"journey": journey});
    let (status, refused) = app.json_as(&author, Method::POST, "/journey", Some(body.clone())).await;
    assert_eq!((status, &refused["errors"][0]["path"]), (422, &json!("journey.steps[1].url")), "{refused}");
    assert!(journey_webhooks(&app).await.is_empty(), "nothing was added");

    // The owner's save adds the JOURNEY webhook, live and without a secret; the owner signs it.
    let id = create(&app, journey.clone()).await;
    let added = journey_webhooks(&app).await;
    assert_eq!(added.len(), 1, "{added:?}");
    assert_eq!((&added[0]["url"], &added[0]["signature"]), (&json!(url), &Value::Null));
    let webhook = added[0]["webhook_id"].as_str().expect("an id").to_owned();
    let secret = json!({"webhook": {"signature": SECRET}});
    let (status, _) = app.json(Method::PUT, &format!("/webhook/{webhook}"), Some(secret)).await;
    assert_eq!(status, 200);
    // Saving again, or an author's save of the same address, adds nothing more.
    let (status, saved) = app.json_as(&author, Method::POST, "/journey", Some(body)).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(journey_webhooks(&app).await.len(), 1);

    assert_eq!(set_status(&app, &app.token, &id, "live").await.0, 200);
    let number = "33612390001";
    let (status, entered) =
        app.json(Method::POST, &format!("/journey/{id}/enter"), Some(json!({"number": number}))).await;
    assert_eq!(status, 200, "{entered}");
    let posts = until("the webhook step's post", || async {
        let posts = got.lock().unwrap().clone();
        (!posts.is_empty()).then_some(posts)
    })
    .await;
    let (event, signed, body) = &posts[0];
    assert_eq!((event.as_str(), *signed), ("JOURNEY", true), "{body}");
    assert_eq!(
        (&body["journey"], &body["version"], &body["step"], &body["number"]),
        (&json!(id), &json!(1), &json!("1"), &json!(number))
    );
    assert!(body["date"].as_str().is_some_and(|d| d.len() == 19), "{body}");
    // The contact went on past the step: the message after it was sent.
    let contacts = contacts_when(&app, &id, "the contact through", |c| c.iter().any(|c| c["state"] == "done")).await;
    assert_eq!(at(&contacts, number)["state"], "done");
    // The post is in the webhook's request log, as any webhook's (written once the answer came).
    let log = until("the attempt in the request log", || async {
        let (_, log) = app.json(Method::GET, &format!("/webhook/{webhook}/log"), None).await;
        (log["totalRecords"] == 1).then_some(log)
    })
    .await;
    assert_eq!(log["log"][0]["http_code"], 200, "{log}");
    assert_eq!(got.lock().unwrap().len(), 1, "posted once");
}
