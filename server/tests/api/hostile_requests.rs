//! Hostile requests answered honestly: non-canonical path ids, bad query strings on every
//! listing route, methods a path does not take, and webhook URLs aimed at private addresses
//! through IPv6 forms. Each test prints how many hostile cases it tried.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app};

/// The forms of `id` that must name nothing: a sign, leading zeros, a space.
fn mangled(id: &str) -> [String; 4] {
    [format!("%2B{id}"), format!("0000{id}"), format!("%20{id}"), format!("{id}%20")]
}

/// A list, a campaign and a webhook of Alice's; returns their ids and the id of the list's contact.
async fn resources(app: &TestApp) -> (String, String, String, String) {
    let list = json!({"list": {"name": "l", "contacts": {"gsm": [{"value": "33612345678"}]}}});
    let (_, saved) = app.json(Method::POST, "/list", Some(list)).await;
    let list = saved["id"].as_str().expect("list id").to_owned();
    let (_, shown) = app.json(Method::GET, &format!("/list/{list}"), None).await;
    let contact = shown["list"][0]["id"].as_str().expect("contact id").to_owned();
    let sms = json!({"sms": {"message": {"text": "x", "pushtype": "alert"}, "recipients": {"gsm": [{"value": "33612345678"}]}}});
    let (_, sent) = app.json(Method::POST, "/send", Some(sms)).await;
    let ticket = sent["ticket"].as_str().expect("ticket").to_owned();
    let (_, hook) = app
        .json(Method::POST, "/webhook", Some(json!({"webhook": {"type": "DLR", "url": "https://example.com/h"}})))
        .await;
    let webhook = hook["webhook"]["webhook_id"].as_str().expect("webhook id").to_owned();
    (list, contact, ticket, webhook)
}

#[tokio::test]
async fn path_ids_are_canonical_decimal_everywhere() {
    let app = spawn_app().await;
    let (list, contact, ticket, webhook) = resources(&app).await;
    let status_body = json!({"webhook": {"status": "paused"}});
    let list_body = json!({"list": {"name": "renamed"}});
    let mut cases: Vec<(Method, String, Option<Value>)> = Vec::new();
    for bad in mangled(&list) {
        cases.push((Method::GET, format!("/list/{bad}"), None));
        cases.push((Method::PUT, format!("/list/{bad}"), Some(list_body.clone())));
        cases.push((Method::DELETE, format!("/list/{bad}"), None));
        cases.push((Method::DELETE, format!("/list/{bad}/contact/{contact}"), None));
    }
    for bad in mangled(&contact) {
        cases.push((Method::DELETE, format!("/list/{list}/contact/{bad}"), None));
    }
    for bad in mangled(&ticket) {
        cases.push((Method::GET, format!("/campaign/{bad}"), None));
        cases.push((Method::DELETE, format!("/send/{bad}"), None));
    }
    for bad in mangled(&webhook) {
        cases.push((
            Method::PUT,
            format!("/webhook/{bad}"),
            Some(json!({"webhook": {"url": "https://example.com/x"}})),
        ));
        cases.push((Method::PUT, format!("/webhook/{bad}/status"), Some(status_body.clone())));
        cases.push((Method::DELETE, format!("/webhook/{bad}"), None));
        cases.push((Method::GET, format!("/webhook/{bad}/log"), None));
    }
    for (method, path, body) in &cases {
        let anonymous =
            app.anonymous(method.clone(), path).header("Accept", "application/json").send().await.expect("sent");
        assert_eq!(anonymous.status(), 401, "{method} {path} without a token");
        let (status, answer) = app.json(method.clone(), path, body.clone()).await;
        assert_eq!((status, answer["status"].as_i64()), (404, Some(-5)), "{method} {path}: {answer}");
    }
    // Nothing was touched: each resource still answers at its canonical id.
    for path in [format!("/list/{list}"), format!("/campaign/{ticket}"), format!("/webhook/{webhook}/log")] {
        let (status, answer) = app.json(Method::GET, &path, None).await;
        assert_eq!(status, 200, "{path}: {answer}");
    }
    let (_, shown) = app.json(Method::GET, &format!("/list/{list}"), None).await;
    assert_eq!(shown["contacts"], 1, "the contact is still there: {shown}");
    println!("hostile cases tried (path ids): {}", cases.len() * 2);
}

