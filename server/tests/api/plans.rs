//! Price plans: an account on a plan is charged by it in simulations and sends,
//! `GET /prices` describes it, and a change reaches the running texto within a second.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{Value, json};
use texto_server::{AccountAction, OperatorAction, PlanAction, account_commands, plan_commands};

use crate::helpers::spawn_app;

fn sms(numbers: &[&str]) -> Value {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n})).collect();
    json!({"sms": {"message": {"text": "Rendez-vous demain 9h", "pushtype": "alert"}, "recipients": {"gsm": gsm}}})
}

fn credits(amount: &str) -> texto_core::Credits {
    texto_core::Credits::from_f64(amount.parse().unwrap()).unwrap()
}

/// France, Belgium and Germany: shipped at 1 + 1.5 + 1.5.
const NUMBERS: [&str; 3] = ["33612345678", "32470123456", "4915123456789"];

/// Polls the simulation's cost until it is `wanted` (the plans are read again each second; the
/// bound is a loaded machine's).
async fn cost_becomes(app: &crate::helpers::TestApp, wanted: f64) {
    let start = Instant::now();
    loop {
        let (status, body) = app.json(Method::POST, "/send/simulate", Some(sms(&NUMBERS))).await;
        assert_eq!(status, 200, "{body}");
        if body["cost"].as_f64() == Some(wanted) {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the cost is still {} instead of {wanted}", body["cost"]);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn an_accounts_plan_prices_its_simulations_sends_and_prices_answer() {
    let app = spawn_app().await;
    let (status, shipped) = app.json(Method::GET, "/prices", None).await;
    assert_eq!(status, 200, "{shipped}");
    assert_eq!((shipped["plan"].as_str(), shipped["other"].as_f64()), (Some("shipped"), Some(2.5)));
    assert!(shipped["countries"].as_array().unwrap().contains(&json!({"country": "FR", "price": 1.0})));
    cost_becomes(&app, 4.0).await;

    let set = PlanAction::Set {
        name: "partner".into(),
        countries: vec![
            (texto_core::Country::from_iso2("FR").unwrap(), credits("0.5")),
            (texto_core::Country::from_iso2("BE").unwrap(), credits("0.75")),
        ],
        other: credits("3"),
    };
    let saved = plan_commands::plan(&app.db(), set).await.expect("the plan is saved");
    assert_eq!(saved, "plan partner saved: BE=0.75 FR=0.5 other=3");
    let wrong =
        account_commands::account(&app.db(), AccountAction::Plan { name: "alice".into(), plan: "gold".into() }).await;
    assert!(wrong.is_err(), "an unknown plan is refused");
    account_commands::account(&app.db(), AccountAction::Plan { name: "alice".into(), plan: "partner".into() })
        .await
        .expect("alice is on the plan");

    cost_becomes(&app, 4.25).await;
    let (_, prices) = app.json(Method::GET, "/prices", None).await;
    assert_eq!(prices["plan"], "partner");
    assert_eq!(prices["other"].as_f64(), Some(3.0));
    assert_eq!(prices["countries"], json!([{"country": "BE", "price": 0.75}, {"country": "FR", "price": 0.5}]));
    let (_, xml) = app.xml(Method::GET, "/prices", None).await;
    assert!(xml.contains("<plan>partner</plan>"), "{xml}");

    let (status, sent) = app.json(Method::POST, "/send", Some(sms(&NUMBERS))).await;
    assert_eq!(status, 200, "{sent}");
    assert_eq!((sent["cost"].as_f64(), sent["credits"].as_f64()), (Some(4.25), Some(995.75)));
    let (_, balance) = app.json(Method::GET, "/credits", None).await;
    assert_eq!(balance["credits"], "995.75", "the debit is the plan's");

    account_commands::account(&app.db(), AccountAction::Plan { name: "alice".into(), plan: "shipped".into() })
        .await
        .expect("back to the shipped prices");
    cost_becomes(&app, 4.0).await;
}

#[tokio::test]
async fn the_console_writes_a_plan_that_prices_its_accounts_and_lists_every_plan_with_its_prices() {
    let app = spawn_app().await;
    let op =
        account_commands::operator(&app.db(), OperatorAction::Create { name: "Night shift".into() }).await.unwrap();
    let partner = json!({"countries": [{"country": "fr", "price": 0.5}, {"country": "BE", "price": 0.75}], "other": 3});
    let (status, _) = app.json(Method::PUT, "/operator/plan/partner", Some(partner.clone())).await;
    assert_eq!(status, 403, "an account's token may not");
    let wrong = [
        ("shipped", partner.clone(), "name"),
        ("partner", json!({"countries": [{"country": "XX", "price": 1}], "other": 3}), "countries[0].country"),
        ("partner", json!({"countries": [{"country": "FR", "price": -1}], "other": 3}), "countries[0].price"),
        ("partner", json!({"countries": []}), "other"),
    ];
    for (name, body, field) in wrong {
        let (status, answer) = app.json_as(&op, Method::PUT, &format!("/operator/plan/{name}"), Some(body)).await;
        assert_eq!((status, answer["status"].as_i64()), (422, Some(-7)), "{answer}");
        assert_eq!(answer["errors"][0]["path"], field, "{answer}");
    }
    let (status, answer) = app.json_as(&op, Method::PUT, "/operator/plan/partner", Some(partner)).await;
    assert_eq!(status, 200, "{answer}");

    let (_, plans) = app.json_as(&op, Method::GET, "/operator/plans", None).await;
    assert_eq!(plans["plans"], json!(["shipped", "partner"]));
    assert_eq!(plans["prices"][0]["other"].as_f64(), Some(2.5), "shipped first: {plans}");
    assert_eq!(
        plans["prices"][1],
        json!({"name": "partner", "countries": [{"country": "BE", "price": 0.75}, {"country": "FR", "price": 0.5}], "other": 3.0})
    );
    let listing = plan_commands::plan(&app.db(), PlanAction::List).await.unwrap();
    assert!(listing.contains("partner: BE=0.75 FR=0.5 other=3"), "the command line sees it: {listing}");

    let (_, alice) = app.json_as(&op, Method::GET, "/operator/accounts", None).await;
    let alice = alice["accounts"].as_array().unwrap().iter().find(|a| a["name"] == "alice").unwrap()["id"].clone();
    let (status, _) =
        app.json_as(&op, Method::PUT, &format!("/operator/account/{alice}"), Some(json!({"plan": "partner"}))).await;
    assert_eq!(status, 200);
    cost_becomes(&app, 4.25).await;
    let (_, log) = app.json_as(&op, Method::GET, "/operator/audit", None).await;
    assert!(log.to_string().contains("plan partner saved: BE=0.75 FR=0.5 other=3"), "{log}");
}
