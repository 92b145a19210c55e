//! What a journey's branches and exit test: whether its last send was delivered, a reply's
//! keyword since, a segment; a contact whose reply meets the exit test leaves at its next
//! step; a segment of another account is refused; and a trial run shows the way a number
//! would go without sending or writing anything.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    delivery::{quick_app, received, settled, until},
    helpers::{TestApp, account},
    journeys::{at, contacts_when, create, set_status, time_passes},
    keywords::mo,
};

async fn tags(app: &TestApp, number: &str) -> Value {
    let (_, card) = app.json(Method::GET, &format!("/contact/{number}"), None).await;
    card["contact"]["tags"].clone()
}

#[tokio::test]
async fn branches_follow_delivery_keywords_and_segments_and_the_exit_test_lets_a_contact_out() {
    let app = quick_app().await;
    // Ana is a VIP, Bo is not, Carl's number is never delivered (…99), Dan will answer "fini".
    let (ana, bo, carl, dan) = ("33612380001", "33612380002", "33612380099", "33612380004");
    let (status, _) =
        app.json(Method::PUT, &format!("/contact/{ana}"), Some(json!({"contact": {"tags": ["vip"]}}))).await;
    assert_eq!(status, 200);
    let segment = json!({"segment": {"name": "VIP", "rules": [{"type": "tag", "value": "vip"}]}});
    let (_, saved) = app.json(Method::POST, "/segment", Some(segment.clone())).await;
    let vip = saved["segment"]["id"].as_str().expect("a segment").to_owned();
    let journey = |segment: &str| {
        json!({
            "name": "Suivi", "trigger": {"type": "api"}, "exit": {"type": "keyword", "value": "fini"},
            "steps": [
                {"type": "send", "text": "Bonjour, répondez OUI pour en savoir plus."},
                {"type": "wait", "duration": "1h"},
                {"type": "branch", "if": {"type": "delivered"},
                 "then": [{"type": "branch", "if": {"type": "segment", "segment": segment},
                           "then": [{"type": "tag", "add": "vip-joint"}], "else": [{"type": "tag", "add": "joint"}]}],
                 "else": [{"type": "tag", "add": "injoignable"}]},
                {"type": "branch", "if": {"type": "keyword", "value": "oui"}, "then": [{"type": "tag", "add": "oui"}]},
                {"type": "wait", "duration": "1h"},
                {"type": "send", "text": "Dernier rappel."}
            ]
        })
    };
    // Another account's segment, in a branch, is refused by its path.
    let bob = account(&app.db(), "bob", 10.0).await;
    let (_, bobs) = app.json_as(&bob, Method::POST, "/segment", Some(segment)).await;
    let foreign = bobs["segment"]["id"].as_str().expect("Bob's segment");
    let (status, body) = app.json(Method::POST, "/journey", Some(json!({"journey": journey(foreign)}))).await;
    let paths: Vec<&Value> =
        body["errors"].as_array().map(|e| e.iter().map(|e| &e["path"]).collect()).unwrap_or_default();
    assert_eq!((status, paths), (422, vec![&json!("journey.steps[2].then[0].if.segment")]), "{body}");

    let id = create(&app, journey(&vip)).await;
    assert_eq!(set_status(&app, &app.token, &id, "live").await.0, 200);
    for number in [ana, bo, carl, dan] {
        let (status, body) =
            app.json(Method::POST, &format!("/journey/{id}/enter"), Some(json!({"number": number}))).await;
        assert_eq!(status, 200, "{body}");
    }
    contacts_when(&app, &id, "all four wait an hour", |c| c.len() == 4 && c.iter().all(|c| c["step"] == "1")).await;
    let (_, campaigns) = app.json(Method::GET, "/campaigns", None).await;
    for campaign in campaigns["campaigns"].as_array().expect("campaigns").iter().filter(|c| c["journey"] == id.as_str())
    {
        settled(&app, campaign["id"].as_str().expect("a ticket")).await;
    }
    mo(&app, ana, "Oui merci").await;
    mo(&app, dan, "Fini, merci").await;
    until("both replies kept", || async {
        let (_, inbox) = app.json(Method::GET, "/conversations", None).await;
        (inbox["conversations"].as_array().map(Vec::len) == Some(2)).then_some(())
    })
    .await;

    time_passes(&app).await;
    let contacts = contacts_when(&app, &id, "the branches taken", |c| {
        c.iter().filter(|c| c["step"] == "4" && c["state"] == "waiting").count() == 3
            && c.iter().any(|c| c["state"] == "exited")
    })
    .await;
    assert_eq!(at(&contacts, dan)["state"], "exited", "{contacts:?}");
    assert_eq!(tags(&app, ana).await, json!(["vip", "vip-joint", "oui"]));
    assert_eq!(tags(&app, bo).await, json!(["joint"]));
    assert_eq!(tags(&app, carl).await, json!(["injoignable"]));
    assert_eq!(tags(&app, dan).await, json!([]), "Dan left before any tag");

    time_passes(&app).await;
    until("Ana's last reminder", || async {
        received(&app, ana).await.into_iter().find(|m| m["text"] == "Dernier rappel.")
    })
    .await;
    assert!(received(&app, dan).await.iter().all(|m| m["text"] != "Dernier rappel."), "Dan left the journey");
}

