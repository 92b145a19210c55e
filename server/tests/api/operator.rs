//! The operator's API: only an operator's token reads `/operator/…` (an account's
//! token or session gets 403 -12), and it shows the accounts, connectors with their live status,
//! and routes the operator's commands wrote.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::Value;
use serde_json::json;
use texto_server::{
    AccountAction, ConnectorAction, OperatorAction, PlanAction, RouteAction, account_commands, plan_commands,
    routing_commands,
};

use crate::helpers::{TestApp, settings_read, spawn_app};

async fn get(app: &TestApp, token: &str, path: &str) -> (u16, Value) {
    app.json_as(token, Method::GET, path, None).await
}

#[tokio::test]
async fn only_operators_read_the_operator_api_and_it_shows_accounts_connectors_and_routes() {
    let app = spawn_app().await;
    let operator = account_commands::operator(&app.db(), OperatorAction::Create { name: "Night shift".into() })
        .await
        .expect("an operator is created");
    assert!(operator.starts_with("texto_op_"), "{operator}");
    let again = account_commands::operator(&app.db(), OperatorAction::Create { name: "Night shift".into() }).await;
    assert!(again.is_err(), "names are unique");

    for path in ["/operator/accounts", "/operator/connectors", "/operator/routes"] {
        let (status, body) = get(&app, &app.token, path).await;
        assert_eq!((status, body["status"].as_i64()), (403, Some(-12)), "an account's owner token: {path} {body}");
        let (status, _) = get(&app, "texto_op_nope", path).await;
        assert_eq!(status, 401, "an unknown token: {path}");
    }

    account_commands::account(
        &app.db(),
        AccountAction::Create { name: "bravo".into(), credits: 12.5, moderated: None },
    )
    .await
    .expect("bravo");
    let (status, accounts) = get(&app, &operator, "/operator/accounts").await;
    assert_eq!(status, 200, "{accounts}");
    let names: Vec<(&str, f64, &str)> = accounts["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["name"].as_str().unwrap(), a["credits"].as_f64().unwrap(), a["plan"].as_str().unwrap()))
        .collect();
    assert_eq!(names, [("alice", 1000.0, "shipped"), ("bravo", 12.5, "shipped")]);

    let add = ConnectorAction::Add {
        name: "A".parse().unwrap(),
        url: "smpp://texto:secret@127.0.0.1:9?window=10".into(),
        disabled: false,
        ca_dir: None,
    };
    routing_commands::connector(&app.db(), add).await.expect("connector A");
    let route = RouteAction::Add {
        connectors: vec!["A".parse().unwrap(), "default".parse().unwrap()],
        prefix: None,
        country: Some("FR".into()),
        account: Some("bravo".into()),
        pushtype: Some("marketing".into()),
        plan: None,
        priority: 3,
    };
    assert_eq!(routing_commands::route(&app.db(), route).await.expect("a route"), "route 1 added");
    let (_, routes) = get(&app, &operator, "/operator/routes").await;
    let first = &routes["routes"][0];
    assert_eq!(
        (
            first["destination"].as_str(),
            first["account"].as_str(),
            first["pushtype"].as_str(),
            first["priority"].as_i64()
        ),
        (Some("FR"), Some("bravo"), Some("marketing"), Some(3))
    );
    assert_eq!(first["connectors"], serde_json::json!(["A", "default"]));

    // Nothing listens on port 9: the running texto reports A as down, with why, within seconds.
    let start = Instant::now();
    let a = loop {
        let (_, connectors) = get(&app, &operator, "/operator/connectors").await;
        let list = connectors["connectors"].as_array().unwrap().clone();
        let a = list.iter().find(|c| c["name"] == "A").cloned().unwrap();
        let default = list.iter().find(|c| c["name"] == "default").unwrap();
        if a["nodes"][0]["last_error"].is_string() && default["nodes"][0]["binds_up"] == 1 {
            break a;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "no status for A yet: {connectors}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(a["smsc"], "smpp://texto@127.0.0.1:9?binds=1&window=10&rate=0", "no password shown");
    let node = a["nodes"][0]["node"].as_str().unwrap();
    assert!(node == "local" || node.starts_with("node "), "SQLite's one node, or a PostgreSQL node: {node}");
    assert_eq!(a["nodes"][0]["binds_up"].as_i64(), Some(0));
    assert!(a["nodes"][0]["last_error"].as_str().unwrap().contains("cannot bind"), "{a}");

    // Three messages through default: the traffic of this minute counts them.
    let gsm: Vec<Value> =
        ["33612345601", "33612345602", "33612345603"].iter().map(|n| serde_json::json!({"value": n})).collect();
    let body =
        serde_json::json!({"sms": {"message": {"text": "Trafic", "pushtype": "alert"}, "recipients": {"gsm": gsm}}});
    let (status, sent) = app.json(Method::POST, "/send", Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    let start = Instant::now();
    loop {
        let (_, traffic) = get(&app, &operator, "/operator/traffic").await;
        let handed: i64 = traffic["traffic"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["connector"] == "default")
            .map(|t| t["handed"].as_i64().unwrap())
            .sum();
        if handed == 3 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the traffic shows 3 handed to default: {traffic}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn messages_whose_route_has_no_connector_up_wait_and_their_campaign_says_why() {
    let app = spawn_app().await;
    let add = ConnectorAction::Add {
        name: "A".parse().unwrap(),
        url: "smpp://texto:secret@127.0.0.1:9".into(),
        disabled: false,
        ca_dir: None,
    };
    routing_commands::connector(&app.db(), add).await.expect("connector A, where nothing listens");
    let route = RouteAction::Add {
        connectors: vec!["A".parse().unwrap()],
        prefix: Some("3361".into()),
        country: None,
        account: None,
        pushtype: None,
        plan: None,
        priority: 0,
    };
    routing_commands::route(&app.db(), route).await.expect("a route to A alone");
    settings_read().await;

    let body = serde_json::json!({"sms": {"message": {"text": "Attente", "pushtype": "alert"}, "recipients": {"gsm": [{"value": "33612345678"}]}}});
    let (status, sent) = app.json(Method::POST, "/send", Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    let detail = format!("/campaign/{}", sent["ticket"].as_str().unwrap());
    let start = Instant::now();
    loop {
        let (_, campaign) = app.json(Method::GET, &detail, None).await;
        if let Some(connectors) = campaign["campaign"][0]["waiting"].as_str() {
            assert_eq!(connectors, "A", "the route's connectors");
            assert_eq!(campaign["campaign"][0]["pending"], 1, "it waits in the queue");
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the detail says why it waits: {campaign}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // Without the route, default takes it.
    routing_commands::route(&app.db(), RouteAction::Remove { id: 1 }).await.expect("route removed");
    loop {
        let (_, campaign) = app.json(Method::GET, &detail, None).await;
        if campaign["campaign"][0]["delivered"] == 1 {
            assert!(campaign["campaign"][0].get("waiting").is_none(), "{campaign}");
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "delivered through default: {campaign}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn a_route_for_a_plan_takes_only_its_accounts_messages() {
    let app = spawn_app().await;
    let operator =
        account_commands::operator(&app.db(), OperatorAction::Create { name: "Plans".into() }).await.unwrap();
    let gold = PlanAction::Set { name: "gold".into(), countries: Vec::new(), other: texto_core::Credits::whole(1) };
    plan_commands::plan(&app.db(), gold).await.expect("a plan");
    let connector = json!({"smsc": "smpp://texto:secret@127.0.0.1:9"});
    let (status, _) = app.json_as(&operator, Method::PUT, "/operator/connector/A", Some(connector)).await;
    assert_eq!(status, 200);
    let (status, refused) = app
        .json_as(&operator, Method::POST, "/operator/routes", Some(json!({"connectors": ["A"], "plan": "platinum"})))
        .await;
    assert_eq!((status, refused["errors"][0]["path"].as_str()), (422, Some("plan")), "{refused}");
    let (status, _) = app
        .json_as(&operator, Method::POST, "/operator/routes", Some(json!({"connectors": ["A"], "plan": "gold"})))
        .await;
    assert_eq!(status, 200);
    let (_, routes) = get(&app, &operator, "/operator/routes").await;
    assert_eq!(routes["routes"][0]["plan"], "gold");

    // alice is on no plan: default takes her message.
    let one = |number: &str| json!({"sms": {"message": {"text": "Plan", "pushtype": "alert"}, "recipients": {"gsm": [{"value": number}]}}});
    settings_read().await;
    let (_, shipped) = app.json(Method::POST, "/send", Some(one("33612345601"))).await;
    // On gold, her messages go to A alone, where nothing listens: they wait, and say why.
    account_commands::account(&app.db(), AccountAction::Plan { name: "alice".into(), plan: "gold".into() })
        .await
        .unwrap();
    settings_read().await;
    let (_, on_gold) = app.json(Method::POST, "/send", Some(one("33612345602"))).await;
    let start = Instant::now();
    loop {
        let (_, first) =
            app.json(Method::GET, &format!("/campaign/{}", shipped["ticket"].as_str().unwrap()), None).await;
        let (_, second) =
            app.json(Method::GET, &format!("/campaign/{}", on_gold["ticket"].as_str().unwrap()), None).await;
        if first["campaign"][0]["delivered"] == 1 && second["campaign"][0]["waiting"] == "A" {
            assert_eq!(second["campaign"][0]["pending"], 1);
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "shipped through default, gold waiting for A: {first} {second}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
