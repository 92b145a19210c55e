//! A/B tests: each text goes to its part of a random sample, the rest waits for the winner
//! (the best by the test's criterion once its wait is over, or one chosen by hand), held at
//! the longest text and refunded what the winner does not take.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    delivery::{received, until},
    helpers::{TestApp, account, spawn_app_with},
};

/// An app whose receipts come quickly and which looks for finished tests ten times a second.
async fn ab_app() -> TestApp {
    spawn_app_with(|config| {
        config.builtin_dlr_delay_ms = 20;
        config.ab_check_every = Duration::from_millis(100).into();
    })
    .await
}

/// `count` numbers from `first` on.
fn numbers(first: u64, count: u64) -> Vec<String> {
    (first..first + count).map(|n| n.to_string()).collect()
}

/// The `sms` of a send to `numbers` with an A/B test of `texts`.
fn ab_send(texts: &[&str], ab: Value, numbers: &[String], extra: Value) -> Value {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n})).collect();
    let mut message = json!({"text": texts[0], "variants": texts[1..], "ab": ab, "pushtype": "alert"});
    if let (Some(message), Some(extra)) = (message.as_object_mut(), extra.as_object()) {
        message.extend(extra.clone());
    }
    json!({"sms": {"message": message, "recipients": {"gsm": gsm}}})
}

/// The text each number received so far (`None`: nothing yet).
async fn texts_received(app: &TestApp, numbers: &[String]) -> Vec<Option<String>> {
    let mut texts = Vec::new();
    for number in numbers {
        let message = received(app, number).await.into_iter().next();
        texts.push(message.and_then(|m| m["text"].as_str().map(str::to_owned)));
    }
    texts
}

/// The account's balance, in credits.
async fn balance(app: &TestApp) -> f64 {
    let (_, body) = app.json(Method::GET, "/credits", None).await;
    body["credits"].as_str().and_then(|c| c.parse().ok()).expect("a balance")
}