#[tokio::test]
async fn a_bad_query_is_400_with_minus_7_on_every_listing_route() {
    let app = spawn_app().await;
    let (list, _, _, webhook) = resources(&app).await;
    let routes = [
        "/campaigns".to_owned(),
        "/lists".into(),
        format!("/list/{list}"),
        "/webhook".into(),
        format!("/webhook/{webhook}/log"),
        "/npai".into(),
        "/blacklist".into(),
    ];
    let queries = ["start=x", "length=many", "start=-", "length=1e3", "start=99999999999999999999999"];
    let mut tried = 0;
    for route in &routes {
        for query in queries {
            let path = format!("{route}?{query}");
            assert_eq!(app.get(&path).await.status(), 401, "{path} without a token");
            let (status, answer) = app.json(Method::GET, &path, None).await;
            assert_eq!((status, answer["status"].as_i64()), (400, Some(-7)), "{path}: {answer}");
            assert!(!answer["details"].as_str().unwrap_or_default().is_empty(), "{path} says what is wrong: {answer}");
            tried += 2;
        }
    }
    println!("hostile cases tried (query strings): {tried}");
}

#[tokio::test]
async fn a_method_a_path_does_not_take_is_405_with_a_message() {
    let app = spawn_app().await;
    let cases = [
        (Method::PATCH, "/credits"),
        (Method::DELETE, "/campaigns"),
        (Method::POST, "/lists"),
        (Method::PATCH, "/webhook/1"),
    ];
    for (method, path) in &cases {
        let response = app.request(&app.token, method.clone(), path).send().await.expect("sent");
        assert_eq!(response.status(), 405, "{method} {path}");
        assert!(response.headers().contains_key("allow"), "{method} {path} names the methods it takes");
        let answer: Value = response.json().await.expect("JSON envelope");
        assert_eq!(
            (answer["status"].as_i64(), answer["message"].as_str()),
            (Some(-7), Some("Method not allowed")),
            "{answer}"
        );
        assert!(answer["details"].as_str().unwrap_or_default().contains(method.as_str()), "{answer}");
    }
    let (status, xml) = app.xml(Method::PATCH, "/credits", None).await;
    assert_eq!(status, 405);
    assert!(xml.contains("<message>Method not allowed</message>"), "{xml}");
    println!("hostile cases tried (methods): {}", cases.len() + 1);
}

#[tokio::test]
async fn webhook_urls_embedding_a_private_ipv4_address_are_refused() {
    let app = spawn_app().await;
    let urls = [
        "http://[64:ff9b::7f00:1]/",
        "http://[64:ff9b::169.254.169.254]/latest",
        "http://[64:ff9b::a00:1]:8080/",
        "http://[64:ff9b:1::5db8:d822]/",
        "http://[2002:7f00:1::1]/",
        "http://[2002:c0a8:101::]/",
        "http://[2002:a9fe:a9fe::1]/",
        "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
        "http://[2001::f5ff:fffe]/",
        "http://[::ffff:7f00:1]/",
        "http://[::ffff:100.64.0.1]/",
        "http://[::10.0.0.1]/",
        "http://[fe80::1]/",
        "http://[ff02::1]/",
        "http://224.0.0.1/",
        "http://100.100.100.200/",
        "http://0.1.2.3/",
    ];
    for url in urls {
        let body = json!({"webhook": {"type": "DLR", "url": url}});
        let anonymous = app.anonymous(Method::POST, "/webhook").json(&body).send().await.expect("sent");
        assert_eq!(anonymous.status(), 401, "{url} without a token");
        let (status, answer) = app.json(Method::POST, "/webhook", Some(body)).await;
        assert_eq!((status, answer["status"].as_i64()), (422, Some(-7)), "{url}: {answer}");
    }
    let (status, answer) = app
        .json(
            Method::POST,
            "/webhook",
            Some(json!({"webhook": {"type": "DLR", "url": "http://[64:ff9b::5db8:d822]/"}})),
        )
        .await;
    assert_eq!(status, 200, "NAT64 of a public address: {answer}");
    // 6to4 and Teredo tunnel to an IPv4 host: refused whatever address they embed.
    for url in ["http://[2002:5db8:d822::1]/", "http://[2001:0:4136:e378:8000:63bf:a247:27dd]/"] {
        let (status, answer) =
            app.json(Method::POST, "/webhook", Some(json!({"webhook": {"type": "DLR", "url": url}}))).await;
        assert_eq!(status, 422, "{url}: {answer}");
    }
    println!("hostile cases tried (webhook addresses): {}", urls.len() * 2);
}
