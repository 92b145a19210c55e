//! What the operator's console writes: accounts (create, plan, moderation, limit,
//! credits with the ledger, suspend and restore), connectors and routes, each in the operators'
//! log, and every change refused to an account's token.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{Value, json};
use texto_server::{
    AccountAction, Command, ConnectorAction, DbArg, OperatorAction, PlanAction, account_commands, administer,
    plan_commands,
};

use crate::helpers::{TestApp, spawn_app};

async fn operator(app: &TestApp) -> String {
    account_commands::operator(&app.db(), OperatorAction::Create { name: "Night shift".into() })
        .await
        .expect("an operator")
}

async fn call(app: &TestApp, token: &str, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
    app.json_as(token, method, path, body).await
}

/// The account called `name` in `GET /operator/accounts`.
async fn listed(app: &TestApp, op: &str, name: &str) -> Value {
    let (_, accounts) = call(app, op, Method::GET, "/operator/accounts", None).await;
    accounts["accounts"].as_array().unwrap().iter().find(|a| a["name"] == name).cloned().expect(name)
}

/// Waits (up to 10 s) until `GET /credits` with `token` answers `status`.
async fn credits_answer(app: &TestApp, token: &str, status: u16) -> Value {
    let start = Instant::now();
    loop {
        let (got, body) = call(app, token, Method::GET, "/credits", None).await;
        if got == status {
            return body;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "GET /credits answers {status} within 30 s: {got} {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn an_operator_creates_and_runs_an_account_and_every_change_is_in_the_log() {
    let app = spawn_app().await;
    let op = operator(&app).await;
    let gold = PlanAction::Set {
        name: "gold".into(),
        countries: vec![(texto_core::Country::from_iso2("FR").unwrap(), texto_core::Credits::whole(1))],
        other: texto_core::Credits::whole(2),
    };
    plan_commands::plan(&app.db(), gold).await.expect("a plan");

    let new = json!({"name": "Boulangerie Martin", "credits": 250, "plan": "gold", "moderated": 1});
    let (status, created) = call(&app, &op, Method::POST, "/operator/accounts", Some(new.clone())).await;
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_i64().unwrap();
    let (status, again) = call(&app, &op, Method::POST, "/operator/accounts", Some(new)).await;
    assert_eq!((status, again["status"].as_i64()), (422, Some(-7)), "names are unique: {again}");
    let (status, bad) =
        call(&app, &op, Method::POST, "/operator/accounts", Some(json!({"name": "X", "plan": "platinum"}))).await;
    assert_eq!((status, bad["errors"][0]["path"].as_str()), (422, Some("plan")), "{bad}");
    let account = listed(&app, &op, "Boulangerie Martin").await;
    assert_eq!(
        (account["credits"].as_f64(), account["plan"].as_str(), account["moderated"].as_i64()),
        (Some(250.0), Some("gold"), Some(1))
    );

    let change = json!({"plan": "shipped", "moderated": 0, "per_second": 40});
    let (status, body) = call(&app, &op, Method::PUT, &format!("/operator/account/{id}"), Some(change)).await;
    assert_eq!(status, 200, "{body}");
    let account = listed(&app, &op, "Boulangerie Martin").await;
    assert_eq!(
        (account["plan"].as_str(), account["moderated"].as_i64(), account["per_second"].as_i64()),
        (Some("shipped"), Some(0), Some(40))
    );
    let (status, _) =
        call(&app, &op, Method::PUT, &format!("/operator/account/{id}"), Some(json!({"per_second": 0}))).await;
    assert_eq!(status, 200);
    assert!(listed(&app, &op, "Boulangerie Martin").await.get("per_second").is_none(), "0 lifts the limit");
    let (status, _) = call(&app, &op, Method::PUT, "/operator/account/999", Some(json!({"moderated": 1}))).await;
    assert_eq!(status, 404);

    let (status, topped) =
        call(&app, &op, Method::POST, &format!("/operator/account/{id}/credits"), Some(json!({"credits": 49.5}))).await;
    assert_eq!((status, topped["credits"].as_f64()), (200, Some(299.5)), "{topped}");
    let kinds: Vec<(&str, f64)> = topped["ledger"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| (line["kind"].as_str().unwrap(), line["amount"].as_f64().unwrap()))
        .collect();
    assert_eq!(kinds, [("topup", 49.5), ("topup", 250.0)], "newest first");
    let (status, _) =
        call(&app, &op, Method::POST, &format!("/operator/account/{id}/credits"), Some(json!({"credits": -5}))).await;
    assert_eq!(status, 422, "a top-up adds credits");

    // Every change is in the operators' log and in the account's own.
    let (_, log) = call(&app, &op, Method::GET, "/operator/audit", None).await;
    let actions: Vec<&str> = log["audit"].as_array().unwrap().iter().map(|l| l["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["account.credit", "account.update", "account.update", "account.create"], "{log}");
    assert_eq!(log["audit"][0]["actor"], "operator Night shift");
    assert_eq!(
        app.sql(&format!("SELECT COUNT(*) FROM audit WHERE account_id = {id} AND actor = 'operator Night shift'"))
            .await[0][0]
            .as_deref(),
        Some("4")
    );
    // An account's token changes nothing here.
    let (status, body) =
        call(&app, &app.token, Method::POST, &format!("/operator/account/{id}/credits"), Some(json!({"credits": 1})))
            .await;
    assert_eq!((status, body["status"].as_i64()), (403, Some(-12)), "{body}");
}

#[tokio::test]
async fn a_suspended_account_and_its_sub_accounts_are_refused_until_restored() {
    let app = spawn_app().await;
    let op = operator(&app).await;
    let alice = listed(&app, &op, "alice").await["id"].as_i64().unwrap();
    let sub = json!({"account": {"company": "Agence Sud", "email": "sud@example.com", "password": "correct horse battery", "isChild": 1}});
    let (status, body) = app.json(Method::POST, "/account", Some(sub)).await;
    assert_eq!(status, 200, "{body}");
    let sub_id = body["id"].as_i64().unwrap().to_string();

    // A campaign held for moderation, then released while the account is suspended: it waits.
    let moderated = json!({"moderated": 1});
    call(&app, &op, Method::PUT, &format!("/operator/account/{alice}"), Some(moderated)).await;
    let one = json!({"sms": {"message": {"text": "Suspendu", "pushtype": "alert"}, "recipients": {"gsm": [{"value": "33612345678"}]}}});
    let start = Instant::now();
    let ticket = loop {
        let (status, sent) = app.json(Method::POST, "/send", Some(one.clone())).await;
        if status == 202 {
            break sent["ticket"].as_str().unwrap().to_owned();
        }
        assert!(start.elapsed() < Duration::from_secs(30), "held within 30 s: {sent}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let (status, _) = call(&app, &op, Method::POST, &format!("/operator/account/{alice}/suspend"), None).await;
    assert_eq!(status, 200);
    let refused = credits_answer(&app, &app.token, 403).await;
    assert_eq!(refused["status"], -12);
    assert!(refused["details"].to_string().contains("suspended"), "{refused}");
    assert_eq!(listed(&app, &op, "alice").await["suspended"], 1);
    // Acting in its sub-account is refused too, and the sub-account's own people cannot sign in.
    let acting = app
        .anonymous(Method::GET, "/credits")
        .header("Accept", "application/json")
        .header("Authorization", format!("Bearer {}", app.token))
        .header("X-Texto-Account", &sub_id);
    assert_eq!(acting.send().await.expect("sent").status().as_u16(), 403);
    let sign_in = json!({"session": {"email": "sud@example.com", "password": "correct horse battery"}});
    let (status, body) = app.json(Method::POST, "/session", Some(sign_in.clone())).await;
    assert_eq!((status, body["status"].as_i64()), (403, Some(-12)), "{body}");

    let (status, _) = call(&app, &op, Method::POST, &format!("/operator/campaign/{ticket}/release"), None).await;
    assert_eq!(status, 200);
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let pending = format!("SELECT COUNT(*) FROM messages WHERE campaign_id = {ticket} AND delivery = 0");
    assert_eq!(app.sql(&pending).await[0][0].as_deref(), Some("1"), "a suspended account's messages wait");

    let (status, _) = call(&app, &op, Method::POST, &format!("/operator/account/{alice}/restore"), None).await;
    assert_eq!(status, 200);
    credits_answer(&app, &app.token, 200).await;
    // A loaded machine takes seconds between steps: each wait has its own clock.
    let restored = Instant::now();
    loop {
        let (_, campaign) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
        if campaign["campaign"][0]["delivered"] == 1 {
            break;
        }
        assert!(restored.elapsed() < Duration::from_secs(30), "delivered within 30 s once restored: {campaign}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (status, body) = app.json(Method::POST, "/session", Some(sign_in)).await;
    assert_eq!(status, 200, "{body}");
    let (_, log) = call(&app, &op, Method::GET, "/operator/audit?action=account", None).await;
    let actions: Vec<&str> = log["audit"].as_array().unwrap().iter().map(|l| l["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["account.restore", "account.suspend", "account.update"]);
}

#[tokio::test]
async fn connectors_and_routes_are_edited_through_the_api() {
    let app = spawn_app().await;
    let op = operator(&app).await;
    let put = |name: &str, body: Value| {
        let path = format!("/operator/connector/{name}");
        let (app, op) = (&app, op.clone());
        async move { call(app, &op, Method::PUT, &path, Some(body)).await }
    };
    let (status, body) = put("A", json!({"smsc": "smpp://texto:secret@127.0.0.1:9?window=10"})).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = put("default", json!({"smsc": "smpp://texto:secret@127.0.0.1:9"})).await;
    assert_eq!((status, body["errors"][0]["path"].as_str()), (422, Some("smsc")), "default is --smsc: {body}");
    let (status, _) = put("B", json!({"smsc": "http://example.com"})).await;
    assert_eq!(status, 422, "an smpp:// URL");
    let (status, _) = put("no spaces", json!({"smsc": "smpp://a:b@127.0.0.1:9"})).await;
    assert_eq!(status, 422);

    let route = json!({"connectors": ["A", "default"], "destination": "fr", "pushtype": "marketing", "priority": 2});
    let (status, created) = call(&app, &op, Method::POST, "/operator/routes", Some(route)).await;
    assert_eq!(status, 200, "{created}");
    let (status, body) =
        call(&app, &op, Method::POST, "/operator/routes", Some(json!({"connectors": ["Z"], "destination": "+336"})))
            .await;
    assert_eq!((status, body["errors"][0]["path"].as_str()), (422, Some("connectors")), "{body}");
    let (_, routes) = call(&app, &op, Method::GET, "/operator/routes", None).await;
    assert_eq!(routes["routes"][0]["destination"], "FR");
    assert_eq!(routes["routes"][0]["connectors"], json!(["A", "default"]));

    let (status, body) = call(&app, &op, Method::DELETE, "/operator/connector/A", None).await;
    assert_eq!(status, 422, "a routed connector stays: {body}");
    let (status, _) = call(&app, &op, Method::POST, "/operator/connector/A/disable", None).await;
    assert_eq!(status, 200);
    let (_, connectors) = call(&app, &op, Method::GET, "/operator/connectors", None).await;
    let a = connectors["connectors"].as_array().unwrap().iter().find(|c| c["name"] == "A").cloned().unwrap();
    assert_eq!(a["enabled"], 0);
    let route_id = created["id"].as_i64().unwrap();
    let (status, _) = call(&app, &op, Method::DELETE, &format!("/operator/route/{route_id}"), None).await;
    assert_eq!(status, 200);
    let (status, _) = call(&app, &op, Method::DELETE, &format!("/operator/route/{route_id}"), None).await;
    assert_eq!(status, 404);
    let (status, _) = call(&app, &op, Method::DELETE, "/operator/connector/A", None).await;
    assert_eq!(status, 200);
    let (status, _) = call(&app, &op, Method::POST, "/operator/connector/A/enable", None).await;
    assert_eq!(status, 404);

    let (_, log) = call(&app, &op, Method::GET, "/operator/audit", None).await;
    let actions: Vec<&str> = log["audit"].as_array().unwrap().iter().map(|l| l["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["connector.remove", "route.remove", "connector.disable", "route.add", "connector.save"]);
    let (status, _) = call(&app, &app.token, Method::GET, "/operator/audit", None).await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn what_the_command_line_changes_is_in_the_operators_log_without_secrets() {
    let app = spawn_app().await;
    let db = || DbArg { db: app.db().into() };
    let run = |command| async move { administer(command).await.expect("the command succeeds") };
    let op = run(Command::Operator { db: db(), action: OperatorAction::Create { name: "Day shift".into() } }).await;
    run(Command::Account { db: db(), action: AccountAction::Credit { name: "alice".into(), credits: 25.0 } }).await;
    let listing = run(Command::Connector { db: db(), action: ConnectorAction::List }).await;
    assert!(listing.contains("default"), "{listing}");

    let (_, log) = call(&app, &op, Method::GET, "/operator/audit", None).await;
    let lines: Vec<(&str, &str, &str)> = log["audit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["action"].as_str().unwrap(), l["object"].as_str().unwrap(), l["summary"].as_str().unwrap()))
        .collect();
    assert_eq!(
        lines,
        [
            ("account.credit", "account alice", "account alice: 1025 credits"),
            ("operator.create", "operator Day shift", "operator Day shift created"),
        ],
        "a listing changes nothing and is not logged; the token printed is not written: {log}"
    );
    assert!(log["audit"][0]["actor"].as_str().unwrap().starts_with("command line"), "{log}");
    assert!(!log.to_string().contains(&op), "the operator's token stays secret");
    // The account's own log has the top-up too.
    let (_, own) = call(&app, &app.token, Method::GET, "/audit", None).await;
    assert_eq!(own["audit"][0]["action"], "account.credit", "{own}");
}

#[tokio::test]
async fn the_ledger_comes_a_hundred_movements_a_page_newest_first() {
    let app = spawn_app().await;
    let op = operator(&app).await;
    for amount in 1..=101 {
        account_commands::account(
            &app.db(),
            AccountAction::Credit { name: "alice".into(), credits: f64::from(amount) },
        )
        .await
        .expect("a top-up");
    }
    let id = listed(&app, &op, "alice").await["id"].as_i64().unwrap();
    let ledger = |query: &'static str| {
        let (app, op) = (&app, &op);
        async move { call(app, op, Method::GET, &format!("/operator/account/{id}/ledger{query}"), None).await }
    };
    let (status, first) = ledger("").await;
    assert_eq!(status, 200, "{first}");
    let amounts = |page: &Value| -> Vec<f64> {
        page["ledger"].as_array().unwrap().iter().map(|l| l["amount"].as_f64().unwrap()).collect()
    };
    assert_eq!((first["page"].as_i64(), first["more"].as_i64(), amounts(&first).len()), (Some(1), Some(1), 100));
    assert_eq!(amounts(&first)[..2], [101.0, 100.0], "newest first");
    let (_, second) = ledger("?page=2").await;
    // The 102nd movement is alice's opening balance, the 101st the top-up of 1.
    assert_eq!((second["more"].as_i64(), amounts(&second)), (Some(0), vec![1.0, 1000.0]), "{second}");
    let (_, beyond) = ledger("?page=3").await;
    assert_eq!((beyond["more"].as_i64(), amounts(&beyond).len()), (Some(0), 0));
    for bad in ["?page=0", "?page=x"] {
        let (status, body) = ledger(bad).await;
        assert_eq!((status, body["errors"][0]["path"].as_str()), (422, Some("page")), "{bad}: {body}");
    }
}
