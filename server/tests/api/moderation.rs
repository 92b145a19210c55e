//! Moderation: a moderated account's campaign, or one a rule matches, is created and
//! debited but held (status -8 with its ticket and HTTP 202, as SMSFactor answers and its SDKs
//! raise `Moderation`); an operator releases it (it goes out) or refuses it (credits back), and
//! the account's audit log says so.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{Value, json};
use texto_server::{AccountAction, ModerationAction, OperatorAction, account_commands, moderation_commands};

use crate::helpers::{TestApp, settings_read, spawn_app};

async fn send(app: &TestApp, text: &str, links: &[&str]) -> (u16, Value) {
    let message = json!({"text": text, "pushtype": "alert", "links": links});
    let body = json!({"sms": {"message": message, "recipients": {"gsm": [{"value": "33612345671"}, {"value": "33612345672"}]}}});
    app.json(Method::POST, "/send", Some(body)).await
}

async fn campaign(app: &TestApp, ticket: &str) -> Value {
    app.json(Method::GET, &format!("/campaign/{ticket}"), None).await.1["campaign"][0].clone()
}

#[tokio::test]
async fn a_held_campaign_waits_for_an_operator_who_releases_or_refuses_it() {
    let app = spawn_app().await;
    let operator =
        account_commands::operator(&app.db(), OperatorAction::Create { name: "Night".into() }).await.unwrap();
    account_commands::account(&app.db(), AccountAction::Moderate { name: "alice".into(), state: true }).await.unwrap();
    settings_read().await;

    let (status, held) = send(&app, "Rendez-vous demain 9h", &[]).await;
    assert_eq!(
        (status, held["status"].as_i64(), held["message"].as_str()),
        (202, Some(-8), Some("Campaign under moderation"))
    );
    assert_eq!(
        (held["sent"].as_i64(), held["cost"].as_f64(), held["credits"].as_f64()),
        (Some(2), Some(2.0), Some(998.0))
    );
    let ticket = held["ticket"].as_str().expect("a ticket").to_owned();
    assert_eq!(campaign(&app, &ticket).await["status"], "awaiting moderation");
    let (status, refused) = app.json(Method::POST, &format!("/campaign/{ticket}/approve"), None).await;
    assert_eq!(
        (status, refused["status"].as_i64()),
        (422, Some(-7)),
        "the account cannot approve it itself: {refused}"
    );

    let (status, queue) = app.json_as(&operator, Method::GET, "/operator/moderation", None).await;
    assert_eq!(status, 200, "{queue}");
    let first = &queue["campaigns"][0];
    assert_eq!(
        (first["ticket"].as_str(), first["account"].as_str(), first["recipients"].as_i64(), first["reason"].as_str()),
        (Some(ticket.as_str()), Some("alice"), Some(2), Some("the account is moderated"))
    );
    let (status, _) = app.json(Method::GET, "/operator/moderation", None).await;
    assert_eq!(status, 403, "an account's token does not read the queue");

    let release = format!("/operator/campaign/{ticket}/release");
    let (status, body) = app.json_as(&operator, Method::POST, &release, None).await;
    assert_eq!(status, 200, "{body}");
    let start = Instant::now();
    while campaign(&app, &ticket).await["delivered"] != 2 {
        assert!(start.elapsed() < Duration::from_secs(30), "released, it goes out: {}", campaign(&app, &ticket).await);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (status, _) = app.json_as(&operator, Method::POST, &release, None).await;
    assert_eq!(status, 404, "no longer held");

    let (_, again) = send(&app, "Rendez-vous jeudi 9h", &[]).await;
    let second = again["ticket"].as_str().unwrap().to_owned();
    assert_eq!(again["credits"].as_f64(), Some(996.0));
    let refuse = format!("/operator/campaign/{second}/refuse");
    let (status, missing) = app.json_as(&operator, Method::POST, &refuse, Some(json!({}))).await;
    assert_eq!((status, missing["status"].as_i64()), (422, Some(-7)), "a refusal needs its reason");
    let (status, _) = app.json_as(&operator, Method::POST, &refuse, Some(json!({"reason": "Texte trompeur"}))).await;
    assert_eq!(status, 200);
    assert_eq!(campaign(&app, &second).await["status"], "Cancelled");
    let (_, credits) = app.json(Method::GET, "/credits", None).await;
    assert_eq!(credits["credits"], "998", "the refused campaign's credits are back");
    let (_, audit) = app.json(Method::GET, "/audit", None).await;
    let lines = audit["audit"].as_array().expect("audit lines");
    let refusal = lines.iter().find(|line| line["action"] == "campaign.refuse").expect("the refusal is on record");
    assert_eq!(refusal["actor"], "operator Night");
    assert!(refusal["summary"].as_str().unwrap().contains("Texte trompeur"), "{refusal}");
    assert!(lines.iter().any(|line| line["action"] == "campaign.release"), "{audit}");
}

#[tokio::test]
async fn rules_hold_campaigns_by_their_text_or_the_domains_they_link_to() {
    let app = spawn_app().await;
    let pattern = ModerationAction::AddPattern { pattern: r"cr[ée]dit\s+rapide".into() };
    moderation_commands::moderation(&app.db(), pattern).await.unwrap();
    let bad = moderation_commands::moderation(&app.db(), ModerationAction::AddPattern { pattern: "(".into() }).await;
    assert!(bad.is_err(), "a pattern that does not compile is refused");
    moderation_commands::moderation(&app.db(), ModerationAction::AddDomain { domain: "bit.ly".into() }).await.unwrap();
    let listed = moderation_commands::moderation(&app.db(), ModerationAction::List).await.unwrap();
    assert!(
        listed.contains("domain") && listed.contains("bit.ly") && listed.contains("moderated accounts: none"),
        "{listed}"
    );
    settings_read().await;

    let (status, body) = send(&app, "Votre CRÉDIT  rapide en 24h", &[]).await;
    assert_eq!((status, body["status"].as_i64()), (202, Some(-8)), "{body}");
    let (status, body) = send(&app, "Voir l'offre <-short->", &["https://go.bit.ly/promo"]).await;
    assert_eq!((status, body["status"].as_i64()), (202, Some(-8)), "{body}");
    let (status, body) = send(&app, "Voir l'offre <-short->", &["https://shop.example/promo"]).await;
    assert_eq!((status, body["status"].as_i64()), (200, Some(1)), "{body}");
    let (status, body) = send(&app, "Rendez-vous demain 9h", &[]).await;
    assert_eq!((status, body["status"].as_i64()), (200, Some(1)), "{body}");
}

#[tokio::test]
async fn a_retry_of_a_held_send_gets_the_same_held_answer() {
    let app = spawn_app().await;
    account_commands::account(&app.db(), AccountAction::Moderate { name: "alice".into(), state: true }).await.unwrap();
    settings_read().await;
    let body = json!({"sms": {"message": {"text": "Promo", "pushtype": "alert"}, "recipients": {"gsm": [{"value": "33612345671"}]}}});
    let mut answers = Vec::new();
    for _ in 0..2 {
        let response = app
            .anonymous(Method::POST, "/send")
            .header("Authorization", format!("Bearer {}", app.token))
            .header("Accept", "application/json")
            .header("Idempotency-Key", "held-once")
            .json(&body)
            .send()
            .await
            .expect("sent");
        answers.push((response.status().as_u16(), response.json::<Value>().await.unwrap()));
    }
    let [(first_status, first), (again_status, again)] = <[_; 2]>::try_from(answers).unwrap();
    assert_eq!((first_status, first["status"].as_i64()), (202, Some(-8)), "{first}");
    assert_eq!((again_status, again["status"].as_i64()), (202, Some(-8)), "the retry: {again}");
    assert_eq!(again["ticket"], first["ticket"], "one campaign");
    assert_eq!(again["message"], "Campaign under moderation");
}

/// Whether the account called `name` is moderated, as `GET /operator/accounts` lists it.
async fn moderated(app: &TestApp, operator: &str, name: &str) -> i64 {
    let (_, listed) = app.json_as(operator, Method::GET, "/operator/accounts", None).await;
    let account = listed["accounts"].as_array().unwrap().iter().find(|a| a["name"] == name).cloned();
    account.unwrap_or_else(|| panic!("{name} listed: {listed}"))["moderated"].as_i64().unwrap()
}

#[tokio::test]
async fn new_accounts_are_moderated_when_the_operator_says_so_and_sub_accounts_follow_their_parent() {
    let app = spawn_app().await;
    let db = app.db();
    let op = account_commands::operator(&db, OperatorAction::Create { name: "Night shift".into() }).await.unwrap();
    let sub_account = |company: &str, email: &str| json!({"account": {"company": company, "email": email, "password": "correct horse battery", "isChild": 1}});
    // Off until set: new accounts go unchecked.
    let (status, _) = app.json(Method::POST, "/account", Some(sub_account("Agence Nord", "nord@example.com"))).await;
    assert_eq!(status, 200);
    assert_eq!(moderated(&app, &op, "Agence Nord").await, 0);

    let said = moderation_commands::moderation(&db, ModerationAction::NewAccounts { state: true }).await.unwrap();
    assert!(said.contains("new accounts are moderated"), "{said}");
    let listing = moderation_commands::moderation(&db, ModerationAction::List).await.unwrap();
    assert!(listing.ends_with("new accounts moderated: on"), "{listing}");
    // The command line, the console and a customer's sub-account: moderated unless said otherwise.
    account_commands::account(&db, AccountAction::Create { name: "shop".into(), credits: 0.0, moderated: None })
        .await
        .unwrap();
    account_commands::account(
        &db,
        AccountAction::Create { name: "trusted".into(), credits: 0.0, moderated: Some(false) },
    )
    .await
    .unwrap();
    for (name, asked) in [("console-new", json!({})), ("console-trusted", json!({"moderated": 0}))] {
        let mut body = json!({"name": name});
        body.as_object_mut().unwrap().extend(asked.as_object().unwrap().clone());
        let (status, answer) = app.json_as(&op, Method::POST, "/operator/accounts", Some(body)).await;
        assert_eq!(status, 200, "{answer}");
    }
    let (status, _) = app.json(Method::POST, "/account", Some(sub_account("Agence Sud", "sud@example.com"))).await;
    assert_eq!(status, 200);
    for (name, expected) in
        [("shop", 1), ("trusted", 0), ("console-new", 1), ("console-trusted", 0), ("Agence Sud", 1), ("alice", 0)]
    {
        assert_eq!(moderated(&app, &op, name).await, expected, "{name}");
    }

    // Off again; a moderated parent's sub-account is moderated all the same.
    moderation_commands::moderation(&db, ModerationAction::NewAccounts { state: false }).await.unwrap();
    let (_, listed) = app.json_as(&op, Method::GET, "/operator/accounts", None).await;
    let alice = listed["accounts"].as_array().unwrap().iter().find(|a| a["name"] == "alice").unwrap()["id"].clone();
    let (status, _) =
        app.json_as(&op, Method::PUT, &format!("/operator/account/{alice}"), Some(json!({"moderated": 1}))).await;
    assert_eq!(status, 200);
    settings_read().await;
    let (status, _) = app.json(Method::POST, "/account", Some(sub_account("Agence Est", "est@example.com"))).await;
    assert_eq!(status, 200);
    assert_eq!(moderated(&app, &op, "Agence Est").await, 1, "under a moderated parent");
}

#[tokio::test]
async fn the_console_adds_and_removes_rules_and_sets_new_accounts_each_in_the_operators_log() {
    let app = spawn_app().await;
    let op =
        account_commands::operator(&app.db(), OperatorAction::Create { name: "Night shift".into() }).await.unwrap();
    let add = |kind: &str, value: &str| json!({"kind": kind, "value": value});
    let (status, _) = app.json(Method::POST, "/operator/moderation/rules", Some(add("pattern", "casino"))).await;
    assert_eq!(status, 403, "an account's token may not");
    for (asked, field) in
        [(add("pattern", "("), "value"), (add("domain", "nodot"), "value"), (add("word", "x"), "kind")]
    {
        let (status, body) = app.json_as(&op, Method::POST, "/operator/moderation/rules", Some(asked)).await;
        assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{body}");
        assert!(body.to_string().contains(field), "names {field}: {body}");
    }
    let (status, pattern) =
        app.json_as(&op, Method::POST, "/operator/moderation/rules", Some(add("pattern", "casino"))).await;
    assert_eq!(status, 200, "{pattern}");
    let (_, domain) = app
        .json_as(&op, Method::POST, "/operator/moderation/rules", Some(add("domain", " .WWW.Arnaque.example")))
        .await;
    let (_, queue) = app.json_as(&op, Method::GET, "/operator/moderation", None).await;
    let rules: Vec<(&str, &str)> = queue["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["kind"].as_str().unwrap(), r["value"].as_str().unwrap()))
        .collect();
    assert_eq!(rules, [("pattern", "casino"), ("domain", "www.arnaque.example")], "{queue}");
    settings_read().await;
    assert_eq!(send(&app, "Votre bonus CASINO", &[]).await.0, 202, "held by the console's pattern");

    let path = format!("/operator/moderation/rule/{}", pattern["id"]);
    assert_eq!(app.json_as(&op, Method::DELETE, &path, None).await.0, 200);
    assert_eq!(app.json_as(&op, Method::DELETE, &path, None).await.0, 404, "gone");
    settings_read().await;
    assert_eq!(send(&app, "Votre bonus CASINO", &[]).await.0, 200, "no rule holds it any more");

    let (status, body) =
        app.json_as(&op, Method::PUT, "/operator/moderation/new-accounts", Some(json!({"moderated": 2}))).await;
    assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{body}");
    let (status, _) =
        app.json_as(&op, Method::PUT, "/operator/moderation/new-accounts", Some(json!({"moderated": 1}))).await;
    assert_eq!(status, 200);
    let (_, queue) = app.json_as(&op, Method::GET, "/operator/moderation", None).await;
    assert_eq!(queue["new_accounts_moderated"], 1);
    let listing = moderation_commands::moderation(&app.db(), ModerationAction::List).await.unwrap();
    assert!(listing.ends_with("new accounts moderated: on") && listing.contains("www.arnaque.example"), "{listing}");

    let (_, log) = app.json_as(&op, Method::GET, "/operator/audit", None).await;
    let log = log.to_string();
    for action in ["moderation.rule_add", "moderation.rule_remove", "moderation.new_accounts"] {
        assert!(log.contains(action), "{action} in the operators' log: {log}");
    }
    assert_eq!(domain["status"], 1);
}
