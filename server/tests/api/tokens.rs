//! `POST /token`, `GET /token`, `GET /token/:id`, `DELETE /token/:id`: tokens an
//! account makes itself, with a name, an expiry and the addresses they answer to, the same
//! objects as `texto token create` makes.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use texto_server::{HttpErrors, TokenAction, account_commands};

use crate::helpers::{TestApp, account, spawn_app, spawn_app_with};

/// Creates a token with `body` (the `token` object) as Alice; its token and id.
async fn create(app: &TestApp, body: Value) -> (String, i64) {
    let (status, created) = app.json(Method::POST, "/token", Some(json!({ "token": body }))).await;
    assert_eq!(status, 200, "{created}");
    (created["token"].as_str().expect("the token").to_owned(), created["token_id"].as_i64().expect("its id"))
}

async fn credits_status(app: &TestApp, token: &str) -> (u16, Value) {
    app.json_as(token, Method::GET, "/credits", None).await
}

#[tokio::test]
async fn a_created_token_works_is_listed_without_its_secret_and_is_revoked_by_id() {
    let app = spawn_app().await;
    let (status, created) = app
        .json(
            Method::POST,
            "/token",
            Some(json!({"token": {"name": "Boutique", "ttl": 86400, "allowed_ips": ["127.0.0.1", "2001:db8::/32"]}})),
        )
        .await;
    assert_eq!(status, 200, "{created}");
    let token = created["token"].as_str().expect("the token shown once");
    let id = created["token_id"].as_i64().expect("an id");
    assert_eq!(created["allowed_ips"], json!(["127.0.0.1", "2001:db8::/32"]));
    assert!(created["expired_at"].as_str().is_some_and(|at| at.len() == 19), "{created}");
    assert_eq!(credits_status(&app, token).await.0, 200, "the new token works");

    let (_, listed) = app.json(Method::GET, "/token", None).await;
    let item = listed["tokens"].as_array().expect("tokens").iter().find(|t| t["api_token_id"] == id).cloned();
    let item = item.expect("the new token is listed");
    assert_eq!(
        (item["name"].as_str(), item["ttl"].as_i64(), item["is_active"].as_i64()),
        (Some("Boutique"), Some(86400), Some(1))
    );
    assert_eq!(item["allowed_ips"], created["allowed_ips"]);
    assert_eq!(item["expired_at"], created["expired_at"]);
    assert!(item["api_token"].as_str().is_some_and(|hint| token.starts_with(hint.trim_end_matches('…'))), "{item}");
    assert!(!listed.to_string().contains(token), "the token itself is never shown again");
    let (status, one) = app.json(Method::GET, &format!("/token/{id}"), None).await;
    assert_eq!((status, &one["token"]["name"]), (200, &json!("Boutique")), "{one}");
    // A token that never expires says so with nulls, which the SDKs' token classes read.
    let (_, lasting) = app.json(Method::POST, "/token", Some(json!({"token": {"name": "Lasting"}}))).await;
    let lasting = lasting["token_id"].as_i64().expect("an id");
    let (_, one) = app.json(Method::GET, &format!("/token/{lasting}"), None).await;
    let fields = one["token"].as_object().expect("a token");
    assert!(fields["expired_at"].is_null() && fields["ttl"].is_null(), "sent as null: {one}");
    let (_, xml) = app.xml(Method::GET, &format!("/token/{lasting}"), None).await;
    assert!(xml.contains("<expired_at>null</expired_at>") && xml.contains("<ttl>null</ttl>"), "{xml}");

    let other = account(&app.db(), "other", 0.0).await;
    for method in [Method::GET, Method::DELETE] {
        let (status, body) = app.json_as(&other, method.clone(), &format!("/token/{id}"), None).await;
        assert_eq!((status, body["status"].as_i64()), (404, Some(-5)), "{method} of another's token: {body}");
    }
    let (status, deleted) = app.json(Method::DELETE, &format!("/token/{id}"), None).await;
    assert_eq!((status, deleted["deleted_token"].as_i64()), (200, Some(id)), "{deleted}");
    let (status, body) = credits_status(&app, token).await;
    assert_eq!((status, body["status"].as_i64()), (401, Some(-1)), "revoked at once: {body}");
    assert_eq!(app.json(Method::GET, &format!("/token/{id}"), None).await.0, 404, "no longer listed");
    assert_eq!(app.json(Method::DELETE, &format!("/token/{id}"), None).await.0, 404, "already revoked");
}

#[tokio::test]
async fn a_token_request_names_each_field_that_is_wrong() {
    let app = spawn_app().await;
    let body = json!({"token": {"ttl": -3, "allowed_ips": ["10.0.0.0/8", "localhost"]}});
    let (status, refused) = app.json(Method::POST, "/token", Some(body)).await;
    assert_eq!((status, refused["status"].as_i64()), (422, Some(-7)), "{refused}");
    let text = refused.to_string();
    for field in ["token.name", "token.ttl", "token.allowed_ips[1]"] {
        assert!(text.contains(field), "{field} named: {text}");
    }
    let (_, listed) = app.json(Method::GET, "/token", None).await;
    assert_eq!(listed["tokens"].as_array().map(Vec::len), Some(1), "only the test's own token: {listed}");
}

