//! Segments: rules over fields, tags, lists, consent and engagement count exactly the
//! contacts a send to the segment reaches; segments are saved, changed and deleted; and an
//! account that asks for consent has its marketing skip contacts without an opt-in.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    delivery::{quick_app, received, send, settled, until},
    helpers::TestApp,
};

/// The count of `rules`, as the editor asks for it.
async fn count(app: &TestApp, rules: Value) -> i64 {
    let (status, body) = app.json(Method::POST, "/segment/count", Some(json!({"segment": {"rules": rules}}))).await;
    assert_eq!(status, 200, "{rules} → {body}");
    body["segment"]["count"].as_i64().expect("a count")
}

/// Creates a list of `numbers` (each with its info1); its id.
async fn list(app: &TestApp, name: &str, numbers: &[&str]) -> String {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n, "info1": format!("info of {n}")})).collect();
    let (status, body) =
        app.json(Method::POST, "/list", Some(json!({"list": {"name": name, "contacts": {"gsm": gsm}}}))).await;
    assert_eq!(status, 200, "{body}");
    body["id"].as_str().expect("a list id").to_owned()
}

async fn card(app: &TestApp, number: &str, card: Value) {
    let (status, body) = app.json(Method::PUT, &format!("/contact/{number}"), Some(json!({"contact": card}))).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn each_kind_of_rule_counts_the_contacts_that_meet_it() {
    let app = quick_app().await;
    let clients = list(&app, "Clients", &["33611000001", "33611000002", "33611000003", "33611000100"]).await;
    let consent = json!({"source": "form", "proof": "Oui aux SMS"});
    card(
        &app,
        "33611000001",
        json!({"fields": {"city": "Lyon", "age": "30", "since": "2024-05-01"}, "tags": ["VIP"], "consent": consent}),
    )
    .await;
    card(
        &app,
        "33611000002",
        json!({"fields": {"city": "Paris", "age": "45", "since": "2025-09-10"}, "tags": ["vip"]}),
    )
    .await;
    card(&app, "33611000005", json!({"firstname": "Zoé", "fields": {"city": "lyon"}, "tags": ["vip", "press"]})).await;

    let ticket = send(
        &app,
        "Offre <-short->",
        &["33611000001", "33611000003", "33611000100"],
        json!({"links": ["https://shop.example/o"]}),
    )
    .await;
    settled(&app, &ticket).await;
    let text = until("the message", || async { received(&app, "33611000001").await.into_iter().next() }).await["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let short_url = text.split_whitespace().find(|w| w.contains("/s/")).expect("a short link").to_owned();
    assert_eq!(app.client.get(&short_url).send().await.expect("a click").status(), 302);
    let (status, _) =
        app.json(Method::POST, "/simulator/mo", Some(json!({"from": "33611000003", "text": "Merci"}))).await;
    assert_eq!(status, 200);
    until("the reply", || async {
        let (_, body) = app.json(Method::GET, "/conversation/33611000003", None).await;
        (body.to_string().contains("Merci")).then_some(())
    })
    .await;

    let cases = [
        (json!([]), 5, "every contact: the list's four and the card"),
        (json!([{"type": "tag", "value": "vip"}]), 3, "tags without regard to case"),
        (json!([{"type": "field", "field": "city", "test": "equals", "value": "LYON"}]), 2, "equals"),
        (json!([{"type": "field", "field": "firstname", "test": "contains", "value": "zo"}]), 1, "contains"),
        (json!([{"type": "field", "field": "age", "test": "after", "value": "40"}]), 1, "numbers as numbers"),
        (
            json!([{"type": "field", "field": "age", "test": "before", "value": "100"}]),
            2,
            "a missing field is not below",
        ),
        (json!([{"type": "field", "field": "since", "test": "before", "value": "2025-01-01"}]), 1, "dates"),
        (json!([{"type": "consent", "value": "1"}]), 1, "opted in"),
        (json!([{"type": "consent", "value": "0"}]), 4, "without an opt-in"),
        (json!([{"type": "list", "list": clients}, {"type": "tag", "value": "vip"}]), 2, "every rule holds"),
        (json!([{"type": "clicked"}]), 1, "clicked"),
        (json!([{"type": "clicked", "negate": true}, {"type": "list", "list": clients}]), 3, "never clicked"),
        (json!([{"type": "delivered", "campaign": ticket}]), 2, "delivered in the campaign"),
        (
            json!([{"type": "delivered", "campaign": ticket, "negate": true}, {"type": "list", "list": clients}]),
            2,
            "not delivered",
        ),
        (json!([{"type": "replied", "days": 30}]), 1, "replied in the last 30 days"),
        (json!([{"type": "delivered", "campaign": "999999"}]), 0, "another campaign"),
    ];
    for (rules, expected, what) in cases {
        assert_eq!(count(&app, rules.clone()).await, expected, "{what}: {rules}");
    }

    for (rules, path) in [
        (json!([{"type": "field", "field": "City", "test": "equals", "value": "x"}]), "segment.rules[0].field"),
        (json!([{"type": "field", "field": "city", "test": "like", "value": "x"}]), "segment.rules[0].test"),
        (json!([{"type": "tag"}]), "segment.rules[0].value"),
        (json!([{"type": "list", "list": "424242"}]), "segment.rules[0].list"),
        (json!([{"type": "clicked", "days": 0}]), "segment.rules[0].days"),
        (json!([{"type": "opened"}]), "segment.rules[0].type"),
    ] {
        let (status, body) = app.json(Method::POST, "/segment/count", Some(json!({"segment": {"rules": rules}}))).await;
        assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{rules} → {body}");
        assert!(body.to_string().contains(path), "{path} named in {body}");
    }
}

#[tokio::test]
async fn a_saved_segment_is_sent_to_like_a_list_and_can_be_changed_and_deleted() {
    let app = quick_app().await;
    let clients = list(&app, "Clients", &["33612000001", "33612000002", "33612000003"]).await;
    card(&app, "33612000002", json!({"tags": ["vip"]})).await;
    card(&app, "33612000009", json!({"tags": ["vip"]})).await;
    let segment = json!({"segment": {"name": "VIP", "rules": [{"type": "tag", "value": "vip"}]}});
    let (status, saved) = app.json(Method::POST, "/segment", Some(segment)).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["segment"]["count"], 2, "{saved}");
    let id = saved["segment"]["id"].as_str().expect("an id").to_owned();
    let (_, all) = app.json(Method::GET, "/segments", None).await;
    assert_eq!(all["segments"][0]["name"], "VIP", "{all}");
    let (status, numbers) = app.json(Method::GET, &format!("/contacts/numbers?segment={id}"), None).await;
    assert_eq!((status, numbers["numbers"].clone()), (200, json!(["33612000002", "33612000009"])), "{numbers}");
    let (_, cards) = app.json(Method::GET, &format!("/contacts?segment={id}&engagement=not_clicked"), None).await;
    assert_eq!(cards["totalRecords"], 2, "segment and engagement filters together: {cards}");
    let (status, _) = app.json(Method::GET, "/contacts?segment=999", None).await;
    assert_eq!(status, 404, "an unknown segment");

    let request = json!({"sms": {"message": {"text": "Bonjour [info1]", "pushtype": "alert"},
        "lists": [{"value": clients}], "segments": [{"value": id}]}});
    let (status, simulated) = app.json(Method::POST, "/send/lists/simulate", Some(request.clone())).await;
    assert_eq!(status, 200, "{simulated}");
    assert_eq!((simulated["total"].as_i64(), simulated["duplicated"].as_i64()), (Some(5), Some(1)), "{simulated}");
    let (status, sent) = app.json(Method::POST, "/send/lists", Some(request)).await;
    assert_eq!((status, sent["sent"].as_i64()), (200, Some(4)), "{sent}");
    let ticket = sent["ticket"].as_str().expect("a ticket").to_owned();
    let only_segment =
        json!({"sms": {"message": {"text": "Bonjour", "pushtype": "alert"}, "segments": [{"value": id}]}});
    let (status, simulated) = app.json(Method::POST, "/send/lists/simulate", Some(only_segment)).await;
    assert_eq!((status, simulated["sent"].as_i64()), (200, Some(2)), "a segment alone: {simulated}");
    let (_, campaign) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert!(campaign.to_string().contains(&format!("segment:{id}")), "the campaign names its segment: {campaign}");
    let texts =
        until("the segment's message", || async { received(&app, "33612000009").await.into_iter().next() }).await;
    assert!(
        !texts["text"].as_str().unwrap_or_default().contains("info of"),
        "a contact outside lists has no info1: {texts}"
    );
    let texts =
        until("a list contact's message", || async { received(&app, "33612000002").await.into_iter().next() }).await;
    assert_eq!(texts["text"], "Bonjour info of 33612000002", "a list contact has its info1: {texts}");

    let changed = json!({"segment": {"name": "Clients VIP", "rules": [{"type": "tag", "value": "vip"}, {"type": "list", "list": clients}]}});
    let (status, body) = app.json(Method::PUT, &format!("/segment/{id}"), Some(changed)).await;
    assert_eq!((status, body["segment"]["count"].as_i64()), (200, Some(1)), "{body}");
    let (status, body) = app.json(Method::GET, &format!("/segment/{id}"), None).await;
    assert_eq!((status, body["segment"]["name"].as_str()), (200, Some("Clients VIP")), "{body}");
    let (status, _) = app.json(Method::DELETE, &format!("/segment/{id}"), None).await;
    assert_eq!(status, 200);
    for method in [Method::GET, Method::DELETE] {
        let (status, body) = app.json(method, &format!("/segment/{id}"), None).await;
        assert_eq!((status, body["status"].as_i64()), (404, Some(-5)), "{body}");
    }
    let gone = json!({"sms": {"message": {"text": "x", "pushtype": "alert"}, "segments": [{"value": id}]}});
    let (status, body) = app.json(Method::POST, "/send/lists/simulate", Some(gone)).await;
    assert_eq!(status, 404, "{body}");
    assert!(body.to_string().contains("sms.segments[0].value"), "{body}");
    let (status, body) = app.json(Method::POST, "/segment", Some(json!({"segment": {"rules": []}}))).await;
    assert_eq!(status, 422, "a name is needed: {body}");
}

#[tokio::test]
async fn a_segment_matching_any_rule_holds_the_contacts_of_each_and_is_sent_to_as_such() {
    let app = quick_app().await;
    let clients = list(&app, "Clients", &["33615000001", "33615000002", "33615000003"]).await;
    card(&app, "33615000002", json!({"tags": ["VIP"]})).await;
    card(&app, "33615000003", json!({"tags": ["vip"], "fields": {"city": "Lyon"}})).await;
    card(&app, "33615000009", json!({"fields": {"city": "lyon"}})).await;
    let vip_or_lyon =
        json!([{"type": "tag", "value": "vip"}, {"type": "field", "field": "city", "test": "equals", "value": "LYON"}]);
    let counted = |matching: &'static str, rules: Value| {
        let app = &app;
        async move {
            let asked = json!({"segment": {"match": matching, "rules": rules}});
            let (status, body) = app.json(Method::POST, "/segment/count", Some(asked)).await;
            assert_eq!((status, body["segment"]["match"].as_str()), (200, Some(matching)), "{body}");
            body["segment"]["count"].as_i64().expect("a count")
        }
    };
    assert_eq!(counted("any", vip_or_lyon.clone()).await, 3, "tagged vip or in Lyon");
    assert_eq!(counted("all", vip_or_lyon.clone()).await, 1, "tagged vip and in Lyon");
    assert_eq!(count(&app, vip_or_lyon.clone()).await, 1, "all of them when the match is left out");
    let in_list_or_lyon = json!([{"type": "list", "list": clients}, {"type": "field", "field": "city", "test": "equals", "value": "lyon"}]);
    assert_eq!(counted("any", in_list_or_lyon).await, 4, "the list's three and the card in Lyon");
    let never_clicked_or_vip = json!([{"type": "clicked", "negate": true}, {"type": "tag", "value": "vip"}]);
    assert_eq!(counted("any", never_clicked_or_vip).await, 4, "an engagement among alternatives");
    assert_eq!(counted("any", json!([])).await, 4, "no rule: every contact, as for all");

    let (status, body) = app
        .json(Method::POST, "/segment/count", Some(json!({"segment": {"match": "some", "rules": [{"type": "tag"}]}})))
        .await;
    assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{body}");
    for path in ["segment.match", "segment.rules[0].value"] {
        assert!(body.to_string().contains(path), "{path} named in {body}");
    }

    let bobs = crate::helpers::another_accounts_list(&app, "33615000002").await;
    let or_bobs = json!({"segment": {"match": "any", "rules": [{"type": "tag", "value": "vip"}, {"type": "list", "list": bobs}]}});
    let (status, body) = app.json(Method::POST, "/segment/count", Some(or_bobs)).await;
    assert_eq!(status, 422, "another account's list is no alternative: {body}");
    assert!(body.to_string().contains("segment.rules[1].list"), "{body}");
    let (status, saved) = app
        .json(
            Method::POST,
            "/segment",
            Some(json!({"segment": {"name": "VIP or Lyon", "match": "any", "rules": vip_or_lyon}})),
        )
        .await;
    assert_eq!(
        (status, saved["segment"]["match"].as_str(), saved["segment"]["count"].as_i64()),
        (200, Some("any"), Some(3)),
        "{saved}"
    );
    let id = saved["segment"]["id"].as_str().expect("an id").to_owned();
    let (_, shown) = app.json(Method::GET, &format!("/segment/{id}"), None).await;
    assert_eq!(
        (shown["segment"]["match"].as_str(), shown["segment"]["count"].as_i64()),
        (Some("any"), Some(3)),
        "{shown}"
    );
    let (_, listed) = app.json(Method::GET, "/segments", None).await;
    assert_eq!(listed["segments"][0]["match"], "any", "{listed}");
    let (_, numbers) = app.json(Method::GET, &format!("/contacts/numbers?segment={id}"), None).await;
    assert_eq!(numbers["numbers"], json!(["33615000002", "33615000003", "33615000009"]), "{numbers}");
    let (_, cards) = app.json(Method::GET, &format!("/contacts?segment={id}&field=city&value=lyon"), None).await;
    assert_eq!(cards["totalRecords"], 2, "the segment's alternatives, and the query's field as well: {cards}");

    let send = json!({"sms": {"message": {"text": "Bonjour", "pushtype": "alert"}, "segments": [{"value": id}]}});
    let (status, sent) = app.json(Method::POST, "/send/lists", Some(send)).await;
    assert_eq!((status, sent["sent"].as_i64()), (200, Some(3)), "{sent}");
    for number in ["33615000002", "33615000003", "33615000009"] {
        until("the segment's message", || async { received(&app, number).await.into_iter().next() }).await;
    }

    let (status, xml) = app
        .xml(
            Method::PUT,
            &format!("/segment/{id}"),
            Some(
                "<segment><name>VIP and Lyon</name><rules><type>tag</type><value>vip</value></rules>\
                  <rules><type>field</type><field>city</field><test>equals</test><value>lyon</value></rules></segment>",
            ),
        )
        .await;
    assert_eq!(status, 200, "{xml}");
    assert!(
        xml.contains("<match>all</match>") && xml.contains("<count>1</count>"),
        "a change without match is all of them: {xml}"
    );
    let (status, xml) = app
        .xml(
            Method::POST,
            "/segment/count",
            Some(
                "<segment><match>any</match><rules><type>tag</type><value>vip</value></rules>\
                  <rules><type>field</type><field>city</field><test>equals</test><value>lyon</value></rules></segment>",
            ),
        )
        .await;
    assert_eq!(status, 200, "{xml}");
    assert!(xml.contains("<match>any</match>") && xml.contains("<count>3</count>"), "{xml}");
}