#[tokio::test]
async fn each_text_reaches_its_sample_and_the_most_clicked_reaches_the_rest_after_the_wait() {
    let app = ab_app().await;
    let to = numbers(33612340001, 20);
    let ab = json!({"share": 20, "wait": "30m", "criterion": "clicks"});
    let links = json!({"links": ["https://shop.example/soldes"]});
    let body = ab_send(&["Offre A <-short->", "Offre B <-short->"], ab, &to, links);
    let (status, simulated) = app.json(Method::POST, "/send/simulate", Some(body.clone())).await;
    assert_eq!(status, 200, "{simulated}");
    assert_eq!((simulated["ab_sample"].as_i64(), simulated["ab_remainder"].as_i64()), (Some(4), Some(16)));
    let (status, sent) = app.json(Method::POST, "/send", Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    let ticket = sent["ticket"].as_str().expect("a ticket").to_owned();

    // The sample, two per text, drawn across the audience; the rest waits.
    let sample = until("the sample", || async {
        let texts = texts_received(&app, &to).await;
        (texts.iter().flatten().count() == 4).then_some(texts)
    })
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(texts_received(&app, &to).await.iter().flatten().count(), 4, "the rest waits for the winner");
    let with = |prefix: &str| sample.iter().flatten().filter(|t| t.starts_with(prefix)).count();
    assert_eq!((with("Offre A"), with("Offre B")), (2, 2), "{sample:?}");

    // One B recipient follows the link: B leads the clicks.
    let b_text = sample.iter().flatten().find(|t| t.starts_with("Offre B")).expect("a B text");
    let code = b_text.rsplit('/').next().expect("a code");
    let followed = app.anonymous(Method::GET, &format!("/s/{code}")).send().await.expect("a click");
    assert_eq!(followed.status(), 302);
    let (status, report) = app.json(Method::GET, &format!("/campaign/{ticket}/report"), None).await;
    assert_eq!(status, 200, "{report}");
    let test = &report["report"]["ab"];
    assert_eq!((test["leading"].as_i64(), test["winner"].as_i64()), (Some(2), None), "{test}");
    assert_eq!((test["variants"][1]["sent"].as_i64(), test["variants"][1]["clicked"].as_i64()), (Some(2), Some(1)));
    assert_eq!(
        (test["share"].as_i64(), test["wait"].as_str(), test["criterion"].as_str()),
        (Some(20), Some("30m"), Some("clicks"))
    );
    // Each text's hours: B's click among them, each text's deliveries summed as its count.
    let hours = |v: usize, what: &str| -> i64 {
        let hours = test["variants"][v]["hours"].as_array().expect("hours");
        hours.iter().map(|h| h[what].as_i64().unwrap_or(0)).sum()
    };
    assert_eq!(test["variants"][1]["hours"].as_array().map(Vec::len), Some(48));
    assert_eq!((hours(0, "clicks"), hours(1, "clicks")), (0, 1));
    for v in 0..2 {
        assert_eq!(Some(hours(v, "delivered")), test["variants"][v]["delivered"].as_i64(), "{test}");
    }

    // Once the wait is over (the campaign went out long ago), B goes to the other sixteen.
    app.sql(&format!("UPDATE campaigns SET send_at = '2020-01-01T00:00:00Z' WHERE id = {ticket}")).await;
    let all = until("the rest", || async {
        let texts = texts_received(&app, &to).await;
        texts.iter().all(Option::is_some).then_some(texts)
    })
    .await;
    let rest: Vec<&String> =
        all.iter().zip(&sample).filter(|(_, s)| s.is_none()).filter_map(|(t, _)| t.as_ref()).collect();
    assert_eq!(rest.len(), 16);
    assert!(rest.iter().all(|t| t.starts_with("Offre B")), "{rest:?}");
    let (_, report) = app.json(Method::GET, &format!("/campaign/{ticket}/report"), None).await;
    assert_eq!(report["report"]["ab"]["winner"].as_i64(), Some(2), "{report}");
    // The history shows each message with the text it got.
    let (_, history) = app.json(Method::GET, &format!("/messages?campaign_id={ticket}"), None).await;
    let texts: Vec<&str> =
        history["messages"].as_array().expect("messages").iter().filter_map(|m| m["message"].as_str()).collect();
    assert_eq!(texts.iter().filter(|t| t.starts_with("Offre B")).count(), 18, "{texts:?}");
    assert_eq!(texts.iter().filter(|t| t.starts_with("Offre A")).count(), 2, "{texts:?}");
    // The CSV export lists the texts and marks the winner.
    let csv =
        app.request(&app.token, Method::GET, &format!("/campaign/{ticket}/report.csv")).send().await.expect("a CSV");
    let csv = csv.text().await.expect("a body");
    assert!(csv.contains("variant,text,sent,delivered,clicked,replied,winner"), "{csv}");
    assert!(csv.contains("2,Offre B <-short->,2,"), "{csv}");
    // The audit log says which text won and why (it is written a moment later).
    let query =
        format!("SELECT summary FROM audit WHERE action = 'campaign.ab_winner' AND object = 'campaign {ticket}'");
    let summary =
        until("the audit line", || async { app.sql(&query).await.into_iter().next().and_then(|row| row[0].clone()) })
            .await;
    assert!(summary.contains("text 2 goes to the rest (the best clicks rate after 30m)"), "{summary}");
}

#[tokio::test]
async fn the_rest_of_a_list_is_held_at_the_longest_text_and_refunded_when_a_shorter_one_is_chosen_by_hand() {
    let app = ab_app().await;
    let contacts: Vec<Value> = numbers(33612350001, 10).iter().map(|n| json!({"value": n})).collect();
    let (status, list) = app
        .json(Method::POST, "/list", Some(json!({"list": {"name": "Clients", "contacts": {"gsm": contacts}}})))
        .await;
    assert_eq!(status, 200, "{list}");
    let list = list["id"].as_str().expect("a list").to_owned();
    let long = format!("Offre longue {}", "x".repeat(160));
    let message = json!({"text": "Court", "variants": [long], "pushtype": "alert",
        "ab": {"share": 20, "wait": "24h", "criterion": "delivered"}});
    let body = json!({"sms": {"message": message, "lists": [{"value": list}]}});
    let before = balance(&app).await;
    let (status, sent) = app.json(Method::POST, "/send/lists", Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    let ticket = sent["ticket"].as_str().expect("a ticket").to_owned();
    // One SMS for the short text's recipient, two for the long one's, two for each of the
    // eight who wait: 19 parts.
    assert_eq!((sent["ab_sample"].as_i64(), sent["ab_remainder"].as_i64()), (Some(2), Some(8)));
    let cost = sent["cost"].as_f64().expect("a cost");
    let part = cost / 19.0;

    // Someone else's campaign, a text the test does not have, a weaker hand: refused.
    let bob = account(&app.db(), "bob", 10.0).await;
    let path = format!("/campaign/{ticket}/winner");
    let (status, _) = app.json_as(&bob, Method::PUT, &path, Some(json!({"ab": {"winner": 1}}))).await;
    assert_eq!(status, 404);
    for bad in [json!({"ab": {"winner": 3}}), json!({"ab": {"winner": 0}}), json!({"ab": {}})] {
        let (status, refused) = app.json(Method::PUT, &path, Some(bad)).await;
        assert_eq!((status, refused["errors"][0]["path"].as_str()), (422, Some("ab.winner")), "{refused}");
    }

    let (status, chosen) = app.json(Method::PUT, &path, Some(json!({"ab": {"winner": 1}}))).await;
    assert_eq!(status, 200, "{chosen}");
    assert_eq!(chosen["report"]["ab"]["winner"].as_i64(), Some(1));
    let (status, again) = app.json(Method::PUT, &path, Some(json!({"ab": {"winner": 2}}))).await;
    assert_eq!((status, again["errors"][0]["path"].as_str()), (422, Some("ab.winner")), "the test has ended: {again}");
    // The eight who waited take one SMS each, not two: eight parts come back.
    let after = balance(&app).await;
    assert!((before - cost + 8.0 * part - after).abs() < 0.001, "{before} - {cost} + 8 × {part} ≠ {after}");
    let held = app.sql(&format!("SELECT SUM(parts), SUM(cost) FROM messages WHERE campaign_id = {ticket}")).await;
    assert_eq!(held[0][0].as_deref(), Some("11"), "{held:?}");
    let rest = until("the rest", || async {
        let texts = texts_received(&app, &numbers(33612350001, 10)).await;
        texts.iter().all(Option::is_some).then_some(texts)
    })
    .await;
    assert_eq!(rest.iter().flatten().filter(|t| t.as_str() == "Court").count(), 9, "{rest:?}");
}

#[tokio::test]
async fn a_test_is_checked_whole_and_read_from_xml_too() {
    let app = ab_app().await;
    let to = numbers(33612360001, 3);
    let refused = |body: Value| {
        let app = &app;
        async move {
            let (status, answer) = app.json(Method::POST, "/send/simulate", Some(body)).await;
            assert_eq!(status, 422, "{answer}");
            answer["errors"]
                .as_array()
                .expect("errors")
                .iter()
                .map(|d| d["path"].as_str().unwrap_or("").to_owned())
                .collect::<Vec<_>>()
        }
    };
    let ab = json!({"share": 20, "wait": "2h", "criterion": "clicks"});
    let mut lone = ab_send(&["A", "B"], ab.clone(), &to, json!({}));
    lone["sms"]["message"].as_object_mut().expect("a message").remove("ab");
    assert_eq!(refused(lone).await, ["sms.message.ab"]);
    let bad = json!({"share": 60, "wait": "10m", "criterion": "opens"});
    assert_eq!(
        refused(ab_send(&["A", "B"], bad, &to, json!({}))).await,
        ["sms.message.ab.share", "sms.message.ab.wait", "sms.message.ab.criterion"]
    );
    assert_eq!(
        refused(ab_send(&["A", "B", "C", "D", "E"], ab.clone(), &to, json!({}))).await,
        ["sms.message.variants"]
    );
    assert_eq!(
        refused(ab_send(&["A <-short->", "B"], ab.clone(), &to, json!({"links": ["https://a.example"]}))).await,
        ["sms.message.variants[0]"]
    );
    assert_eq!(refused(ab_send(&["A", "B [field:ville]"], ab, &to, json!({}))).await, ["sms.message.variants[0]"]);

    // Simulations draw their sample from one fixed seed, as Compose does in the page: with texts
    // of one and two parts and numbers priced 1 and 1.5 a part, five simulations cost the same.
    let mixed: Vec<String> = numbers(33612360101, 5).into_iter().chain(numbers(32470123401, 5)).collect();
    let ab = json!({"share": 20, "wait": "2h", "criterion": "clicks"});
    let body = ab_send(&["Court", &format!("Long {}", "x".repeat(160))], ab, &mixed, json!({}));
    let mut costs = Vec::new();
    for _ in 0..5 {
        let (status, simulated) = app.json(Method::POST, "/send/simulate", Some(body.clone())).await;
        assert_eq!(status, 200, "{simulated}");
        costs.push(simulated["cost"].to_string());
    }
    costs.dedup();
    assert_eq!(costs.len(), 1, "{costs:?}");

    let xml = "<sms><message><text>Offre A</text><variants>Offre B</variants><variants>Offre C</variants>\
               <ab><share>50</share><wait>1h</wait><criterion>replies</criterion></ab><pushtype>alert</pushtype></message>\
               <recipients><gsm>33612360001</gsm><gsm>33612360002</gsm><gsm>33612360003</gsm><gsm>33612360004</gsm></recipients></sms>";
    let (status, answer) = app.xml(Method::POST, "/send/simulate", Some(xml)).await;
    assert_eq!(status, 200, "{answer}");
    // Half of four, rounded up, is two; but each of the three texts gets one at least.
    assert!(
        answer.contains("<ab_sample>3</ab_sample>") && answer.contains("<ab_remainder>1</ab_remainder>"),
        "{answer}"
    );
}

#[tokio::test]
async fn eight_choices_at_once_send_one_text_and_refund_once() {
    let app = ab_app().await;
    let to = numbers(33612370001, 10);
    let long = format!("Offre longue {}", "x".repeat(160));
    let ab = json!({"share": 20, "wait": "24h", "criterion": "clicks"});
    let (status, sent) = app.json(Method::POST, "/send", Some(ab_send(&["Court", &long], ab, &to, json!({})))).await;
    assert_eq!(status, 200, "{sent}");
    let ticket = sent["ticket"].as_str().expect("a ticket").to_owned();
    let before = balance(&app).await;
    let path = format!("/campaign/{ticket}/winner");
    let tries = (0..8).map(|i| app.json(Method::PUT, &path, Some(json!({"ab": {"winner": 1 + i % 2}}))));
    let answers = futures_util::future::join_all(tries).await;
    let chosen: Vec<&Value> = answers.iter().filter(|(status, _)| *status == 200).map(|(_, body)| body).collect();
    assert_eq!(chosen.len(), 1, "one choice is taken: {answers:?}");
    assert!(answers.iter().all(|(status, _)| *status == 200 || *status == 422), "{answers:?}");
    // The eight waiting take one SMS each with the short text, two with the long one: the
    // refund is eight parts or nothing, once.
    let refunded = balance(&app).await - before;
    let winner = chosen[0]["report"]["ab"]["winner"].as_i64();
    let part = sent["cost"].as_f64().expect("a cost") / 19.0;
    let expected = if winner == Some(1) { 8.0 * part } else { 0.0 };
    assert!((refunded - expected).abs() < 0.001, "text {winner:?} won, {refunded} came back");
}

#[tokio::test]
async fn a_sample_that_reaches_overseas_numbers_is_judged_once_their_window_has_opened() {
    let app = ab_app().await;
    // Half in France, half in La Réunion, on a Saturday at 18:00 in Paris: Paris's window is
    // open until 20:00, La Réunion's (21:00 there) opens on Monday at 08:00 there, 05:00 in
    // Paris. A sample of 20 out of 40 takes some of La Réunion's (all but certainly).
    let mut to = numbers(33612350001, 20);
    to.extend(numbers(262692350001, 20));
    let ab = json!({"share": 50, "wait": "2h", "criterion": "delivered"});
    let body =
        ab_send(&["Soldes A", "Soldes B"], ab, &to, json!({"pushtype": "marketing", "delay": "2027-01-09 18:00:00"}));
    let (status, sent) = app.json(Method::POST, "/send", Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    let ticket = sent["ticket"].as_str().expect("a ticket");
    let (status, report) = app.json(Method::GET, &format!("/campaign/{ticket}/report"), None).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        report["report"]["ab"]["decide_at"].as_str(),
        Some("2027-01-11 07:00:00"),
        "two hours after La Réunion's part of the sample goes, not after Paris's: {report}"
    );
}
