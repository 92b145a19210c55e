//! Sub-accounts: an agency creates one per client with its first owner, moves credits
//! to it or lets it draw on its own balance, switches into it and acts there with its role (on
//! record in both audit logs), while the sub-account sees nothing of its parent or siblings.

use reqwest::{Method, header};
use serde_json::{Value, json};
use texto_core::Role;
use texto_server::{Access, ROUTES};

use crate::{
    delivery::{quick_app, settled, until},
    helpers::{TestApp, spawn_app},
    team::{PASSWORD, Session, as_session, concrete, person, sign_in, token_with},
};

/// A request of `session` acting in the account `account`.
async fn in_account(
    app: &TestApp,
    session: &Session,
    account: &str,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = app
        .anonymous(method, path)
        .header("Accept", "application/json")
        .header(header::COOKIE, &session.cookie)
        .header("X-CSRF-Token", &session.csrf)
        .header("X-Texto-Account", account);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("sent");
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

fn one_sms(text: &str, number: &str) -> Value {
    json!({"sms": {"message": {"text": text, "pushtype": "alert"}, "recipients": {"gsm": [{"value": number}]}}})
}

/// Creates a sub-account of the token's account; answers its id.
async fn create(app: &TestApp, token: &str, email: &str, company: &str, unlimited: i64) -> String {
    let body = json!({"account": {"email": email, "password": PASSWORD, "firstname": "Jeanne", "lastname": "Martin",
        "company": company, "isChild": 1, "unlimited": unlimited, "city": "Lyon"}});
    let (status, created) = app.json_as(token, Method::POST, "/account", Some(body)).await;
    assert_eq!((status, created["status"].as_i64()), (200, Some(1)), "{created}");
    created["id"].as_i64().expect("an id").to_string()
}

async fn credits(app: &TestApp, token: &str) -> f64 {
    let (_, body) = app.json_as(token, Method::GET, "/credits", None).await;
    body["credits"].as_str().and_then(|c| c.parse().ok()).expect("credits")
}

#[tokio::test]
async fn an_agency_creates_a_sub_account_funds_it_and_the_sub_account_sees_only_itself() {
    let app = quick_app().await;
    let parent = app.token.clone();
    let client = create(&app, &parent, "boss@client.example", "Client A", 0).await;
    let (status, twice) = app
        .json(Method::POST, "/account", Some(json!({"account": {"email": "boss@client.example", "password": PASSWORD, "company": "Client B", "isChild": 1}})))
        .await;
    assert_eq!(status, 422, "the email signs in already: {twice}");
    assert!(twice.to_string().contains("email"), "{twice}");
    let (status, not_child) = app
        .json(Method::POST, "/account", Some(json!({"account": {"email": "x@y.example", "password": PASSWORD}})))
        .await;
    assert_eq!(status, 422, "{not_child}");

    let (status, listed) = app.json(Method::GET, "/sub-accounts", None).await;
    assert_eq!(status, 200, "{listed}");
    let item = &listed["sub-accounts"][0];
    assert_eq!((item["client_id"].as_str(), item["company"].as_str()), (Some(client.as_str()), Some("Client A")));
    assert_eq!(
        (item["email"].as_str(), item["firstname"].as_str(), item["lastname"].as_str()),
        (Some("boss@client.example"), Some("Jeanne"), Some("Martin"))
    );
    assert_eq!((item["credits"].as_str(), item["unlimited"].as_i64()), (Some("0"), Some(0)), "{item}");

    // Credits move in both ledgers; no more than the parent has.
    let (status, moved) =
        app.json(Method::POST, &format!("/sub-accounts/{client}/credits"), Some(json!({"credits": 40}))).await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!((moved["credits"].as_str(), moved["parent_credits"].as_str()), (Some("40"), Some("960")), "{moved}");
    let (status, refused) =
        app.json(Method::POST, &format!("/sub-accounts/{client}/credits"), Some(json!({"credits": 5000}))).await;
    assert_eq!((status, refused["status"].as_i64()), (402, Some(-3)), "{refused}");
    let transfers = app.sql("SELECT account_id, amount FROM ledger WHERE kind = 'transfer' ORDER BY id").await;
    assert_eq!(transfers.len(), 2, "one row in each ledger: {transfers:?}");

    // The sub-account's owner signs in with the email and password given, and sends.
    let boss = sign_in(&app, "boss@client.example", PASSWORD).await.expect("the sub-account's owner signs in");
    // GET /account names the parent and the owner the sub-account was created with, as the
    // SDKs' account classes read them; an account that is no sub-account leaves them empty.
    let (status, own) = as_session(&app, &boss, Method::GET, "/account", None, false).await;
    assert_eq!(status, 200, "{own}");
    let own = &own["account"];
    assert_eq!((own["client_id"].as_str(), own["parent_client_id"].as_str()), (Some(client.as_str()), Some("1")));
    assert_eq!(
        (own["email"].as_str(), own["firstname"].as_str(), own["lastname"].as_str()),
        (Some("boss@client.example"), Some("Jeanne"), Some("Martin")),
        "{own}"
    );
    let (_, agency) = app.json(Method::GET, "/account", None).await;
    let agency = &agency["account"];
    assert_eq!((agency["parent_client_id"].as_str(), agency["email"].as_str()), (Some(""), Some("")), "{agency}");
    let (status, sent) =
        as_session(&app, &boss, Method::POST, "/send", Some(one_sms("Promo", "33612345678")), true).await;
    assert_eq!(status, 200, "{sent}");
    let ticket = sent["ticket"].as_str().expect("a ticket").to_owned();
    // The parent's campaigns, and the parent itself, are out of its reach.
    let parents = crate::delivery::send(&app, "Agency news", &["33612345679"], json!({})).await;
    let (status, _) = as_session(&app, &boss, Method::GET, &format!("/campaign/{parents}"), None, false).await;
    assert_eq!(status, 404);
    let (status, _) = in_account(&app, &boss, "1", Method::GET, "/campaigns", None).await;
    assert_eq!(status, 404, "a sub-account cannot switch into its parent");
    let (status, _) = as_session(
        &app,
        &boss,
        Method::POST,
        "/account",
        Some(json!({"account": {"email": "sub@sub.example", "password": PASSWORD, "isChild": 1}})),
        true,
    )
    .await;
    assert_eq!(status, 422, "no sub-accounts of a sub-account");

    // The consumption lines: this month's in the list, the period's by sub-account.
    let campaign = until("the sub-account's campaign handed over", || async {
        let (_, body) = as_session(&app, &boss, Method::GET, &format!("/campaign/{ticket}"), None, false).await;
        let campaign = body["campaign"][0].clone();
        (campaign["pending"] == 0 && campaign["status"] == "Sent").then_some(campaign)
    })
    .await;
    assert_eq!(campaign["sent"].as_i64(), Some(1), "{campaign}");
    settled(&app, &parents).await;
    let (_, one) = app.json(Method::GET, &format!("/sub-accounts/{client}"), None).await;
    assert_eq!(one["sub-account"]["current_month_consumption"].as_i64(), Some(1), "{one}");
    let today = texto_core::format_paris(chrono::Utc::now())[..10].to_owned();
    let (_, consumption) =
        app.json(Method::GET, &format!("/metrics/consumption?date_start={today}&date_end={today}"), None).await;
    assert_eq!(consumption["data"]["my_account"]["conso"].as_i64(), Some(1), "{consumption}");
    assert_eq!(consumption["data"]["by_sub_accounts"][0]["company"], "Client A", "{consumption}");
    assert_eq!(consumption["data"]["by_sub_accounts"][0]["conso"].as_i64(), Some(1), "{consumption}");
    let (_, theirs) = app
        .json(
            Method::GET,
            &format!("/metrics/consumption?date_start={today}&date_end={today}&sub_account_id={client}"),
            None,
        )
        .await;
    assert_eq!(theirs["data"]["my_account"]["company"], "Client A", "{theirs}");

    // A sibling is as foreign as any account.
    let sibling = create(&app, &parent, "boss@sibling.example", "Client C", 0).await;
    let (status, _) = in_account(&app, &boss, &sibling, Method::GET, "/campaigns", None).await;
    assert_eq!(status, 404);
    let (status, _) = app.json(Method::GET, "/sub-accounts/999", None).await;
    assert_eq!(status, 404);
    let (status, unlocked) = app.json(Method::GET, &format!("/account/{sibling}/unlock"), None).await;
    assert_eq!((status, unlocked["state"].as_str()), (200, Some("unlocked")), "{unlocked}");
}

#[tokio::test]
async fn the_parents_people_switch_into_a_sub_account_with_their_role_on_record_in_both_audit_logs() {
    let app = quick_app().await;
    let client = create(&app, &app.token, "owner@shop.example", "Shop", 0).await;
    app.json(Method::POST, &format!("/sub-accounts/{client}/credits"), Some(json!({"credits": 10}))).await;
    person(&app, "alice", "author@agency.example", Role::Author).await;
    person(&app, "alice", "owner@agency.example", Role::Owner).await;
    let author = sign_in(&app, "author@agency.example", PASSWORD).await.expect("signed in");
    let owner = sign_in(&app, "owner@agency.example", PASSWORD).await.expect("signed in");

    // The author's send in the sub-account waits for approval there, as it would at home.
    let (status, sent) =
        in_account(&app, &author, &client, Method::POST, "/send", Some(one_sms("Soldes", "33612345678"))).await;
    assert_eq!(status, 200, "{sent}");
    let ticket = sent["ticket"].as_str().expect("a ticket").to_owned();
    let (_, detail) = in_account(&app, &owner, &client, Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert_eq!(detail["campaign"][0]["status"], "awaiting approval", "{detail}");
    let (status, _) =
        in_account(&app, &author, &client, Method::POST, &format!("/campaign/{ticket}/approve"), Some(json!({}))).await;
    assert_eq!(status, 403, "an author may not approve, in a sub-account either");
    let (status, approved) =
        in_account(&app, &owner, &client, Method::POST, &format!("/campaign/{ticket}/approve"), Some(json!({}))).await;
    assert_eq!(status, 200, "{approved}");
    let (status, _) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert_eq!(status, 404, "the campaign is the sub-account's, not the parent's");

    // On record in both accounts.
    let entries = until("the audit lines", || async {
        let (_, there) = in_account(&app, &owner, &client, Method::GET, "/audit", None).await;
        let (_, home) = as_session(&app, &owner, Method::GET, "/audit", None, false).await;
        let approvals = |log: &Value| {
            log["audit"].as_array().map_or(0, |l| l.iter().filter(|e| e["action"] == "campaign.approve").count())
        };
        (approvals(&there) == 1 && approvals(&home) == 1).then_some((there, home))
    })
    .await;
    let home = entries.1.to_string();
    assert!(home.contains(&format!("in sub-account {client}")) && home.contains("owner@agency.example"), "{home}");
    assert!(entries.0.to_string().contains("author@agency.example"), "the author's send: {}", entries.0);
}

#[tokio::test]
async fn an_unlimited_sub_account_draws_on_its_parents_balance() {
    let app = quick_app().await;
    let client = create(&app, &app.token, "owner@unlimited.example", "Unlimited", 1).await;
    let (status, created) = app
        .json(Method::POST, &format!("/token/account/{client}"), Some(json!({"token": {"name": "shop site"}})))
        .await;
    assert_eq!(status, 200, "{created}");
    let token = created["token"].as_str().expect("a token").to_owned();
    assert_eq!(credits(&app, &token).await, 1000.0, "it may spend the parent's balance");
    let (status, sent) = app.json_as(&token, Method::POST, "/send", Some(one_sms("Hello", "33612345678"))).await;
    assert_eq!(status, 200, "{sent}");
    let parent_after = credits(&app, &app.token).await;
    assert!(parent_after < 1000.0, "the parent paid: {parent_after}");
    assert_eq!(credits(&app, &token).await, parent_after, "nothing left over in the sub-account");
    // A prepaid sub-account with nothing is refused.
    let prepaid = create(&app, &app.token, "owner@prepaid.example", "Prepaid", 0).await;
    let (_, made) =
        app.json(Method::POST, &format!("/token/account/{prepaid}"), Some(json!({"token": {"name": "t"}}))).await;
    let prepaid_token = made["token"].as_str().expect("a token").to_owned();
    let (status, refused) =
        app.json_as(&prepaid_token, Method::POST, "/send", Some(one_sms("Hello", "33612345678"))).await;
    assert_eq!((status, refused["status"].as_i64()), (402, Some(-3)), "{refused}");
    // Only those who manage the parent create or fund sub-accounts.
    let sender = token_with(&app, "alice", Role::Sender).await;
    let (status, _) = app
        .json_as(&sender, Method::POST, &format!("/sub-accounts/{client}/credits"), Some(json!({"credits": 1})))
        .await;
    assert_eq!(status, 403);
    let (status, listed) = app.json_as(&sender, Method::GET, "/sub-accounts", None).await;
    assert_eq!((status, listed["sub-accounts"].as_array().map(Vec::len)), (200, Some(2)), "{listed}");
}

#[tokio::test]
async fn in_a_sub_account_every_route_answers_by_the_role_table_and_a_sub_account_cannot_reach_up() {
    let app = spawn_app().await;
    let client = create(&app, &app.token, "owner@walk.example", "Walk", 0).await;
    person(&app, "alice", "analyst@alice.example", Role::Analyst).await;
    let analyst = sign_in(&app, "analyst@alice.example", PASSWORD).await.expect("signed in");
    let boss = sign_in(&app, "owner@walk.example", PASSWORD).await.expect("signed in");
    let mut tried = 0;
    for (method, path, access) in ROUTES {
        let Access::Signed(action, _) = access else { continue };
        if path.starts_with("/session") {
            continue;
        }
        let method = Method::from_bytes(method.as_bytes()).expect("a method");
        let path = concrete(path);
        let (status, body) = in_account(&app, &analyst, &client, method.clone(), &path, Some(json!({}))).await;
        if Role::Analyst.may(*action) {
            assert!(
                status != 401 && status != 403,
                "parent's analyst in the sub-account: {method} {path}: {status} {body}"
            );
        } else {
            assert_eq!(status, 403, "parent's analyst in the sub-account: {method} {path}: {body}");
        }
        let (status, body) = in_account(&app, &boss, "1", method.clone(), &path, Some(json!({}))).await;
        assert_eq!(status, 404, "the sub-account's owner naming its parent: {method} {path}: {body}");
        tried += 2;
    }
    println!("sub-account route checks: {tried}");
}
