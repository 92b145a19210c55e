//! Registered sender IDs: once the operator registers senders for an account, its sends may
//! only name them, and one naming none goes from the account's default.

use reqwest::Method;
use serde_json::{Value, json};
use texto_server::{SenderAction, operator::sender_commands};

use crate::{
    delivery::{quick_app, received, send, settled},
    helpers::TestApp,
};

async fn register(app: &TestApp, name: &str) {
    let action = SenderAction::Add { account: "alice".into(), name: name.into() };
    sender_commands::sender(&app.db(), action).await.expect("registered");
}

fn from(sender: Option<&str>) -> Value {
    let mut message = json!({"text": "Bonjour", "pushtype": "alert"});
    if let Some(sender) = sender {
        message["sender"] = json!(sender);
    }
    json!({"sms": {"message": message, "recipients": {"gsm": [{"value": "33612345720"}]}}})
}

#[tokio::test]
async fn only_registered_senders_go_and_a_send_naming_none_goes_from_the_default() {
    let app = quick_app().await;
    let (status, free) = app.json(Method::POST, "/send/simulate", Some(from(Some("Promo")))).await;
    assert_eq!(status, 200, "any sender while none is registered: {free}");
    assert_eq!(app.json(Method::GET, "/senders", None).await.1["senders"], json!([]));

    register(&app, "Boutique").await;
    register(&app, "Atelier").await;
    let (status, refused) = app.json(Method::POST, "/send", Some(from(Some("Promo")))).await;
    assert_eq!((status, refused["status"].as_i64()), (422, Some(-7)), "{refused}");
    assert!(refused["details"].to_string().contains("\\\"Promo\\\" is not a registered sender"), "{refused}");
    let (status, _) = app.json(Method::POST, "/send/simulate", Some(from(Some("boutique")))).await;
    assert_eq!(status, 200, "case does not matter");

    let (status, set) = app.json(Method::PUT, "/senders/default", Some(json!({"sender": "Atelier"}))).await;
    assert_eq!(status, 200, "{set}");
    assert_eq!(set["senders"], json!([{"name": "Atelier", "default": 1}, {"name": "Boutique", "default": 0}]));
    let ticket = send(&app, "Votre commande est prête", &["33612345721"], json!({})).await;
    settled(&app, &ticket).await;
    assert_eq!(received(&app, "33612345721").await[0]["source_addr"], "Atelier", "from the default");
    let (_, shown) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert_eq!(shown["campaign"][0]["sender"], "Atelier");

    // Named in any case, the registered spelling goes.
    let ticket = send(&app, "Votre colis", &["33612345722"], json!({"sender": "BOUTIQUE"})).await;
    settled(&app, &ticket).await;
    assert_eq!(received(&app, "33612345722").await[0]["source_addr"], "Boutique");
    // An answer in the inbox goes from the number the customer wrote to, whatever the default.
    let (status, _) = app
        .json(Method::POST, "/simulator/mo", Some(json!({"from": "33612345721", "text": "Merci, à quelle heure ?"})))
        .await;
    assert_eq!(status, 200);
    crate::delivery::until("the reply in the inbox", || async {
        let reply = json!({"reply": {"text": "Dès 9h !"}});
        let (status, _) = app.json(Method::POST, "/conversation/33612345721/reply", Some(reply)).await;
        (status == 200).then_some(())
    })
    .await;
    let answer = crate::delivery::until("the answer at the SMSC", || async {
        received(&app, "33612345721").await.into_iter().find(|m| m["text"] == "Dès 9h !")
    })
    .await;
    assert_eq!(answer["source_addr"], "36180", "{answer}");

    let (status, unknown) = app.json(Method::PUT, "/senders/default", Some(json!({"sender": "Promo"}))).await;
    assert_eq!((status, unknown["status"].as_i64()), (422, Some(-7)), "{unknown}");
    let (status, none) = app.json(Method::PUT, "/senders/default", Some(json!({"sender": null}))).await;
    assert_eq!((status, none["senders"][0]["default"].as_i64()), (200, Some(0)), "{none}");

    // Another account sees none of them, and is not bound by them.
    let bob = crate::helpers::account(&app.db(), "bob", 10.0).await;
    assert_eq!(app.json_as(&bob, Method::GET, "/senders", None).await.1["senders"], json!([]));
    let (status, _) = app.json_as(&bob, Method::POST, "/send/simulate", Some(from(Some("Promo")))).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn the_operator_registers_and_unregisters_senders_from_the_console() {
    let app = quick_app().await;
    let op = texto_server::account_commands::operator(
        &app.db(),
        texto_server::OperatorAction::Create { name: "Night shift".into() },
    )
    .await
    .expect("an operator");
    let (_, accounts) = app.json_as(&op, Method::GET, "/operator/accounts", None).await;
    let alice = accounts["accounts"].as_array().unwrap().iter().find(|a| a["name"] == "alice").expect("alice")["id"]
        .as_i64()
        .expect("an id");
    let path = format!("/operator/account/{alice}/senders");
    let (status, none) = app.json_as(&op, Method::GET, &path, None).await;
    assert_eq!((status, none["senders"].as_array().map(Vec::len)), (200, Some(0)), "{none}");

    let (status, registered) = app.json_as(&op, Method::POST, &path, Some(json!({"sender": "Boutique"}))).await;
    assert_eq!(status, 200, "{registered}");
    assert_eq!(registered["senders"], json!([{"name": "Boutique", "default": 0}]));
    // The account's sends are bound at once.
    let (status, refused) = app.json(Method::POST, "/send/simulate", Some(from(Some("Autre")))).await;
    assert_eq!((status, refused["status"].as_i64()), (422, Some(-7)), "{refused}");
    let (status, bad) = app.json_as(&op, Method::POST, &path, Some(json!({"sender": "a b"}))).await;
    assert_eq!((status, bad["errors"][0]["path"].as_str()), (422, Some("sender")), "{bad}");
    // An account's token may not.
    let (status, _) = app.json(Method::POST, &path, Some(json!({"sender": "Pirate"}))).await;
    assert_eq!(status, 403);

    let gone = format!("/operator/account/{alice}/sender/boutique");
    let (status, left) = app.json_as(&op, Method::DELETE, &gone, None).await;
    assert_eq!((status, left["senders"].as_array().map(Vec::len)), (200, Some(0)), "{left}");
    let (status, _) = app.json_as(&op, Method::DELETE, &gone, None).await;
    assert_eq!(status, 404);
    let (_, log) = app.json_as(&op, Method::GET, "/operator/audit", None).await;
    let actions: Vec<&str> = log["audit"].as_array().unwrap().iter().map(|l| l["action"].as_str().unwrap()).collect();
    assert_eq!(&actions[..2], ["sender.remove", "sender.add"], "{log}");
}