#[tokio::test]
async fn marketing_skips_contacts_without_consent_when_the_account_asks() {
    let app = quick_app().await;
    let clients = list(&app, "Clients", &["33613000001", "33613000002", "33613000003"]).await;
    card(&app, "33613000001", json!({"consent": {"source": "import", "proof": "fichier 2026"}})).await;
    let request = |pushtype: &str| json!({"sms": {"message": {"text": "Promo", "pushtype": pushtype}, "lists": [{"value": clients}]}});
    let (_, before) = app.json(Method::POST, "/send/lists/simulate", Some(request("marketing"))).await;
    assert_eq!((before["sent"].as_i64(), before.get("no_consent")), (Some(3), None), "not asked yet: {before}");

    let (status, settings) =
        app.json(Method::PUT, "/settings", Some(json!({"settings": {"marketing_needs_consent": 1}}))).await;
    assert_eq!((status, settings["settings"]["marketing_needs_consent"].as_i64()), (200, Some(1)), "{settings}");
    let (_, marketing) = app.json(Method::POST, "/send/lists/simulate", Some(request("marketing"))).await;
    assert_eq!((marketing["sent"].as_i64(), marketing["no_consent"].as_i64()), (Some(1), Some(2)), "{marketing}");
    let (_, alert) = app.json(Method::POST, "/send/lists/simulate", Some(request("alert"))).await;
    assert_eq!(alert["sent"], 3, "alerts need no consent: {alert}");
    let (status, sent) = app.json(Method::POST, "/send/lists", Some(request("marketing"))).await;
    assert_eq!((status, sent["sent"].as_i64(), sent["no_consent"].as_i64()), (200, Some(1), Some(2)), "{sent}");

    let (status, body) =
        app.json(Method::PUT, "/settings", Some(json!({"settings": {"marketing_needs_consent": 2}}))).await;
    assert_eq!(status, 422, "{body}");
}

