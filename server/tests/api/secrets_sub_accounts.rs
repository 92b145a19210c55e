//! A parent's person acting in a sub-account keeps to the sub-account's rules: without
//! two-factor sign-in, where the sub-account requires it, they may only set it up; and while the
//! parent is suspended, nothing.

use std::time::{Duration, Instant};

use reqwest::{Method, header};
use serde_json::{Value, json};
use texto_core::Role;
use texto_server::{OperatorAction, account_commands};

use crate::{
    helpers::{TestApp, spawn_app},
    team::{PASSWORD, Session, as_session, current_code, person, sign_in},
};

/// A request of `session` acting in the sub-account `account`.
async fn in_account(app: &TestApp, session: &Session, account: &str, method: Method, path: &str) -> (u16, Value) {
    let response = app
        .anonymous(method, path)
        .header("Accept", "application/json")
        .header(header::COOKIE, &session.cookie)
        .header("X-CSRF-Token", &session.csrf)
        .header("X-Texto-Account", account)
        .send()
        .await
        .expect("sent");
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// Creates a sub-account of Alice's; answers its id.
async fn sub_account(app: &TestApp) -> String {
    let body = json!({"account": {"email": "owner@shop.example", "password": PASSWORD, "firstname": "Jeanne",
        "lastname": "Martin", "company": "Shop", "isChild": 1}});
    let (status, created) = app.json(Method::POST, "/account", Some(body)).await;
    assert_eq!((status, created["status"].as_i64()), (200, Some(1)), "{created}");
    created["id"].as_i64().expect("an id").to_string()
}

#[tokio::test]
async fn a_sub_account_that_requires_two_factor_holds_the_parents_people_without_it() {
    let app = spawn_app().await;
    let shop = sub_account(&app).await;
    let rules = json!({"team_rules": {"require_two_factor": 1}});
    let (status, body) = app
        .request(&app.token, Method::PUT, "/team-rules")
        .header("X-Texto-Account", &shop)
        .json(&rules)
        .send()
        .await
        .map(|r| (r.status().as_u16(), r))
        .expect("sent");
    assert_eq!(status, 200, "{:?}", body.text().await);
    person(&app, "alice", "sam@agency.example", Role::Admin).await;
    let sam = sign_in(&app, "sam@agency.example", PASSWORD).await.expect("signed in without a code");
    let (status, _) = as_session(&app, &sam, Method::GET, "/campaigns", None, false).await;
    assert_eq!(status, 200, "the parent does not require two-factor sign-in");

    let (status, held) = in_account(&app, &sam, &shop, Method::GET, "/campaigns").await;
    assert_eq!((status, held["status"].as_i64()), (403, Some(-12)), "{held}");
    assert!(held.to_string().contains("two-factor"), "says why: {held}");
    let (status, me) = in_account(&app, &sam, &shop, Method::GET, "/me").await;
    assert_eq!((status, me["two_factor_required"].as_i64()), (200, Some(1)), "{me}");
    let (status, listed) = app
        .request(&app.token, Method::GET, "/campaigns")
        .header("X-Texto-Account", &shop)
        .send()
        .await
        .map(|r| (r.status().as_u16(), r))
        .expect("sent");
    assert_eq!(status, 200, "a token signs in with no second factor: {:?}", listed.text().await);

    // Once Sam has set it up, the sub-account lets them in.
    let (status, setup) = as_session(&app, &sam, Method::POST, "/me/two-factor", None, true).await;
    assert_eq!(status, 200, "{setup}");
    let code = current_code(setup["secret"].as_str().expect("a secret"));
    let (status, on) = as_session(&app, &sam, Method::PUT, "/me/two-factor", Some(json!({"code": code})), true).await;
    assert_eq!(status, 200, "{on}");
    let (status, body) = in_account(&app, &sam, &shop, Method::GET, "/campaigns").await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn a_suspended_parents_people_cannot_act_in_its_sub_accounts() {
    let app = spawn_app().await;
    let shop = sub_account(&app).await;
    person(&app, "alice", "sam@agency.example", Role::Owner).await;
    let sam = sign_in(&app, "sam@agency.example", PASSWORD).await.expect("signed in");
    assert_eq!(in_account(&app, &sam, &shop, Method::GET, "/credits").await.0, 200);
    let operator = account_commands::operator(&app.db(), OperatorAction::Create { name: "Night shift".into() })
        .await
        .expect("an operator");
    let (_, accounts) = app.json_as(&operator, Method::GET, "/operator/accounts", None).await;
    let alice =
        accounts["accounts"].as_array().expect("accounts").iter().find(|a| a["name"] == "alice").expect("alice")["id"]
            .clone();
    let (status, _) = app.json_as(&operator, Method::POST, &format!("/operator/account/{alice}/suspend"), None).await;
    assert_eq!(status, 200);
    let start = Instant::now();
    let refused = loop {
        let (status, body) = in_account(&app, &sam, &shop, Method::GET, "/credits").await;
        if status == 403 {
            break body;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "refused within 30 s: {status} {body}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(refused.to_string().contains("suspended"), "{refused}");
}
