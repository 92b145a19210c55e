//! The campaign studio's sending options: smart encoding (`encoding: gsm`), the validity
//! period handed to the carrier, and pausing, resuming and cancelling a sending campaign, seen
//! as a client and its recipients see them (the API, and what the built-in SMSC received).

use reqwest::Method;
use serde_json::{Value, json};
use texto_server::{OperatorAction, account_commands};

use crate::{
    delivery::{quick_app, received, send, settled, until},
    helpers::TestApp,
};

/// A French text of two UCS-2 parts that GSM twins fit in one.
const FRENCH: &str =
    "Fête d\u{2019}été : –20 % sur les crêpes… Venez goûter nos nouveautés, cœur fondant, tôt ce week-end !";

fn sms(message: Value, numbers: &[&str]) -> Value {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n})).collect();
    json!({"sms": {"message": message, "recipients": {"gsm": gsm}}})
}

#[tokio::test]
async fn gsm_encoding_sends_the_twins_in_one_part_and_says_what_it_replaced() {
    let app = quick_app().await;
    let message = json!({"text": FRENCH, "pushtype": "alert"});
    let (_, plain) = app.json(Method::POST, "/send/simulate", Some(sms(message, &["33612345678"]))).await;
    assert!(plain.get("replaced").is_none(), "no smart encoding asked: the answer is SMSFactor's: {plain}");
    let message = json!({"text": FRENCH, "pushtype": "alert", "encoding": "gsm"});
    let (status, simulated) = app.json(Method::POST, "/send/simulate", Some(sms(message, &["33612345678"]))).await;
    assert_eq!(status, 200, "{simulated}");
    assert_eq!((simulated["replaced"].as_i64(), simulated["parts_saved"].as_i64()), (Some(8), Some(1)));
    assert!(simulated["cost"].as_f64() < plain["cost"].as_f64(), "one part costs less than two");

    let ticket = send(&app, FRENCH, &["33612345611"], json!({"encoding": "gsm"})).await;
    settled(&app, &ticket).await;
    let got = received(&app, "33612345611").await;
    assert_eq!(got[0]["data_coding"], 0, "GSM 03.38: {got:?}");
    assert_eq!(got[0]["parts"], 1);
    assert!(got[0]["text"].as_str().is_some_and(|t| t.starts_with("Fete d'été : -20 % sur les crepes...")), "{got:?}");

    let body = "<sms><message><text>Cœur</text><pushtype>alert</pushtype><encoding>gsm</encoding></message>\
                <recipients><gsm>33612345678</gsm></recipients></sms>";
    let (status, xml) = app.xml(Method::POST, "/send/simulate", Some(body)).await;
    assert_eq!(status, 200, "{xml}");
    assert!(xml.contains("<replaced>1</replaced>") && xml.contains("<parts_saved>0</parts_saved>"), "{xml}");
}

#[tokio::test]
async fn a_bad_encoding_or_validity_is_refused_with_its_path() {
    let app = quick_app().await;
    for (extra, path) in [
        (json!({"encoding": "latin1"}), "sms.message.encoding"),
        (json!({"encoding": "gsm", "unicode": 1}), "sms.message.encoding"),
        (json!({"validity": 2}), "sms.message.validity"),
        (json!({"validity": 5000}), "sms.message.validity"),
    ] {
        let mut message = json!({"text": "Bonjour", "pushtype": "alert"});
        message.as_object_mut().expect("an object").extend(extra.as_object().expect("an object").clone());
        let (status, body) = app.json(Method::POST, "/send", Some(sms(message, &["33612345678"]))).await;
        assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{body}");
        assert!(body["details"].to_string().contains(path), "{body}");
    }
}

#[tokio::test]
async fn the_validity_goes_to_the_carrier_and_an_expired_message_says_so() {
    let app = quick_app().await;
    // The simulator lets a number ending in 98 expire.
    let ticket = send(&app, "Code 1234", &["33612345698", "33612345612"], json!({"validity": 90})).await;
    let campaign = settled(&app, &ticket).await;
    assert_eq!((campaign["validity"].as_i64(), campaign["expired"].as_i64()), (Some(90), Some(1)), "{campaign}");
    for number in ["33612345698", "33612345612"] {
        assert_eq!(received(&app, number).await[0]["validity_period"], "000000013000000R");
    }
    let ticket = send(&app, "Code 5678", &["33612345613"], json!({})).await;
    let campaign = settled(&app, &ticket).await;
    assert!(campaign.get("validity").is_none(), "{campaign}");
    assert_eq!(received(&app, "33612345613").await[0]["validity_period"], "", "the SMSC's default");
}

/// The balance `GET /credits` shows.
async fn credits(app: &TestApp) -> Value {
    app.json(Method::GET, "/credits", None).await.1["credits"].clone()
}

/// Starts (or, with 0 seconds, ends) a throttling outage of the built-in SMSC.
async fn throttle(app: &TestApp, operator: &str, seconds: u64) {
    let outage = json!({"seconds": seconds, "mode": "throttle"});
    let (status, body) = app.json_as(operator, Method::POST, "/simulator/outage", Some(outage)).await;
    assert_eq!(status, 200, "{body}");
}

