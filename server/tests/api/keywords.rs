//! Keywords: "reply OUI to join" adds the number to a list and answers it once a
//! day; START lifts a STOP; HELP answers the help text; STOP is confirmed when the account asks;
//! the keywords and settings are checked.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    delivery::{quick_app, received, send, settled, until},
    helpers::TestApp,
};

pub(crate) async fn mo(app: &TestApp, from: &str, text: &str) {
    let (status, body) = app.json(Method::POST, "/simulator/mo", Some(json!({"from": from, "text": text}))).await;
    assert_eq!(status, 200, "{body}");
}

/// The texts the SMSC received for `number`.
async fn texts_to(app: &TestApp, number: &str) -> Vec<String> {
    received(app, number).await.iter().map(|m| m["text"].as_str().unwrap_or("").to_owned()).collect()
}

/// Waits until the SMSC has received `text` for `number`.
async fn answered(app: &TestApp, number: &str, text: &str) {
    until(&format!("{text:?} at the SMSC"), || async {
        texts_to(app, number).await.iter().any(|t| t == text).then_some(())
    })
    .await;
}

async fn blacklisted(app: &TestApp, number: &str) -> bool {
    let (_, body) = app.json(Method::GET, "/blacklist", None).await;
    body["list"].as_array().is_some_and(|list| list.iter().any(|entry| entry["destination"] == number))
}

async fn list_numbers(app: &TestApp, list: &str) -> Vec<String> {
    let (_, body) = app.json(Method::GET, &format!("/list/{list}"), None).await;
    body["list"].as_array().map_or_else(Vec::new, |contacts| {
        contacts.iter().map(|c| c["destination"].as_str().unwrap_or("").to_owned()).collect()
    })
}

/// Creates the list "Club" holding `number`; its id.
async fn club(app: &TestApp, number: &str) -> String {
    let (status, list) = app
        .json(Method::POST, "/list", Some(json!({"list": {"name": "Club", "contacts": {"gsm": [{"value": number}]}}})))
        .await;
    assert_eq!(status, 200, "{list}");
    list["id"].as_str().expect("a list id").to_owned()
}

#[tokio::test]
async fn a_keyword_adds_the_number_to_a_list_and_answers_it_once_a_day() {
    let app = quick_app().await;
    let list = club(&app, "33600000001").await;
    let rule = json!({"keyword": {"word": "Oui", "reply": "Bienvenue au club !",
        "actions": [{"type": "add_to_list", "list": list}, {"type": "tag", "value": "club"}]}});
    let (status, saved) = app.json(Method::POST, "/keyword", Some(rule)).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["keyword"]["word"], "OUI", "kept upper case: {saved}");

    let ticket = send(&app, "Rejoignez le club : répondez OUI", &["33644444444"], json!({})).await;
    settled(&app, &ticket).await;
    mo(&app, "33644444444", "oui, avec plaisir").await;
    until("the number in the list", || async {
        list_numbers(&app, &list).await.contains(&"33644444444".to_owned()).then_some(())
    })
    .await;
    answered(&app, "33644444444", "Bienvenue au club !").await;
    let (_, contact) = app.json(Method::GET, "/contact/33644444444", None).await;
    assert_eq!(contact["contact"]["tags"], json!(["club"]), "the tag action: {contact}");
    let (_, credits) = app.json(Method::GET, "/credits", None).await;

    // Again the same day: nothing more is sent, nothing charged.
    mo(&app, "33644444444", "OUÏ").await;
    until("the second reply in the inbox", || async {
        let (_, inbox) = app.json(Method::GET, "/conversations?keyword=oui", None).await;
        (inbox["conversations"][0]["unread"] == 2).then_some(())
    })
    .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let welcomes = texts_to(&app, "33644444444").await.iter().filter(|t| *t == "Bienvenue au club !").count();
    assert_eq!(welcomes, 1, "one answer per number, keyword and day");
    let (_, after) = app.json(Method::GET, "/credits", None).await;
    assert_eq!(after["credits"], credits["credits"], "nothing charged for the second");

    let (_, inbox) = app.json(Method::GET, "/conversations?keyword=NON", None).await;
    assert_eq!(inbox["conversations"].as_array().map(Vec::len), Some(0), "{inbox}");
}

