//! The built-in SMSC's face under `/simulator/` keeps accounts apart: an account sees only the
//! messages it sent and simulates a reply only from a number whose replies it gets; outages
//! and the simulator's status are for operators, who see and do everything.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use texto_server::{HttpErrors, OperatorAction, TokenAction, account_commands};

use crate::delivery::{quick_app, send, settled, until};
use crate::helpers::{TestApp, account};

/// Sends `text` to `number` with `token`, and waits until its receipt is stored.
async fn send_as(app: &TestApp, token: &str, text: &str, number: &str) {
    let body =
        json!({"sms": {"message": {"text": text, "pushtype": "alert"}, "recipients": {"gsm": [{"value": number}]}}});
    let (status, sent) = app.json_as(token, Method::POST, "/send", Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    let ticket = sent["ticket"].as_str().expect("a ticket");
    until("the receipt", || async {
        let (_, body) = app.json_as(token, Method::GET, &format!("/campaign/{ticket}"), None).await;
        (body["campaign"][0]["pending"] == 0 && body["campaign"][0]["status"] == "Sent").then_some(())
    })
    .await;
}

/// The texts of `GET /simulator/messages{query}` as `token` sees them.
async fn texts(app: &TestApp, token: &str, query: &str) -> Vec<String> {
    let (status, body) = app.json_as(token, Method::GET, &format!("/simulator/messages{query}"), None).await;
    assert_eq!(status, 200, "{body}");
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    messages.iter().map(|m| m["text"].as_str().unwrap_or_default().to_owned()).collect()
}

/// `POST /simulator/mo` as `token`.
async fn mo_as(app: &TestApp, token: &str, from: &str, text: &str) -> (u16, Value) {
    app.json_as(token, Method::POST, "/simulator/mo", Some(json!({"from": from, "text": text}))).await
}

/// A token of Alice's account with `role`.
async fn alice_token(app: &TestApp, role: texto_core::Role) -> String {
    let token = TokenAction::Create {
        account: "alice".into(),
        http_errors: HttpErrors::On,
        name: format!("{role:?}"),
        ttl: None,
        allow_ip: Vec::new(),
        role,
    };
    account_commands::token(&app.db(), token).await.expect("a token")
}

#[tokio::test]
async fn an_account_sees_and_answers_only_its_own_traffic() {
    let app = quick_app().await;
    let bob = account(&app.db(), "bob", 1000.0).await;
    let ticket = send(&app, "Votre code : 482913", &["33612345001"], json!({})).await;
    settled(&app, &ticket).await;
    send_as(&app, &bob, "Bonjour de Bob", "33612345002").await;

    // Each account sees what it sent, and nothing of the other's.
    assert_eq!(texts(&app, &app.token, "").await, ["Votre code : 482913"]);
    assert_eq!(texts(&app, &bob, "").await, ["Bonjour de Bob"]);
    assert!(texts(&app, &bob, "?destination=33612345001").await.is_empty());
    let analyst = alice_token(&app, texto_core::Role::Analyst).await;
    assert_eq!(texts(&app, &analyst, "?destination=33612345001").await, ["Votre code : 482913"]);

    // Bob cannot answer in the name of Alice's recipient, nor of a number nobody wrote to.
    for from in ["33612345001", "+33612345001", "33699999999", "not a number"] {
        let (status, body) = mo_as(&app, &bob, from, "STOP").await;
        assert_eq!((status, body["status"].as_i64()), (403, Some(-12)), "{from}: {body}");
    }
    // Nor may Alice's analyst, whose role does not send.
    let (status, body) = mo_as(&app, &analyst, "33612345001", "STOP").await;
    assert_eq!((status, body["status"].as_i64()), (403, Some(-12)), "{body}");

    // Alice's recipient answers through Alice's token; Bob's through Bob's.
    let (status, body) = mo_as(&app, &app.token, "33612345001", "Merci").await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = mo_as(&app, &bob, "33612345002", "STOP").await;
    assert_eq!(status, 200, "{body}");
    until("both replies", || async { (app.sql("SELECT id FROM replies").await.len() == 2).then_some(()) }).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let replies = app
        .sql("SELECT a.name, r.number, r.text FROM replies r JOIN accounts a ON a.id = r.account_id ORDER BY r.id")
        .await;
    let replies: Vec<Vec<String>> = replies.into_iter().map(|row| row.into_iter().flatten().collect()).collect();
    assert_eq!(replies, [["alice", "33612345001", "Merci"], ["bob", "33612345002", "STOP"]]);
    let (_, blacklist) = app.json(Method::GET, "/blacklist", None).await;
    assert_eq!(
        blacklist["list"].as_array().map(Vec::len),
        Some(0),
        "Bob's forged STOP blacklisted nothing: {blacklist}"
    );
}

#[tokio::test]
async fn outages_and_the_status_are_for_operators_who_see_and_do_everything() {
    let app = quick_app().await;
    let bob = account(&app.db(), "bob", 1000.0).await;
    let operator = account_commands::operator(&app.db(), OperatorAction::Create { name: "Night shift".into() })
        .await
        .expect("an operator");
    let ticket = send(&app, "Soldes", &["33612345003"], json!({})).await;
    settled(&app, &ticket).await;
    send_as(&app, &bob, "Promo", "33612345004").await;

    for token in [&app.token, &bob] {
        let (status, body) = app
            .json_as(token, Method::POST, "/simulator/outage", Some(json!({"seconds": 60, "mode": "disconnect"})))
            .await;
        assert_eq!((status, body["status"].as_i64()), (403, Some(-12)), "{body}");
        let (status, body) = app.json_as(token, Method::GET, "/simulator/status", None).await;
        assert_eq!((status, body["status"].as_i64()), (403, Some(-12)), "{body}");
    }
    let (status, body) = app.json_as(&operator, Method::GET, "/simulator/status", None).await;
    assert_eq!((status, body["received"].as_i64()), (200, Some(2)), "{body}");
    let mut every = texts(&app, &operator, "").await;
    every.sort();
    assert_eq!(every, ["Promo", "Soldes"]);
    // Any number, Bob's recipient's included.
    let (status, body) = mo_as(&app, &operator, "33612345004", "Merci").await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .json_as(&operator, Method::POST, "/simulator/outage", Some(json!({"seconds": 1, "mode": "throttle"})))
        .await;
    assert_eq!((status, body["mode"].as_str()), (200, Some("throttle")), "{body}");
    until("the outage in the operators' log", || async {
        let (_, log) = app.json_as(&operator, Method::GET, "/operator/audit?action=simulator", None).await;
        (log["audit"][0]["action"] == "simulator.outage").then_some(())
    })
    .await;
}