/// The campaign's status as `GET /campaign/:ticket` shows it.
async fn status(app: &TestApp, ticket: &str) -> Value {
    app.json(Method::GET, &format!("/campaign/{ticket}"), None).await.1["campaign"][0]["status"].clone()
}

#[tokio::test]
async fn a_paused_campaign_hands_nothing_over_until_it_resumes() {
    let app = quick_app().await;
    let operator = account_commands::operator(&app.db(), OperatorAction::Create { name: "Night shift".into() })
        .await
        .expect("an operator");
    throttle(&app, &operator, 60).await;
    let numbers = ["33612345621", "33612345622", "33612345623"];
    let ticket = send(&app, "Rappel", &numbers, json!({})).await;
    until("the campaign sending", || async { (status(&app, &ticket).await == "Sending").then_some(()) }).await;

    let path = |what: &str| format!("/campaign/{ticket}/{what}");
    let (code, paused) = app.json(Method::PUT, &path("pause"), None).await;
    assert_eq!((code, paused["campaign"][0]["status"].as_str()), (200, Some("Paused")), "{paused}");
    let (code, again) = app.json(Method::PUT, &path("pause"), None).await;
    assert_eq!((code, again["status"].as_i64()), (422, Some(-7)), "{again}");
    // A wave already taken when the pause came is handed over (docs/api/send.md): under the
    // throttle it is refused and queued again. Wait for it before the throttle lifts, or on a
    // slow machine it would still be on its way and go out.
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    throttle(&app, &operator, 0).await;
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    for number in numbers {
        assert!(received(&app, number).await.is_empty(), "no wave of a paused campaign");
    }
    assert_eq!(app.json(Method::GET, "/campaigns?length=5", None).await.1["campaigns"][0]["status"], "Paused");

    let (code, resumed) = app.json(Method::PUT, &path("resume"), None).await;
    assert_eq!((code, resumed["campaign"][0]["status"].as_str()), (200, Some("Sending")), "{resumed}");
    let campaign = settled(&app, &ticket).await;
    assert_eq!(campaign["delivered"], 3, "{campaign}");
    let (code, sent) = app.json(Method::PUT, &path("resume"), None).await;
    assert_eq!((code, sent["status"].as_i64()), (422, Some(-7)), "a sent campaign is not paused: {sent}");
    let (code, sent) = app.json(Method::PUT, &path("pause"), None).await;
    assert_eq!((code, sent["status"].as_i64()), (422, Some(-7)), "a sent campaign does not pause: {sent}");
}

#[tokio::test]
async fn cancelling_a_paused_campaign_refunds_what_it_did_not_hand_over() {
    let app = quick_app().await;
    let operator = account_commands::operator(&app.db(), OperatorAction::Create { name: "Night shift".into() })
        .await
        .expect("an operator");
    let before = credits(&app).await;
    throttle(&app, &operator, 60).await;
    let ticket = send(&app, "Rappel", &["33612345631", "33612345632"], json!({})).await;
    until("the campaign sending", || async { (status(&app, &ticket).await == "Sending").then_some(()) }).await;
    let (code, body) = app.json(Method::DELETE, &format!("/send/{ticket}"), None).await;
    assert_eq!((code, body["status"].as_i64()), (422, Some(-7)), "a sending campaign is paused first: {body}");
    assert_eq!(app.json(Method::PUT, &format!("/campaign/{ticket}/pause"), None).await.0, 200);
    // The wave that was being tried when it paused is given back first.
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let (code, body) = app.json(Method::DELETE, &format!("/send/{ticket}"), None).await;
    assert_eq!(code, 200, "{body}");
    assert_eq!(credits(&app).await, before, "nothing was handed over: all of it comes back");
    assert_eq!(status(&app, &ticket).await, "Cancelled");
    throttle(&app, &operator, 0).await;
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    assert!(received(&app, "33612345631").await.is_empty(), "a cancelled campaign never goes");
    let (code, body) = app.json(Method::DELETE, &format!("/send/{ticket}"), None).await;
    assert_eq!((code, body["status"].as_i64()), (422, Some(-7)), "refunded once: {body}");
}

#[tokio::test]
async fn another_account_cannot_pause_or_resume_a_campaign() {
    let app = quick_app().await;
    let ticket = send(&app, "Rappel", &["33612345641"], json!({})).await;
    let bob = crate::helpers::account(&app.db(), "bob", 10.0).await;
    for what in ["pause", "resume"] {
        let (code, body) = app.json_as(&bob, Method::PUT, &format!("/campaign/{ticket}/{what}"), None).await;
        assert_eq!((code, body["status"].as_i64()), (404, Some(-5)), "{body}");
    }
}

