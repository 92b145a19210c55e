//! The team's rules: campaigns over a number of recipients wait for someone other
//! than their sender to approve them, and an owner can require two-factor sign-in, after which
//! a person without it can do nothing but set it up.

use reqwest::Method;
use serde_json::{Value, json};
use texto_core::Role;

use crate::{
    helpers::spawn_app,
    team::{PASSWORD, as_session, current_code, person, sign_in, token_with},
};

fn sms_to(count: usize) -> Value {
    let gsm: Vec<Value> = (0..count).map(|i| json!({"value": format!("336123456{i:02}")})).collect();
    json!({"sms": {"message": {"text": "Soldes", "pushtype": "alert"}, "recipients": {"gsm": gsm}}})
}

#[tokio::test]
async fn campaigns_over_the_threshold_wait_for_someone_else_to_approve_them() {
    let app = spawn_app().await;
    let (status, rules) = app.json(Method::PUT, "/team-rules", Some(json!({"team_rules": {"approval_over": 2}}))).await;
    assert_eq!((status, rules["team_rules"]["approval_over"].as_i64()), (200, Some(2)), "{rules}");
    let sender = token_with(&app, "alice", Role::Sender).await;
    let (_, small) = app.json_as(&sender, Method::POST, "/send", Some(sms_to(2))).await;
    let (_, large) = app.json_as(&sender, Method::POST, "/send", Some(sms_to(3))).await;
    let (small, large) = (small["ticket"].as_str().expect("a ticket"), large["ticket"].as_str().expect("a ticket"));
    let (_, detail) = app.json(Method::GET, &format!("/campaign/{large}"), None).await;
    assert_eq!(detail["campaign"][0]["status"], "awaiting approval", "{detail}");
    let (_, detail) = app.json(Method::GET, &format!("/campaign/{small}"), None).await;
    assert_ne!(detail["campaign"][0]["status"], "awaiting approval", "{detail}");

    let (status, waiting) = app.json(Method::GET, "/campaigns?approval=awaiting", None).await;
    assert_eq!(status, 200, "{waiting}");
    let tickets: Vec<String> =
        waiting["campaigns"].as_array().expect("campaigns").iter().map(|c| c["id"].to_string()).collect();
    assert_eq!(tickets.len(), 1, "{waiting}");
    assert!(tickets[0].contains(large), "{tickets:?}");
    let (status, _) = app.json(Method::GET, "/campaigns?approval=maybe", None).await;
    assert_eq!(status, 422);

    let (status, own) =
        app.json_as(&sender, Method::POST, &format!("/campaign/{large}/approve"), Some(json!({}))).await;
    assert_eq!((status, own["status"].as_i64()), (403, Some(-12)), "its sender does not approve it: {own}");
    let (status, approved) = app.json(Method::POST, &format!("/campaign/{large}/approve"), Some(json!({}))).await;
    assert_eq!(status, 200, "someone else does: {approved}");

    let (_, off) = app.json(Method::PUT, "/team-rules", Some(json!({"team_rules": {"approval_over": 0}}))).await;
    assert_eq!(off["team_rules"]["approval_over"].as_i64(), Some(0), "{off}");
    let (_, sent) = app.json_as(&sender, Method::POST, "/send", Some(sms_to(5))).await;
    let (_, detail) =
        app.json(Method::GET, &format!("/campaign/{}", sent["ticket"].as_str().expect("a ticket")), None).await;
    assert_ne!(detail["campaign"][0]["status"], "awaiting approval", "{detail}");
}

#[tokio::test]
async fn an_owner_requires_two_factor_sign_in_and_people_without_it_can_only_set_it_up() {
    let app = spawn_app().await;
    let admin = token_with(&app, "alice", Role::Admin).await;
    let (status, refused) =
        app.json_as(&admin, Method::PUT, "/team-rules", Some(json!({"team_rules": {"require_two_factor": 1}}))).await;
    assert_eq!(status, 403, "only an owner: {refused}");
    let (status, _) =
        app.json(Method::PUT, "/team-rules", Some(json!({"team_rules": {"require_two_factor": 1}}))).await;
    assert_eq!(status, 200);

    person(&app, "alice", "sam@alice.example", Role::Sender).await;
    let session = sign_in(&app, "sam@alice.example", PASSWORD).await.expect("signed in with the password");
    let (status, me) = as_session(&app, &session, Method::GET, "/me", None, false).await;
    assert_eq!((status, me["two_factor_required"].as_i64()), (200, Some(1)), "{me}");
    let (status, blocked) = as_session(&app, &session, Method::GET, "/campaigns", None, false).await;
    assert_eq!((status, blocked["status"].as_i64()), (403, Some(-12)), "{blocked}");
    assert!(blocked.to_string().contains("two-factor"), "{blocked}");

    let (status, setup) = as_session(&app, &session, Method::POST, "/me/two-factor", None, true).await;
    assert_eq!(status, 200, "{setup}");
    let code = current_code(setup["secret"].as_str().expect("a secret"));
    let (status, on) =
        as_session(&app, &session, Method::PUT, "/me/two-factor", Some(json!({"code": code})), true).await;
    assert_eq!(status, 200, "{on}");
    let (status, _) = as_session(&app, &session, Method::GET, "/campaigns", None, false).await;
    assert_eq!(status, 200, "set up: the session may work");
    let (_, me) = as_session(&app, &session, Method::GET, "/me", None, false).await;
    assert_eq!(me["two_factor_required"].as_i64(), Some(0), "{me}");
    let (status, _) = app.json(Method::GET, "/campaigns", None).await;
    assert_eq!(status, 200, "API tokens are not people: unaffected");
}