/// A small deterministic generator (the test must not depend on a seed it cannot print).
struct Draw(u64);

impl Draw {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

#[tokio::test]
async fn a_segments_count_is_the_number_of_messages_a_send_to_it_creates() {
    let app = quick_app().await;
    let mut draw = Draw(0x7e57_0024);
    let numbers: Vec<String> = (0..40).map(|i| format!("33614{i:05}5")).collect();
    let in_lists: Vec<&str> = numbers.iter().filter(|_| draw.next(3) > 0).map(String::as_str).collect();
    let clients = list(&app, "Clients", &in_lists).await;
    let (cities, tags) = (["Lyon", "Paris", "Nantes"], ["vip", "press", "staff"]);
    for number in &numbers {
        if draw.next(4) == 0 {
            continue;
        }
        let mut contact = json!({"fields": {"city": cities[draw.next(3) as usize], "score": (draw.next(100)).to_string()},
            "tags": [tags[draw.next(3) as usize]]});
        if draw.next(2) == 0 {
            contact["consent"] = json!({"source": "api"});
        }
        card(&app, number, contact).await;
    }
    for case in 0..12 {
        let mut rules = Vec::new();
        for _ in 0..=draw.next(3) {
            rules.push(match draw.next(5) {
                0 => json!({"type": "tag", "value": tags[draw.next(3) as usize]}),
                1 => json!({"type": "field", "field": "city", "test": "equals", "value": cities[draw.next(3) as usize]}),
                2 => json!({"type": "field", "field": "score", "test": if draw.next(2) == 0 { "before" } else { "after" }, "value": draw.next(100).to_string()}),
                3 => json!({"type": "consent", "value": draw.next(2).to_string()}),
                _ => json!({"type": "list", "list": clients}),
            });
        }
        let matching = if draw.next(3) == 0 { "any" } else { "all" };
        let segment = json!({"segment": {"name": format!("case {case}"), "match": matching, "rules": rules}});
        let (status, saved) = app.json(Method::POST, "/segment", Some(segment)).await;
        assert_eq!(status, 200, "{saved}");
        let (id, counted) =
            (saved["segment"]["id"].as_str().expect("id").to_owned(), saved["segment"]["count"].clone());
        let send = json!({"sms": {"message": {"text": format!("Case {case}"), "pushtype": "alert"}, "segments": [{"value": id}]}});
        let (status, sent) = app.json(Method::POST, "/send/lists", Some(send)).await;
        if counted == 0 {
            assert_eq!(status, 200, "an empty segment sends nothing: {sent}");
        }
        assert_eq!(sent["total"], counted, "case {case} {matching} {rules:?}: {sent}");
        assert_eq!(sent["sent"], counted, "case {case} {matching} {rules:?}: {sent}");
        if let Some(ticket) = sent["ticket"].as_str() {
            let rows = app.sql(&format!("SELECT COUNT(*) FROM messages WHERE campaign_id = {ticket}")).await;
            assert_eq!(rows[0][0].as_deref(), Some(counted.to_string().as_str()), "case {case}: messages created");
        }
    }
}