#[tokio::test]
async fn a_join_keyword_adds_the_number_with_its_consent_so_marketing_that_needs_consent_reaches_it() {
    let app = quick_app().await;
    let list = club(&app, "33600000002").await;
    let rule = json!({"keyword": {"word": "club", "reply": "", "actions": [{"type": "join_list", "list": list}]}});
    let (status, saved) = app.json(Method::POST, "/keyword", Some(rule)).await;
    assert_eq!((status, saved["keyword"]["actions"][0]["type"].as_str()), (200, Some("join_list")), "{saved}");
    let (status, body) = app
        .json(Method::POST, "/keyword", Some(json!({"keyword": {"word": "VIP", "actions": [{"type": "join_list"}]}})))
        .await;
    assert_eq!(status, 422, "a join needs a list: {body}");
    assert!(body.to_string().contains("keyword.actions[0].list"), "{body}");
    let bobs = crate::helpers::another_accounts_list(&app, "33600000003").await;
    let into_bobs = json!({"keyword": {"word": "BOB", "actions": [{"type": "join_list", "list": bobs}]}});
    let (status, body) = app.json(Method::POST, "/keyword", Some(into_bobs)).await;
    assert_eq!(status, 422, "another account's list cannot be joined: {body}");
    assert!(body.to_string().contains("no such list"), "{body}");
    let (status, _) =
        app.json(Method::PUT, "/settings", Some(json!({"settings": {"marketing_needs_consent": 1}}))).await;
    assert_eq!(status, 200);

    let (_, keywords) = app.json(Method::GET, "/keywords", None).await;
    let stop = keywords["keywords"].as_array().into_iter().flatten().find(|k| k["builtin"] == "stop").expect("STOP");
    let joins_on_stop = json!({"keyword": {"actions": [{"type": "join_list", "list": list}]}});
    let (status, body) =
        app.json(Method::PUT, &format!("/keyword/{}", stop["id"].as_str().unwrap_or("")), Some(joins_on_stop)).await;
    assert_eq!(status, 422, "STOP cannot record consent: {body}");
    assert!(body.to_string().contains("keyword.actions[0].type"), "{body}");

    let ticket = send(&app, "Envoyez CLUB pour rejoindre le club", &["33655555555"], json!({})).await;
    settled(&app, &ticket).await;
    mo(&app, "33655555555", "STOP").await;
    until("the STOP", || async { blacklisted(&app, "33655555555").await.then_some(()) }).await;
    mo(&app, "33655555555", "Club !").await;
    until("the number in the list", || async {
        list_numbers(&app, &list).await.contains(&"33655555555".to_owned()).then_some(())
    })
    .await;
    assert!(!blacklisted(&app, "33655555555").await, "the later join lifts the STOP, as START would");
    let (_, contact) = app.json(Method::GET, "/contact/33655555555", None).await;
    let consent = &contact["contact"]["consent"];
    assert_eq!((consent["source"].as_str(), consent["proof"].as_str()), (Some("keyword"), Some("Club !")), "{contact}");
    assert!(consent["opt_in_date"].is_string(), "{contact}");

    let promo =
        json!({"sms": {"message": {"text": "Soirée club jeudi", "pushtype": "marketing"}, "lists": [{"value": list}]}});
    let (status, simulated) = app.json(Method::POST, "/send/lists/simulate", Some(promo)).await;
    assert_eq!(status, 200, "{simulated}");
    assert_eq!(
        (simulated["sent"].as_i64(), simulated["no_consent"].as_i64()),
        (Some(1), Some(1)),
        "the member who joined by keyword is reached, the imported one is not: {simulated}"
    );
}

#[tokio::test]
async fn stop_is_confirmed_start_lifts_it_and_help_answers_the_help_text() {
    let app = quick_app().await;
    let settings = json!({"settings": {"help_text": "Aide : appelez le 01 23 45 67 89", "stop_confirmation": 1}});
    let (status, body) = app.json(Method::PUT, "/settings", Some(settings)).await;
    assert_eq!((status, body["settings"]["stop_confirmation"].as_i64()), (200, Some(1)), "{body}");
    let ticket = send(&app, "Promo de printemps", &["33655555555"], json!({})).await;
    settled(&app, &ticket).await;

    mo(&app, "33655555555", "STOP").await;
    until("the blacklist entry", || async { blacklisted(&app, "33655555555").await.then_some(()) }).await;
    let (_, keywords) = app.json(Method::GET, "/keywords", None).await;
    let confirmation = keywords["keywords"][0]["reply"].as_str().expect("STOP's reply").to_owned();
    answered(&app, "33655555555", &confirmation).await;

    let (_, contact) = app.json(Method::GET, "/contact/33655555555", None).await;
    assert_eq!(contact["contact"]["consent"]["opt_out_source"], "keyword", "STOP is an opt-out: {contact}");
    mo(&app, "33655555555", "Unstop").await;
    until("the blacklist entry gone", || async { (!blacklisted(&app, "33655555555").await).then_some(()) }).await;
    let (_, contact) = app.json(Method::GET, "/contact/33655555555", None).await;
    let consent = &contact["contact"]["consent"];
    assert_eq!((consent["source"].as_str(), consent["proof"].as_str()), (Some("keyword"), Some("Unstop")), "{contact}");
    assert!(consent["opt_out_date"].is_null(), "the opt-in replaces the opt-out: {contact}");

    mo(&app, "33655555555", "aide").await;
    answered(&app, "33655555555", "Aide : appelez le 01 23 45 67 89").await;
}

