//! A webhook's signing secret is shown only to those who may change webhooks; the others see
//! that one is set, not what it is.

use reqwest::Method;
use serde_json::json;
use texto_core::Role;

use crate::{helpers::spawn_app, team::token_with};

/// What `GET /webhook` shows in place of a secret to a role that may not change webhooks.
const HIDDEN: &str = "********";

#[tokio::test]
async fn only_roles_that_change_webhooks_see_their_signing_secret() {
    let app = spawn_app().await;
    for hook in [
        json!({"webhook": {"type": "DLR", "url": "https://example.com/signed", "signature": "s3cret-value"}}),
        json!({"webhook": {"type": "MO", "url": "https://example.com/unsigned"}}),
    ] {
        assert_eq!(app.json(Method::POST, "/webhook", Some(hook)).await.0, 200);
    }
    for (role, sees) in [
        (Role::Owner, "s3cret-value"),
        (Role::Admin, "s3cret-value"),
        (Role::Sender, "s3cret-value"),
        (Role::Author, HIDDEN),
        (Role::Analyst, HIDDEN),
    ] {
        let token = token_with(&app, "alice", role).await;
        let (status, listed) = app.json_as(&token, Method::GET, "/webhook", None).await;
        assert_eq!(status, 200, "{role}: {listed}");
        let hooks = listed["webhooks"].as_array().expect("webhooks");
        let signed = hooks.iter().find(|h| h["type"] == "DLR").expect("the signed webhook");
        let unsigned = hooks.iter().find(|h| h["type"] == "MO").expect("the unsigned webhook");
        assert_eq!(signed["signature"], sees, "{role}: {listed}");
        assert!(unsigned["signature"].is_null(), "{role}: none is still null: {listed}");
        assert_eq!(listed["webhook"], listed["webhooks"], "{role}: both keys alike");
        if sees == HIDDEN {
            assert!(!listed.to_string().contains("s3cret"), "{role}: {listed}");
            let answer = app
                .anonymous(Method::GET, "/webhook")
                .bearer_auth(&token)
                .header("Accept", "application/xml")
                .send()
                .await
                .expect("sent");
            let xml = answer.text().await.expect("text");
            assert!(xml.contains(&format!("<signature>{HIDDEN}</signature>")) && !xml.contains("s3cret"), "{xml}");
        }
    }
}
