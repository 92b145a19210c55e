//! A journey's entry rules: at most so many contacts in it at once; those who would enter
//! when it is full are turned away, and room made by those who finish takes the next ones.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    delivery::quick_app,
    journeys::{at, contacts_when, create, set_status, time_passes},
};

#[tokio::test]
async fn a_full_journey_turns_newcomers_away_until_room_is_made() {
    let app = quick_app().await;
    // An out-of-range cap is refused by its path.
    let journey = |most: Value| {
        json!({"name": "Trois places", "trigger": {"type": "api"}, "most_at_once": most,
               "steps": [{"type": "wait", "duration": "1d"}, {"type": "tag", "add": "fini"}]})
    };
    for wrong in [json!(0), json!(-2), json!(10_000_001)] {
        let (status, body) = app.json(Method::POST, "/journey", Some(json!({"journey": journey(wrong)}))).await;
        assert_eq!((status, &body["errors"][0]["path"]), (422, &json!("journey.most_at_once")), "{body}");
    }
    let id = create(&app, journey(json!(3))).await;
    let (_, shown) = app.json(Method::GET, &format!("/journey/{id}"), None).await;
    assert_eq!(shown["journey"]["most_at_once"], 3, "{shown}");
    assert_eq!(set_status(&app, &app.token, &id, "live").await.0, 200);

    let enter = |number: String| {
        let app = &app;
        let id = id.clone();
        async move {
            let (status, body) =
                app.json(Method::POST, &format!("/journey/{id}/enter"), Some(json!({"number": number}))).await;
            assert_eq!(status, 200, "{body}");
        }
    };
    let first: Vec<String> = (1..=5).map(|i| format!("3361239100{i}")).collect();
    for number in &first {
        enter(number.clone()).await;
    }
    let contacts = contacts_when(&app, &id, "three in, two turned away", |c| {
        c.len() == 5 && c.iter().filter(|c| c["state"] == "exited").count() == 2
    })
    .await;
    let waiting: Vec<&Value> = contacts.iter().filter(|c| c["state"] == "waiting").collect();
    assert_eq!(waiting.len(), 3, "{contacts:?}");
    let away = contacts.iter().find(|c| c["state"] == "exited").expect("one turned away");
    assert!(away["note"].as_str().is_some_and(|n| n.contains("at most 3 at once")), "{away}");

    // The three finish: the next one is let in.
    time_passes(&app).await;
    contacts_when(&app, &id, "the first three through", |c| c.iter().filter(|c| c["state"] == "done").count() == 3)
        .await;
    enter("33612391009".into()).await;
    let contacts =
        contacts_when(&app, &id, "the newcomer in", |c| c.iter().any(|c| c["number"] == "33612391009")).await;
    assert_eq!(at(&contacts, "33612391009")["state"], "waiting");
}
