//! Merge fields: a contact card's `[firstname]`, `[lastname]` and `[field:name]` beside a list
//! entry's `[info1]`…`[info4]`, each with a fallback; each recipient's message priced after
//! merging; an unknown field refused with its name.

use chrono::Utc;
use reqwest::Method;
use serde_json::{Value, json};
use texto_core::format_paris;

use crate::{
    delivery::{quick_app, received, send, until},
    helpers::TestApp,
};

async fn card(app: &TestApp, number: &str, contact: Value) {
    let (status, body) = app.json(Method::PUT, &format!("/contact/{number}"), Some(json!({"contact": contact}))).await;
    assert_eq!(status, 200, "{body}");
}

async fn simulate(app: &TestApp, text: &str, numbers: &[&str]) -> (u16, Value) {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n})).collect();
    let body = json!({"sms": {"message": {"text": text, "pushtype": "alert"}, "recipients": {"gsm": gsm}}});
    let (status, answer) = app.json(Method::POST, "/send/simulate", Some(body)).await;
    (status, answer)
}

/// The text the simulator received for `number`, once it did.
async fn text_received(app: &TestApp, number: &str) -> String {
    let message = until("the message", || async { received(app, number).await.into_iter().next() }).await;
    message["text"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn each_recipient_gets_its_card_s_values_or_the_fallbacks_and_pays_for_its_own_parts() {
    let app = quick_app().await;
    card(&app, "33612345810", json!({"firstname": "Ada", "fields": {"ville": "Lyon"}})).await;
    // A long town makes this contact's message two parts.
    card(&app, "33612345811", json!({"firstname": "Léo", "fields": {"ville": "L".repeat(150)}})).await;
    let text = "Bonjour [firstname|client] de [field:ville|France]";

    let (status, one) = simulate(&app, "Bonjour", &["33612345812"]).await;
    assert_eq!(status, 200, "{one}");
    let part = one["cost"].as_f64().expect("a cost");
    let (status, merged) = simulate(&app, text, &["33612345810", "33612345811", "33612345812"]).await;
    assert_eq!(status, 200, "{merged}");
    assert_eq!(merged["sent"], 3, "{merged}");
    let cost = merged["cost"].as_f64().expect("a cost");
    assert!((cost - 4.0 * part).abs() < 1e-9, "1 + 2 + 1 parts at {part}: {merged}");

    send(&app, text, &["33612345810", "33612345811", "33612345812"], json!({})).await;
    assert_eq!(text_received(&app, "33612345810").await, "Bonjour Ada de Lyon");
    assert_eq!(text_received(&app, "33612345812").await, "Bonjour client de France");
    assert!(text_received(&app, "33612345811").await.starts_with("Bonjour Léo de LLL"));

    // The history shows each message as its recipient read it.
    let today = format_paris(Utc::now())[..10].to_owned();
    let path = format!("/messages?date_start={today}&date_end={today} 23:59:59");
    let (status, history) = app.json(Method::GET, &path, None).await;
    assert_eq!(status, 200, "{history}");
    let texts: Vec<&str> =
        history["messages"].as_array().into_iter().flatten().filter_map(|m| m["message"].as_str()).collect();
    assert!(texts.contains(&"Bonjour Ada de Lyon"), "{history}");
}

#[tokio::test]
async fn contacts_that_share_their_values_each_get_them_and_each_is_priced_for_its_own() {
    let app = quick_app().await;
    // Three cards alike, one alike but for a town that makes two parts, one with a quote and
    // a backslash in its stored JSON, one with a first name only, and one number without a card.
    for number in ["33612345850", "33612345851", "33612345852"] {
        card(&app, number, json!({"firstname": "Léa", "fields": {"ville": "Nantes"}})).await;
    }
    card(&app, "33612345853", json!({"firstname": "Léa", "fields": {"ville": "N".repeat(150)}})).await;
    card(&app, "33612345854", json!({"firstname": "Noé", "fields": {"ville": "Le \"Port\" \\ Est"}})).await;
    card(&app, "33612345855", json!({"firstname": "Léa"})).await;
    let numbers =
        ["33612345850", "33612345851", "33612345852", "33612345853", "33612345854", "33612345855", "33612345856"];
    let text = "Bonjour [firstname|client] de [field:ville|France]";

    let (status, one) = simulate(&app, "Bonjour", &["33612345856"]).await;
    assert_eq!(status, 200, "{one}");
    let part = one["cost"].as_f64().expect("a cost");
    let (status, merged) = simulate(&app, text, &numbers).await;
    assert_eq!(status, 200, "{merged}");
    let cost = merged["cost"].as_f64().expect("a cost");
    assert!((cost - 8.0 * part).abs() < 1e-9, "one part each but two for the long town, at {part}: {merged}");

    send(&app, text, &numbers, json!({})).await;
    for number in ["33612345850", "33612345851", "33612345852"] {
        assert_eq!(text_received(&app, number).await, "Bonjour Léa de Nantes");
    }
    assert!(text_received(&app, "33612345853").await.starts_with("Bonjour Léa de NNN"));
    assert_eq!(text_received(&app, "33612345854").await, r#"Bonjour Noé de Le "Port" \ Est"#);
    assert_eq!(text_received(&app, "33612345855").await, "Bonjour Léa de France");
    assert_eq!(text_received(&app, "33612345856").await, "Bonjour client de France");
}

#[tokio::test]
async fn a_list_entry_s_fields_and_its_card_merge_together() {
    let app = quick_app().await;
    card(&app, "33612345820", json!({"lastname": "Lovelace"})).await;
    let gsm = json!([{"value": "33612345820", "info1": "Ada"}, {"value": "33612345821", "info1": "Paul"}]);
    let (status, list) =
        app.json(Method::POST, "/list", Some(json!({"list": {"name": "Clients", "contacts": {"gsm": gsm}}}))).await;
    assert_eq!(status, 200, "{list}");
    let body = json!({"sms": {"message": {"text": "Bonjour [info1] [lastname|]!", "pushtype": "alert"}, "lists": [{"value": list["id"]}]}});
    let (status, sent) = app.json(Method::POST, "/send/lists", Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    assert_eq!(text_received(&app, "33612345820").await, "Bonjour Ada Lovelace!");
    assert_eq!(text_received(&app, "33612345821").await, "Bonjour Paul !");
}

#[tokio::test]
async fn a_field_no_contact_has_or_no_field_may_have_is_refused_by_name() {
    let app = quick_app().await;
    card(&app, "33612345830", json!({"fields": {"ville": "Lyon"}})).await;
    for (text, named) in [("Code [field:code_promo]", "[field:code_promo]"), ("Ville [field:Ville]", "[field:Ville]")] {
        let (status, refused) = simulate(&app, text, &["33612345830"]).await;
        assert_eq!((status, refused["status"].as_i64()), (422, Some(-7)), "{text}: {refused}");
        assert!(refused.to_string().contains(named), "{text}: {refused}");
    }
    // Brackets that name no field are text, as SMSFactor sends them.
    let (status, plain) = simulate(&app, "[URGENT] [info5] [Firstname]", &["33612345830"]).await;
    assert_eq!(status, 200, "{plain}");
    send(&app, "[URGENT] [field:ville]", &["33612345830"], json!({})).await;
    assert_eq!(text_received(&app, "33612345830").await, "[URGENT] Lyon");
}

#[tokio::test]
async fn a_test_send_reads_the_first_number_s_card() {
    let app = quick_app().await;
    card(&app, "33612345840", json!({"firstname": "Ada"})).await;
    let draft = json!({"sms": {"message": {"text": "Bonjour [firstname|vous]", "pushtype": "alert"},
        "recipients": {"gsm": [{"value": "33612345840"}]}}});
    let (status, saved) = app.json(Method::POST, "/campaign/draft", Some(draft)).await;
    assert_eq!(status, 200, "{saved}");
    let id = saved["draft"]["id"].as_str().expect("a draft id");
    let (status, tested) =
        app.json(Method::POST, &format!("/campaign/{id}/test"), Some(json!({"numbers": ["33612345841"]}))).await;
    assert_eq!(status, 200, "{tested}");
    assert_eq!(text_received(&app, "33612345841").await, "Bonjour Ada");
}

#[tokio::test]
async fn another_account_s_card_of_the_same_number_is_never_merged_nor_makes_a_field_known() {
    let app = quick_app().await;
    let mallory = crate::helpers::account(&app.db(), "mallory", 10.0).await;
    let card = json!({"contact": {"firstname": "Eve", "fields": {"secret": "x"}}});
    let (status, body) = app.json_as(&mallory, Method::PUT, "/contact/33612345860", Some(card)).await;
    assert_eq!(status, 200, "{body}");
    // The first account has no card for the number, and no contact with the field.
    let (status, refused) = simulate(&app, "Code [field:secret]", &["33612345860"]).await;
    assert_eq!((status, refused["status"].as_i64()), (422, Some(-7)), "{refused}");
    send(&app, "Bonjour [firstname|client]", &["33612345860"], json!({})).await;
    assert_eq!(text_received(&app, "33612345860").await, "Bonjour client");
}