#[tokio::test]
async fn an_expired_token_is_refused_with_minus_one() {
    let app = spawn_app().await;
    // Five seconds leave a loaded CI machine time for the first call; the sleep is counted from
    // before the creation, so the token has expired however long that took.
    let asked = tokio::time::Instant::now();
    let (token, id) = create(&app, json!({"name": "Short", "ttl": 5})).await;
    assert_eq!(credits_status(&app, &token).await.0, 200, "accepted before it expires");
    tokio::time::sleep_until(asked + Duration::from_millis(6100)).await;
    let (status, body) = credits_status(&app, &token).await;
    assert_eq!((status, body["status"].as_i64()), (401, Some(-1)), "{body}");
    assert!(body.to_string().contains("expired"), "says why: {body}");
    let (_, one) = app.json(Method::GET, &format!("/token/{id}"), None).await;
    assert_eq!(one["token"]["is_active"].as_i64(), Some(0), "listed as inactive: {one}");
}

#[tokio::test]
async fn a_token_answers_only_to_its_addresses_and_believes_only_trusted_proxies() {
    let app = spawn_app().await;
    let (elsewhere, _) = create(&app, json!({"name": "Office", "allowed_ips": ["10.0.0.0/8"]})).await;
    let (status, body) = credits_status(&app, &elsewhere).await;
    assert_eq!((status, body["status"].as_i64()), (401, Some(-1)), "127.0.0.1 is not in 10.0.0.0/8: {body}");
    let forwarded = app.request(&elsewhere, Method::GET, "/credits").header("X-Forwarded-For", "10.1.2.3");
    assert_eq!(forwarded.send().await.expect("sent").status(), 401, "an untrusted peer's X-Forwarded-For is ignored");
    let (here, _) = create(&app, json!({"name": "Here", "allowed_ips": ["127.0.0.0/8"]})).await;
    assert_eq!(credits_status(&app, &here).await.0, 200);

    let proxied = spawn_app_with(|config| config.trusted_proxies = vec!["127.0.0.1".parse().expect("a range")]).await;
    let (office, _) = create(&proxied, json!({"name": "Office", "allowed_ips": ["10.0.0.0/8"]})).await;
    let through = |client: &str| {
        proxied.request(&office, Method::GET, "/credits").header("X-Forwarded-For", format!("{client}, 127.0.0.1"))
    };
    assert_eq!(through("10.1.2.3").send().await.expect("sent").status(), 200, "the client the proxy saw");
    assert_eq!(through("192.0.2.1").send().await.expect("sent").status(), 401);
    assert_eq!(credits_status(&proxied, &office).await.0, 401, "the proxy itself is not in the range");
}

#[tokio::test]
async fn every_token_shows_when_it_was_last_used() {
    let app = spawn_app().await;
    let (token, id) = create(&app, json!({"name": "Shop"})).await;
    let (_, fresh) = app.json(Method::GET, &format!("/token/{id}"), None).await;
    assert!(fresh["token"].get("last_used_at").is_none(), "never used yet: {fresh}");
    assert_eq!(credits_status(&app, &token).await.0, 200);
    let mut used = Value::Null;
    for _ in 0..50 {
        let (_, one) = app.json(Method::GET, &format!("/token/{id}"), None).await;
        used = one["token"]["last_used_at"].clone();
        if used.is_string() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(used.as_str().is_some_and(|at| at.len() == 19), "last use recorded: {used}");
}

#[tokio::test]
async fn the_command_line_makes_the_same_tokens_as_the_api() {
    let app = spawn_app().await;
    let action = TokenAction::Create {
        account: "alice".into(),
        http_errors: HttpErrors::Off,
        name: "Back-office".into(),
        ttl: Some(3600),
        allow_ip: vec!["127.0.0.1".parse().expect("a range"), "::1".parse().expect("a range")],
        role: texto_core::Role::Owner,
    };
    let token = account_commands::token(app.db(), action).await.expect("a token");
    assert_eq!(credits_status(&app, &token).await.0, 200);
    let (_, listed) = app.json(Method::GET, "/token", None).await;
    let item = &listed["tokens"][0];
    assert_eq!((item["name"].as_str(), item["ttl"].as_i64()), (Some("Back-office"), Some(3600)), "{listed}");
    assert_eq!((item["allowed_ips"].clone(), item["http_errors"].as_i64()), (json!(["127.0.0.1", "::1"]), Some(0)));
    let (_, created) =
        app.json(Method::POST, "/token", Some(json!({"token": {"name": "SDK", "http_errors": "0"}}))).await;
    let sdk = created["token"].as_str().expect("a token");
    let (status, body) = app.json_as(sdk, Method::GET, "/campaign/999", None).await;
    assert_eq!((status, body["status"].as_i64()), (200, Some(-5)), "http_errors 0 from the API too: {body}");
}

#[tokio::test]
async fn tokens_are_managed_in_xml_too() {
    let app = spawn_app().await;
    let body =
        "<token><name>Caisse</name><allowed_ips>127.0.0.1</allowed_ips><allowed_ips>10.0.0.0/8</allowed_ips></token>";
    let (status, xml) = app.xml(Method::POST, "/token", Some(body)).await;
    assert_eq!(status, 200, "{xml}");
    assert!(xml.contains("<allowed_ips>127.0.0.1</allowed_ips><allowed_ips>10.0.0.0/8</allowed_ips>"), "{xml}");
    let (status, xml) = app.xml(Method::GET, "/token", None).await;
    assert_eq!(status, 200, "{xml}");
    assert!(xml.contains("<name>Caisse</name>") && xml.contains("<is_active>1</is_active>"), "{xml}");
}
