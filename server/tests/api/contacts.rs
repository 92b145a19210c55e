//! Contacts: cards with fields, tags and consent, listed with the numbers of the
//! lists and filtered; the export of everything held about a number; the erasure, which keeps
//! the campaigns' counts and the blacklist's number.

use reqwest::Method;
use serde_json::{Value, json};

use crate::delivery::{quick_app, send, settled, until};

fn numbers(page: &Value) -> Vec<String> {
    page["contacts"]
        .as_array()
        .expect("contacts")
        .iter()
        .map(|c| c["number"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[tokio::test]
async fn cards_keep_fields_tags_and_consent_and_list_with_the_lists_numbers() {
    let app = quick_app().await;
    let (status, list) = app
        .json(Method::POST, "/list", Some(json!({"list": {"name": "Clients", "contacts": {"gsm": [{"value": "33611000001"}, {"value": "33611000002"}]}}})))
        .await;
    assert_eq!(status, 200, "{list}");
    let list = list["id"].as_str().expect("a list").to_owned();
    let card = json!({"contact": {
        "firstname": "Léa", "lastname": "Martin",
        "fields": {"city": "Lyon", "birthday": "1990-04-01"},
        "tags": ["vip", "vip", "newsletter"],
        "consent": {"opt_in_date": "2026-11-02 10:00:00", "source": "form", "proof": "J'accepte de recevoir des SMS", "address": "https://shop.example/inscription"}
    }});
    let (status, saved) = app.json(Method::PUT, "/contact/33611000002", Some(card)).await;
    assert_eq!(status, 200, "{saved}");
    let saved = &saved["contacts"][0];
    assert_eq!(saved["tags"], json!(["vip", "newsletter"]), "tags once each");
    assert_eq!(saved["fields"]["city"], "Lyon");
    assert_eq!(saved["consent"]["opt_in_date"], "2026-11-02 10:00:00", "{saved}");
    assert_eq!(saved["consent"]["source"], "form");
    let (status, _) = app.json(Method::PUT, "/contact/33699000003", Some(json!({"contact": {"tags": ["vip"]}}))).await;
    assert_eq!(status, 200);

    let page = |query: &'static str| {
        let app = &app;
        async move {
            let (status, body) = app.json(Method::GET, &format!("/contacts{query}"), None).await;
            assert_eq!(status, 200, "{body}");
            body
        }
    };
    assert_eq!(numbers(&page("").await), ["33611000001", "33611000002", "33699000003"], "cards and list numbers");
    assert_eq!(numbers(&page("?tag=vip").await), ["33611000002", "33699000003"]);
    assert_eq!(numbers(&page("?consent=1").await), ["33611000002"]);
    assert_eq!(numbers(&page("?consent=0").await), ["33611000001", "33699000003"]);
    assert_eq!(numbers(&page("?search=martin").await), ["33611000002"]);
    let in_list = app.json(Method::GET, &format!("/contacts?list={list}"), None).await.1;
    assert_eq!(numbers(&in_list), ["33611000001", "33611000002"]);
    assert_eq!(page("?length=1").await["totalRecords"], 3);

    for bad in [
        json!({"contact": {"fields": {"Bad Name": "x"}}}),
        json!({"contact": {"consent": {"source": "rumour"}}}),
        json!({"contact": {"consent": {"opt_in_date": "yesterday", "source": "api"}}}),
    ] {
        let (status, body) = app.json(Method::PUT, "/contact/33611000001", Some(bad.clone())).await;
        assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{bad} → {body}");
    }
    let (status, _) = app.json(Method::PUT, "/contact/123", Some(json!({"contact": {}}))).await;
    assert_eq!(status, 422, "not a number");
}

#[tokio::test]
async fn the_export_holds_everything_and_the_erasure_removes_it_but_the_counts() {
    let app = quick_app().await;
    let number = "33622000001";
    let (_, list) = app
        .json(
            Method::POST,
            "/list",
            Some(json!({"list": {"name": "Club", "contacts": {"gsm": [{"value": number, "info1": "Paul"}]}}})),
        )
        .await;
    let list = list["id"].as_str().expect("a list").to_owned();
    app.json(
        Method::PUT,
        &format!("/contact/{number}"),
        Some(json!({"contact": {"firstname": "Paul", "tags": ["vip"]}})),
    )
    .await;
    let ticket = send(&app, "Offre du jour", &[number, "33622000002"], json!({})).await;
    let before = settled(&app, &ticket).await;
    app.json(Method::POST, "/simulator/mo", Some(json!({"from": number, "text": "STOP"}))).await;
    until("the STOP stored", || async {
        let (_, body) = app.json(Method::GET, "/blacklist", None).await;
        (body["list"].as_array().is_some_and(|l| !l.is_empty())).then_some(())
    })
    .await;

    let (status, export) = app.json(Method::GET, &format!("/contact/{number}"), None).await;
    assert_eq!(status, 200, "{export}");
    assert_eq!(export["contact"]["firstname"], "Paul");
    assert_eq!(export["lists"][0]["list_id"], list.as_str());
    assert_eq!(export["lists"][0]["info"][0], "Paul");
    assert_eq!((export["blacklisted"].as_i64(), export["npai"].as_i64()), (Some(1), Some(0)));
    assert_eq!(export["messages"][0]["message"], "Offre du jour", "{export}");
    assert_eq!(export["replies"][0]["message"], "STOP", "{export}");
    let (status, xml) = app.xml(Method::GET, &format!("/contact/{number}"), None).await;
    assert_eq!(status, 200);
    assert!(xml.contains("<firstname>Paul</firstname>"), "{xml}");

    let (status, _) = app.json(Method::DELETE, &format!("/contact/{number}"), None).await;
    assert_eq!(status, 200);
    let (status, _) = app.json(Method::GET, &format!("/contact/{number}"), None).await;
    assert_eq!(status, 404, "nothing left to export");
    let (_, list_now) = app.json(Method::GET, &format!("/list/{list}"), None).await;
    assert_eq!(list_now["list"].as_array().map(Vec::len), Some(0), "{list_now}");
    let (_, inbox) = app.json(Method::GET, "/conversations", None).await;
    assert_eq!(inbox["conversations"].as_array().map(Vec::len), Some(0), "its replies are gone: {inbox}");
    let (_, after) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert_eq!(after["campaign"][0]["sent"], before["sent"], "the campaign's counts stay");
    assert_eq!(after["campaign"][0]["delivered"], before["delivered"]);
    let (_, blacklist) = app.json(Method::GET, "/blacklist", None).await;
    assert_eq!(blacklist["list"][0]["destination"], number, "its STOP is still honoured");
    assert_eq!(blacklist["list"][0]["info1"], "", "without its details: {blacklist}");
    let (_, audit) = app.json(Method::GET, "/audit", None).await;
    assert!(audit.to_string().contains(&format!("contact {number} erased")), "{audit}");
    let (status, _) = app.json(Method::DELETE, &format!("/contact/{number}"), None).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn an_mo_event_carries_the_contact_when_the_number_has_one() {
    let app = quick_app().await;
    crate::delivery::webhook(&app, "MO").await;
    let card = json!({"contact": {"firstname": "Zoé", "fields": {"city": "Brest"}, "tags": ["vip"]}});
    let (status, _) = app.json(Method::PUT, "/contact/33633000001", Some(card)).await;
    assert_eq!(status, 200);
    let ticket = send(&app, "Bonjour", &["33633000001", "33633000002"], json!({})).await;
    settled(&app, &ticket).await;
    for from in ["33633000001", "33633000002"] {
        app.json(Method::POST, "/simulator/mo", Some(json!({"from": from, "text": "Merci"}))).await;
    }
    let events = until("both MO events", || async {
        let events = crate::delivery::outbox(&app, "MO").await;
        (events.len() == 2).then_some(events)
    })
    .await;
    let of = |number: &str| events.iter().map(|(_, body)| body).find(|body| body["from"] == number).cloned();
    let known = of("33633000001").expect("the contact's MO");
    assert_eq!(known["contact"]["firstname"], "Zoé", "{known}");
    assert_eq!(known["contact"]["fields"]["city"], "Brest");
    assert_eq!(known["contact"]["tags"], json!(["vip"]));
    let unknown = of("33633000002").expect("the other MO");
    assert!(unknown.get("contact").is_none(), "no card, no contact: {unknown}");
}

#[tokio::test]
async fn a_list_import_records_the_contacts_details_and_an_entry_edit_changes_them() {
    let app = quick_app().await;
    let entries = json!({"list": {"name": "Salon", "contacts": {"gsm": [
        {"value": "33655000001", "info1": "Stand 4", "contact": {"firstname": "Léa", "tags": ["salon"], "fields": {"city": "Lyon"},
            "consent": {"opt_in_date": "2026-10-02", "source": "form", "proof": "Formulaire du salon"}}},
        {"value": "33655000002"}
    ]}}});
    let (status, list) = app.json(Method::POST, "/list", Some(entries)).await;
    assert_eq!(status, 200, "{list}");
    let (_, card) = app.json(Method::GET, "/contact/33655000001", None).await;
    let contact = &card["contact"];
    assert_eq!(
        (contact["firstname"].as_str(), contact["fields"]["city"].as_str()),
        (Some("Léa"), Some("Lyon")),
        "{card}"
    );
    assert_eq!(contact["consent"]["opt_in_date"], "2026-10-02 00:00:00", "{card}");
    assert_eq!(contact["consent"]["source"], "form");
    let (_, plain) = app.json(Method::GET, "/contact/33655000002", None).await;
    assert_eq!(plain["contact"]["consent"]["opt_in_date"], Value::Null, "no consent unless given: {plain}");

    let id = list["id"].as_str().expect("a list id");
    let (_, entries) = app.json(Method::GET, &format!("/list/{id}"), None).await;
    let entry = entries["list"]
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| e["destination"] == "33655000002")
        .expect("the entry")["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    let edit = json!({"contact": {"info1": "Stand 9", "contact": {"lastname": "Moreau", "tags": ["salon", "rappel"]}}});
    let (status, body) = app.json(Method::PUT, &format!("/list/contact/{entry}"), Some(edit)).await;
    assert_eq!(status, 200, "{body}");
    let (_, card) = app.json(Method::GET, "/contact/33655000002", None).await;
    assert_eq!(card["contact"]["lastname"], "Moreau", "{card}");
    assert_eq!(card["contact"]["tags"], json!(["salon", "rappel"]));
    assert_eq!(card["lists"][0]["info"][0], "Stand 9", "the entry changes too: {card}");

    let bad = json!({"list": {"name": "Bad", "contacts": {"gsm": [{"value": "33655000003", "contact": {"consent": {"source": "rumour"}}}]}}});
    let (status, body) = app.json(Method::POST, "/list", Some(bad)).await;
    assert_eq!(status, 422, "{body}");
    assert!(body.to_string().contains("list.contacts.gsm[0].contact.consent.source"), "{body}");
}