#[tokio::test]
async fn templates_are_kept_for_the_team_checked_as_a_send_and_private_to_the_account() {
    let app = quick_app().await;
    let soldes = json!({"template": {"name": "Soldes d'hiver", "text": "Soldes -20 % <-short->", "pushtype": "marketing",
        "sender": "Boutique", "links": ["https://example.com/soldes"]}});
    let (status, created) = app.json(Method::POST, "/template", Some(soldes)).await;
    assert_eq!(status, 200, "{created}");
    let template = &created["template"];
    let id = template["id"].as_str().expect("an id").to_owned();
    assert_eq!(
        (template["pushtype"].as_str(), template["author"].as_str()),
        (Some("marketing"), Some("token \"Tests\""))
    );
    assert_eq!(template["links"], json!(["https://example.com/soldes"]));

    let rappel = json!({"template": {"name": "Rappel", "text": "Votre rendez-vous demain"}});
    let (_, second) = app.json(Method::POST, "/template", Some(rappel)).await;
    assert_eq!(second["template"]["pushtype"], "alert", "alert unless said");
    let (_, all) = app.json(Method::GET, "/templates", None).await;
    let names: Vec<&str> =
        all["templates"].as_array().expect("templates").iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["Rappel", "Soldes d'hiver"], "by name");

    let changed = json!({"template": {"name": "Soldes d'hiver", "text": "Soldes -30 %", "pushtype": "marketing"}});
    let (status, updated) = app.json(Method::PUT, &format!("/template/{id}"), Some(changed)).await;
    assert_eq!((status, updated["template"]["text"].as_str()), (200, Some("Soldes -30 %")), "{updated}");
    let (_, xml) = app.xml(Method::GET, &format!("/template/{id}"), None).await;
    assert!(xml.contains("<name>Soldes d&apos;hiver</name>") || xml.contains("<name>Soldes d'hiver</name>"), "{xml}");

    // Checked as a send's message is: every problem, under template.
    let bad = json!({"template": {"text": "Go <-short->", "pushtype": "promo"}});
    let (status, refused) = app.json(Method::POST, "/template", Some(bad)).await;
    assert_eq!((status, refused["status"].as_i64()), (422, Some(-7)), "{refused}");
    for path in ["template.name", "template.pushtype", "template.links"] {
        assert!(refused["details"].to_string().contains(path), "{path}: {refused}");
    }
    let xml_body = "<template><name>Alerte</name><text>Code 1234</text></template>";
    let (status, xml) = app.xml(Method::POST, "/template", Some(xml_body)).await;
    assert_eq!(status, 200, "{xml}");

    // Another account sees none of them and cannot change or delete them.
    let bob = crate::helpers::account(&app.db(), "bob", 10.0).await;
    let (_, theirs) = app.json_as(&bob, Method::GET, "/templates", None).await;
    assert_eq!(theirs["templates"], json!([]), "{theirs}");
    for method in [Method::GET, Method::DELETE] {
        let (status, body) = app.json_as(&bob, method, &format!("/template/{id}"), None).await;
        assert_eq!((status, body["status"].as_i64()), (404, Some(-5)), "{body}");
    }
    let (status, _) = app
        .json_as(
            &bob,
            Method::PUT,
            &format!("/template/{id}"),
            Some(json!({"template":
        {"name": "Pris", "text": "Pris"}})),
        )
        .await;
    assert_eq!(status, 404);

    let (status, _) = app.json(Method::DELETE, &format!("/template/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(app.json(Method::GET, &format!("/template/{id}"), None).await.0, 404);
}

#[tokio::test]
async fn a_campaign_records_the_account_s_template_it_started_from() {
    let app = quick_app().await;
    let (_, created) = app
        .json(Method::POST, "/template", Some(json!({"template": {"name": "Rappel", "text": "Votre rendez-vous"}})))
        .await;
    let template = created["template"]["id"].as_str().expect("an id").to_owned();
    let ticket = send(&app, "Votre rendez-vous demain", &["33612345661"], json!({"template": template})).await;
    let (_, shown) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert_eq!(shown["campaign"][0]["template"].as_str(), Some(template.as_str()), "{shown}");

    let bob = crate::helpers::account(&app.db(), "bob", 10.0).await;
    let message = json!({"text": "Pris", "pushtype": "alert", "template": template});
    let (status, body) = app
        .json_as(
            &bob,
            Method::POST,
            "/send",
            Some(json!({"sms": {"message": message, "recipients": {"gsm": [{"value": "33612345662"}]}}})),
        )
        .await;
    assert_eq!(status, 200, "another account's template is not recorded, the send goes on: {body}");
    let ticket = body["ticket"].as_str().expect("a ticket");
    let (_, theirs) = app.json_as(&bob, Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert!(theirs["campaign"][0].get("template").is_none(), "{theirs}");
    let message = json!({"text": "Ancien client", "pushtype": "alert", "utm": "not an object"});
    let (status, body) = app
        .json(
            Method::POST,
            "/send",
            Some(json!({"sms": {"message": message, "recipients": {"gsm": [{"value": "33612345663"}]}}})),
        )
        .await;
    assert_eq!(status, 200, "a utm that is not an object is left out: {body}");
}