#[tokio::test]
async fn without_a_help_text_or_confirmation_nothing_is_answered() {
    let app = quick_app().await;
    let ticket = send(&app, "Promo", &["33666666666"], json!({})).await;
    settled(&app, &ticket).await;
    mo(&app, "33666666666", "HELP").await;
    mo(&app, "33666666666", "stop").await;
    until("the blacklist entry", || async { blacklisted(&app, "33666666666").await.then_some(()) }).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(texts_to(&app, "33666666666").await, ["Promo"], "only the campaign reached the phone");
}

fn words(keywords: &Value) -> Vec<(String, String)> {
    keywords["keywords"]
        .as_array()
        .expect("keywords")
        .iter()
        .map(|k| (k["word"].as_str().unwrap_or("").to_owned(), k["builtin"].as_str().unwrap_or("").to_owned()))
        .collect()
}

#[tokio::test]
async fn keywords_are_checked_and_the_builtin_ones_stay() {
    let app = quick_app().await;
    let (status, keywords) = app.json(Method::GET, "/keywords", None).await;
    assert_eq!(status, 200, "{keywords}");
    assert_eq!(
        words(&keywords),
        [("STOP".into(), "stop".into()), ("START".into(), "start".into()), ("HELP".into(), "help".into())]
    );
    assert_eq!(keywords["keywords"][1]["synonyms"], json!(["UNSTOP", "RESUME"]));

    let refused = [
        (json!({"keyword": {"word": "arrêt"}}), "built in"),
        (json!({"keyword": {"word": "deux mots"}}), "one word"),
        (json!({"keyword": {"reply": "no word"}}), "needed"),
        (json!({"keyword": {"word": "VIP", "actions": [{"type": "tag"}]}}), "the tag"),
        (json!({"keyword": {"word": "VIP", "actions": [{"type": "add_to_list", "list": "999999"}]}}), "no such list"),
        (json!({"keyword": {"word": "VIP", "actions": [{"type": "explode"}]}}), "not an action"),
    ];
    for (body, reason) in refused {
        let (status, answer) = app.json(Method::POST, "/keyword", Some(body.clone())).await;
        assert_eq!((status, answer["status"].as_i64()), (422, Some(-7)), "{body} → {answer}");
        assert!(answer.to_string().contains(reason), "{body}: {answer} should say {reason:?}");
    }

    let (status, vip) =
        app.json(Method::POST, "/keyword", Some(json!({"keyword": {"word": "vip", "reply": "Merci"}}))).await;
    assert_eq!(status, 200, "{vip}");
    let id = vip["keyword"]["id"].as_str().expect("an id").to_owned();
    let (status, again) = app.json(Method::POST, "/keyword", Some(json!({"keyword": {"word": "VIP"}}))).await;
    assert_eq!(status, 422, "a word once per account: {again}");
    let (status, renamed) = app
        .json(
            Method::PUT,
            &format!("/keyword/{id}"),
            Some(json!({"keyword": {"word": "Gold", "actions": [{"type": "blacklist"}]}})),
        )
        .await;
    assert_eq!(status, 200, "{renamed}");
    assert_eq!(
        (renamed["keyword"]["word"].as_str(), renamed["keyword"]["reply"].as_str()),
        (Some("GOLD"), Some("Merci"))
    );
    assert_eq!(renamed["keyword"]["actions"], json!([{"type": "blacklist"}]));

    let stop_id = keywords["keywords"][0]["id"].as_str().expect("STOP's id").to_owned();
    let (status, _) = app.json(Method::DELETE, &format!("/keyword/{stop_id}"), None).await;
    assert_eq!(status, 422, "a built-in keyword stays");
    let (status, renamed) = app
        .json(Method::PUT, &format!("/keyword/{stop_id}"), Some(json!({"keyword": {"reply": "Bien reçu, au revoir."}})))
        .await;
    assert_eq!((status, renamed["keyword"]["word"].as_str()), (200, Some("STOP")), "{renamed}");

    let (status, xml) = app.xml(Method::GET, "/keywords", None).await;
    assert_eq!(status, 200);
    assert!(xml.contains("<word>GOLD</word>") && xml.contains("<word>STOP</word>"), "{xml}");

    let (status, _) = app.json(Method::DELETE, &format!("/keyword/{id}"), None).await;
    assert_eq!(status, 200);
    let (status, _) = app.json(Method::DELETE, &format!("/keyword/{id}"), None).await;
    assert_eq!(status, 404);

    let other = crate::helpers::account(&app.db(), "Bob", 10.0).await;
    let (status, _) =
        app.json_as(&other, Method::PUT, &format!("/keyword/{stop_id}"), Some(json!({"keyword": {}}))).await;
    assert_eq!(status, 404, "another account's keyword is not found");

    let (status, body) = app.json(Method::PUT, "/settings", Some(json!({"settings": {"stop_confirmation": 3}}))).await;
    assert_eq!(status, 422, "{body}");
}
