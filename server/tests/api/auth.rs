use reqwest::Method;
use serde_json::json;

use crate::helpers::{account, spawn_app, spawn_app_with};

/// Every endpoint of the interface, with a body where it takes one.
pub fn endpoints() -> Vec<(Method, &'static str)> {
    vec![
        (Method::POST, "/send"),
        (Method::GET, "/send"),
        (Method::POST, "/send/lists"),
        (Method::POST, "/send/simulate"),
        (Method::POST, "/send/lists/simulate"),
        (Method::DELETE, "/send/1"),
        (Method::GET, "/campaigns"),
        (Method::GET, "/campaign/1"),
        (Method::GET, "/credits"),
        (Method::POST, "/webhook"),
        (Method::GET, "/webhook"),
        (Method::PUT, "/webhook/1"),
        (Method::PUT, "/webhook/1/status"),
        (Method::DELETE, "/webhook/1"),
        (Method::GET, "/webhook/1/log"),
        (Method::GET, "/notification/balance"),
        (Method::PUT, "/notification/balance"),
        (Method::GET, "/npai"),
        (Method::POST, "/npai"),
        (Method::DELETE, "/npai/33612345678"),
        (Method::GET, "/blacklist"),
        (Method::POST, "/blacklist"),
        (Method::DELETE, "/blacklist/33612345678"),
        (Method::POST, "/list"),
        (Method::GET, "/lists"),
        (Method::GET, "/list/1"),
        (Method::PUT, "/list/1"),
        (Method::DELETE, "/list/1"),
        (Method::DELETE, "/list/1/contact/1"),
        (Method::DELETE, "/list/contact/1"),
        (Method::DELETE, "/blacklist/contact/1"),
        (Method::GET, "/account"),
        (Method::POST, "/lookup"),
        (Method::POST, "/token"),
        (Method::GET, "/token"),
        (Method::GET, "/token/1"),
        (Method::DELETE, "/token/1"),
        (Method::GET, "/messages"),
        (Method::GET, "/messages/mo"),
        (Method::GET, "/campaign/1/mo"),
        (Method::GET, "/campaign/1/blacklist"),
        (Method::GET, "/campaign/1/npai"),
        (Method::PUT, "/campaign/1/npai"),
        (Method::PUT, "/list/contact/1"),
        (Method::PUT, "/list/deduplicate/1"),
        (Method::PUT, "/list/1/npai/clear"),
        (Method::GET, "/retention"),
        (Method::PUT, "/retention"),
        (Method::GET, "/metrics/consumption"),
        (Method::GET, "/account/invoice"),
        (Method::GET, "/sub-accounts"),
        (Method::POST, "/account"),
        (Method::POST, "/token/account/1"),
        (Method::GET, "/me"),
        (Method::PUT, "/me"),
        (Method::DELETE, "/session"),
        (Method::DELETE, "/sessions"),
        (Method::GET, "/users"),
        (Method::POST, "/users"),
        (Method::PUT, "/user/1"),
        (Method::DELETE, "/user/1"),
        (Method::GET, "/invitations"),
        (Method::DELETE, "/invitations/a@example.com"),
        (Method::GET, "/audit"),
        (Method::GET, "/audit.csv"),
        (Method::POST, "/campaign/1/approve"),
        (Method::POST, "/campaign/1/reject"),
        (Method::POST, "/me/two-factor"),
        (Method::PUT, "/me/two-factor"),
        (Method::DELETE, "/me/two-factor"),
        (Method::GET, "/conversations"),
        (Method::GET, "/conversation/33612345678"),
        (Method::POST, "/conversation/33612345678/reply"),
        (Method::PUT, "/conversation/33612345678/read"),
        (Method::GET, "/keywords"),
        (Method::POST, "/keyword"),
        (Method::PUT, "/keyword/1"),
        (Method::DELETE, "/keyword/1"),
        (Method::GET, "/contacts/numbers"),
        (Method::GET, "/prices"),
        (Method::GET, "/operator/accounts"),
        (Method::GET, "/operator/connectors"),
        (Method::GET, "/operator/routes"),
        (Method::GET, "/operator/traffic"),
        (Method::GET, "/operator/moderation"),
        (Method::POST, "/operator/campaign/1/release"),
        (Method::POST, "/operator/campaign/1/refuse"),
        (Method::POST, "/operator/moderation/rules"),
        (Method::DELETE, "/operator/moderation/rule/1"),
        (Method::PUT, "/operator/moderation/new-accounts"),
        (Method::GET, "/operator/audit"),
        (Method::GET, "/operator/plans"),
        (Method::PUT, "/operator/plan/gold"),
        (Method::POST, "/operator/accounts"),
        (Method::PUT, "/operator/account/1"),
        (Method::POST, "/operator/account/1/credits"),
        (Method::GET, "/operator/account/1/ledger"),
        (Method::POST, "/operator/account/1/suspend"),
        (Method::POST, "/operator/account/1/restore"),
        (Method::PUT, "/operator/connector/a"),
        (Method::DELETE, "/operator/connector/a"),
        (Method::POST, "/operator/connector/a/enable"),
        (Method::POST, "/operator/connector/a/disable"),
        (Method::POST, "/operator/routes"),
        (Method::DELETE, "/operator/route/1"),
        (Method::DELETE, "/operator/session"),
        (Method::GET, "/segments"),
        (Method::POST, "/segment"),
        (Method::POST, "/segment/count"),
        (Method::GET, "/segment/1"),
        (Method::PUT, "/segment/1"),
        (Method::DELETE, "/segment/1"),
        (Method::GET, "/settings"),
        (Method::GET, "/metrics/daily"),
        (Method::GET, "/contacts"),
        (Method::GET, "/contact/33612345678"),
        (Method::PUT, "/contact/33612345678"),
        (Method::DELETE, "/contact/33612345678"),
        (Method::PUT, "/settings"),
    ]
}

