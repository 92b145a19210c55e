//! Four eyes on a campaign that waits for the team: its sender cannot approve it, directly nor
//! through a token they made.

use reqwest::Method;
use serde_json::{Value, json};
use texto_core::Role;

use crate::{
    helpers::{TestApp, spawn_app},
    team::{PASSWORD, as_session, person, sign_in, token_with},
};

/// A send of an alert to `numbers`.
fn sms_to(numbers: &[&str]) -> Value {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n})).collect();
    json!({"sms": {"message": {"text": "Soldes", "pushtype": "alert"}, "recipients": {"gsm": gsm}}})
}

/// The status the campaign `ticket` shows.
async fn status_of(app: &TestApp, ticket: &str) -> Value {
    app.json(Method::GET, &format!("/campaign/{ticket}"), None).await.1["campaign"][0]["status"].clone()
}

/// Campaigns to more than two recipients wait for approval.
async fn over_two(app: &TestApp) {
    let rules = json!({"team_rules": {"approval_over": 2}});
    assert_eq!(app.json(Method::PUT, "/team-rules", Some(rules)).await.0, 200);
}

const THREE: [&str; 3] = ["33612340001", "33612340002", "33612340003"];

#[tokio::test]
async fn a_person_approves_no_campaign_of_theirs_through_a_token_they_made() {
    let app = spawn_app().await;
    over_two(&app).await;
    person(&app, "alice", "max@alice.example", Role::Admin).await;
    let max = sign_in(&app, "max@alice.example", PASSWORD).await.expect("signed in");
    let (status, sent) = as_session(&app, &max, Method::POST, "/send", Some(sms_to(&THREE)), true).await;
    assert_eq!(status, 200, "{sent}");
    let ticket = sent["ticket"].as_str().expect("a ticket").to_owned();
    assert_eq!(status_of(&app, &ticket).await, "awaiting approval");
    let body = json!({"token": {"name": "Approver"}});
    let (_, made) = as_session(&app, &max, Method::POST, "/token", Some(body), true).await;
    let token = made["token"].as_str().expect("a token").to_owned();
    let approve = format!("/campaign/{ticket}/approve");
    let (status, refused) = app.json_as(&token, Method::POST, &approve, None).await;
    assert_eq!((status, refused["status"].as_i64()), (403, Some(-12)), "max's token is max: {refused}");
    let (status, refused) = as_session(&app, &max, Method::POST, &approve, None, true).await;
    assert_eq!((status, refused["status"].as_i64()), (403, Some(-12)), "{refused}");

    // The other way round: the token sends, its maker approves.
    let (_, by_token) = app.json_as(&token, Method::POST, "/send", Some(sms_to(&THREE))).await;
    let other = by_token["ticket"].as_str().expect("a ticket").to_owned();
    let (status, refused) =
        as_session(&app, &max, Method::POST, &format!("/campaign/{other}/approve"), None, true).await;
    assert_eq!((status, refused["status"].as_i64()), (403, Some(-12)), "{refused}");

    // Someone else approves either; a token of the command line is nobody's, so it is not max.
    assert_eq!(app.json(Method::POST, &approve, None).await.0, 200);
    let cli = token_with(&app, "alice", Role::Sender).await;
    assert_eq!(app.json_as(&cli, Method::POST, &format!("/campaign/{other}/approve"), None).await.0, 200);
}
