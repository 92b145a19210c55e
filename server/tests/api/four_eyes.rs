//! Four eyes on a campaign that waits for the team: its sender cannot approve it, directly nor
//! through a token they made; and the operator's release of a held campaign is no approval by
//! the team, so a released campaign that needs one waits for it, for the team's whole wait.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use texto_core::Role;
use texto_server::{AccountAction, OperatorAction, account_commands};

use crate::{
    delivery::{received, until},
    helpers::{TestApp, settings_read, spawn_app, spawn_app_with},
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

#[tokio::test]
async fn a_released_campaign_that_needs_the_teams_approval_waits_for_it() {
    let app = spawn_app().await;
    over_two(&app).await;
    let operator =
        account_commands::operator(&app.db(), OperatorAction::Create { name: "Night".into() }).await.unwrap();
    account_commands::account(&app.db(), AccountAction::Moderate { name: "alice".into(), state: true }).await.unwrap();
    settings_read().await;
    let sender = token_with(&app, "alice", Role::Sender).await;
    let (status, held) = app.json_as(&sender, Method::POST, "/send", Some(sms_to(&THREE))).await;
    assert_eq!((status, held["status"].as_i64()), (202, Some(-8)), "{held}");
    let ticket = held["ticket"].as_str().expect("a ticket").to_owned();
    let author = token_with(&app, "alice", Role::Author).await;
    let (_, authored) = app.json_as(&author, Method::POST, "/send", Some(sms_to(&["33612340009"]))).await;
    let authored = authored["ticket"].as_str().expect("a ticket").to_owned();

    for held in [&ticket, &authored] {
        let (status, body) =
            app.json_as(&operator, Method::POST, &format!("/operator/campaign/{held}/release"), None).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(status_of(&app, held).await, "awaiting approval", "the release leaves the team's approval");
    }
    let (_, waiting) = app.json(Method::GET, "/campaigns?approval=awaiting", None).await;
    assert_eq!(waiting["campaigns"].as_array().map(Vec::len), Some(2), "{waiting}");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for number in THREE.iter().chain(["33612340009"].iter()) {
        assert!(received(&app, number).await.is_empty(), "nothing reached {number} before the team approved");
    }

    let approve = format!("/campaign/{ticket}/approve");
    let (status, own) = app.json_as(&sender, Method::POST, &approve, None).await;
    assert_eq!((status, own["status"].as_i64()), (403, Some(-12)), "its sender does not approve it: {own}");
    assert_eq!(app.json(Method::POST, &approve, None).await.0, 200);
    for number in THREE {
        until("the approved campaign on the wire", || async {
            (!received(&app, number).await.is_empty()).then_some(())
        })
        .await;
    }
    assert!(received(&app, "33612340009").await.is_empty(), "the author's campaign still waits");
}

#[tokio::test]
async fn a_released_campaign_waits_for_the_team_from_its_release_not_from_its_creation() {
    let app = spawn_app_with(|config| config.approval_wait = Duration::from_secs(4).into()).await;
    over_two(&app).await;
    let operator =
        account_commands::operator(&app.db(), OperatorAction::Create { name: "Night".into() }).await.unwrap();
    account_commands::account(&app.db(), AccountAction::Moderate { name: "alice".into(), state: true }).await.unwrap();
    settings_read().await;
    let (_, held) = app.json(Method::POST, "/send", Some(sms_to(&THREE))).await;
    let ticket = held["ticket"].as_str().expect("a ticket").to_owned();
    tokio::time::sleep(Duration::from_millis(4500)).await;
    assert_eq!(status_of(&app, &ticket).await, "awaiting moderation", "a hold has no time limit");
    let release = format!("/operator/campaign/{ticket}/release");
    assert_eq!(app.json_as(&operator, Method::POST, &release, None).await.0, 200);
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(status_of(&app, &ticket).await, "awaiting approval", "the team has its whole wait");
    until("the campaign rejected once the team's wait is over", || async {
        (status_of(&app, &ticket).await == "Cancelled").then_some(())
    })
    .await;
}