#[tokio::test]
async fn every_endpoint_answers_401_without_a_valid_token() {
    let app = spawn_app().await;
    for (method, path) in endpoints() {
        for token in [None, Some("wrong"), Some("")] {
            let mut request = app.anonymous(method.clone(), path).header("Accept", "application/json");
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            let response = request.json(&json!({})).send().await.unwrap();
            assert_eq!(response.status(), 401, "{method} {path} with {token:?}");
            let body: serde_json::Value = response.json().await.unwrap();
            assert_eq!(body["status"], -1, "{method} {path}");
        }
    }
}

#[tokio::test]
async fn a_revoked_token_is_refused() {
    let app = spawn_app().await;
    let token = account(&app.db(), "bob", 10.0).await;
    assert_eq!(app.json_as(&token, Method::GET, "/credits", None).await.0, 200);
    texto_server::operator::account_commands::token(
        &app.db(),
        texto_server::TokenAction::Revoke { token: token.clone() },
    )
    .await
    .unwrap();
    assert_eq!(app.json_as(&token, Method::GET, "/credits", None).await.0, 401);
}

#[tokio::test]
async fn a_token_over_its_rate_limit_gets_429() {
    let app = spawn_app_with(|config| config.rate_limit = 2).await;
    let mut statuses = Vec::new();
    for _ in 0..10 {
        statuses.push(app.json(Method::GET, "/credits", None).await);
    }
    let limited = statuses.iter().find(|(status, _)| *status == 429).expect("some request is limited");
    assert_eq!(limited.1["status"], -11);
}

#[tokio::test]
async fn one_account_never_sees_another_accounts_campaigns() {
    let app = spawn_app().await;
    let (_, sent) = app.json(Method::POST, "/send", Some(json!({"sms": {"message": {"text": "x", "pushtype": "alert"}, "recipients": {"gsm": [{"value": "33612345678"}]}}}))).await;
    let ticket = sent["ticket"].as_str().expect("a ticket").to_owned();
    let mallory = account(&app.db(), "mallory", 10.0).await;
    let (status, _) = app.json_as(&mallory, Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert_eq!(status, 404);
    let (status, _) = app.json_as(&mallory, Method::DELETE, &format!("/send/{ticket}"), None).await;
    assert_eq!(status, 404);
    let (_, history) = app.json_as(&mallory, Method::GET, "/campaigns", None).await;
    assert_eq!(history["totalRecords"], 0);
    let (_, own) = app.json(Method::GET, "/campaigns", None).await;
    assert_eq!(own["totalRecords"], 1);
}

#[tokio::test]
async fn unknown_paths_get_the_envelope() {
    let app = spawn_app().await;
    let (status, body) = app.json(Method::GET, "/nope", None).await;
    assert_eq!((status, body["status"].as_i64()), (404, Some(-5)));
}

#[tokio::test]
async fn framework_rejections_get_the_envelope_too() {
    let app = spawn_app().await;
    let (status, body) = app.json(Method::GET, "/campaigns?start=x", None).await;
    assert_eq!((status, body["status"].as_i64()), (400, Some(-7)), "{body}");
    assert!(body["details"].as_str().unwrap_or_default().contains("start"), "{body}");
    let (status, body) = app.json(Method::PATCH, "/credits", None).await;
    assert_eq!((status, body["status"].as_i64()), (405, Some(-7)), "{body}");
}