#[tokio::test]
async fn a_trial_shows_the_way_a_number_would_go_and_writes_nothing() {
    let app = quick_app().await;
    let (ana, bo) = ("33612390001", "33612390002");
    let (status, _) =
        app.json(Method::PUT, &format!("/contact/{ana}"), Some(json!({"contact": {"tags": ["vip"]}}))).await;
    assert_eq!(status, 200);
    let segment = json!({"segment": {"name": "VIP", "rules": [{"type": "tag", "value": "vip"}]}});
    let (_, saved) = app.json(Method::POST, "/segment", Some(segment)).await;
    let vip = saved["segment"]["id"].as_str().expect("a segment").to_owned();
    let id = create(
        &app,
        json!({
            "name": "Essai", "trigger": {"type": "api"},
            "steps": [
                {"type": "send", "text": "Bonjour"},
                {"type": "branch", "if": {"type": "segment", "segment": vip},
                 "then": [{"type": "send", "text": "Offre VIP"}], "else": [{"type": "end"}]},
                {"type": "send", "text": "À bientôt"}
            ]
        }),
    )
    .await;
    let way = |number: &'static str| {
        let app = &app;
        let id = id.clone();
        async move {
            let (status, body) =
                app.json(Method::POST, &format!("/journey/{id}/trial"), Some(json!({"number": number}))).await;
            assert_eq!(status, 200, "{body}");
            body["steps"]
                .as_array()
                .expect("steps")
                .iter()
                .map(|s| (s["step"].clone(), s["holds"].clone()))
                .collect::<Vec<_>>()
        }
    };
    // A draft can be tried: Ana (VIP) gets the offer, Bo ends at the branch.
    let shown = |steps: &[(&str, Value)]| steps.iter().map(|(s, h)| (json!(s), h.clone())).collect::<Vec<_>>();
    assert_eq!(
        way(ana).await,
        shown(&[("0", Value::Null), ("1", json!(true)), ("1.then.0", Value::Null), ("2", Value::Null)])
    );
    assert_eq!(way(bo).await, shown(&[("0", Value::Null), ("1", json!(false)), ("1.else.0", Value::Null)]));
    // Nothing was sent or entered.
    let (_, contacts) = app.json(Method::GET, &format!("/journey/{id}/contacts"), None).await;
    assert_eq!(contacts["contacts"], json!([]), "{contacts}");
    assert!(received(&app, ana).await.is_empty());
    // A wrong number is named; another account's journey is not found.
    let (status, body) = app.json(Method::POST, &format!("/journey/{id}/trial"), Some(json!({"number": "12"}))).await;
    assert_eq!((status, &body["errors"][0]["path"]), (422, &json!("number")), "{body}");
    let bob = account(&app.db(), "bob", 10.0).await;
    let (status, _) =
        app.json_as(&bob, Method::POST, &format!("/journey/{id}/trial"), Some(json!({"number": ana}))).await;
    assert_eq!(status, 404);
}
