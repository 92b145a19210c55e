use reqwest::Method;
use serde_json::{Value, json};

use texto_server::{AccountAction, account_commands};

use crate::helpers::{account, spawn_app};

fn sms(numbers: &[&str], text: &str) -> Value {
    let gsm: Vec<Value> =
        numbers.iter().enumerate().map(|(i, n)| json!({"value": n, "gsmsmsid": format!("id{i}")})).collect();
    json!({"sms": {"message": {"text": text, "pushtype": "alert"}, "recipients": {"gsm": gsm}}})
}

#[tokio::test]
async fn send_filters_debits_and_returns_a_ticket() {
    let app = spawn_app().await;
    let (status, body) =
        app.json(Method::POST, "/send", Some(sms(&["33612345678", "0612345678", "33612345678"], "Hello"))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], 1);
    assert!(body["ticket"].is_string(), "ticket is a JSON string: {body}");
    assert_eq!(
        (body["total"].as_i64(), body["sent"].as_i64(), body["invalid"].as_i64(), body["duplicated"].as_i64()),
        (Some(3), Some(1), Some(1), Some(1))
    );
    assert_eq!((body["cost"].as_f64(), body["credits"].as_f64()), (Some(1.0), Some(999.0)));
    let (_, credits) = app.json(Method::GET, "/credits", None).await;
    assert_eq!(credits["credits"], "999");
}

#[tokio::test]
async fn simulate_runs_the_same_filter_and_writes_nothing() {
    let app = spawn_app().await;
    let (status, body) =
        app.json(Method::POST, "/send/simulate", Some(sms(&["33612345678", "33612345677"], "Hi"))).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.get("ticket").is_none(), "no ticket on a simulation: {body}");
    assert_eq!(
        (body["sent"].as_i64(), body["cost"].as_f64(), body["credits"].as_f64()),
        (Some(2), Some(2.0), Some(998.0))
    );
    let (_, credits) = app.json(Method::GET, "/credits", None).await;
    assert_eq!(credits["credits"], "1000", "a simulation debits nothing");
    let (_, history) = app.json(Method::GET, "/campaigns", None).await;
    assert_eq!(history["totalRecords"], 0);
}

#[tokio::test]
async fn send_in_xml_answers_in_xml() {
    let app = spawn_app().await;
    let body = r#"<?xml version="1.0" encoding="UTF-8"?><sms><message><text><![CDATA[Promo <-short->]]></text><pushtype>alert</pushtype><links>https://example.com/promo</links></message><recipients><gsm gsmsmsid="a">33612345678</gsm></recipients></sms>"#;
    let (status, xml) = app.xml(Method::POST, "/send", Some(body)).await;
    assert_eq!(status, 200, "{xml}");
    assert!(xml.contains("<response><status>1</status><message>OK</message><ticket>"), "{xml}");
    assert!(xml.contains("<sent>1</sent>"), "{xml}");
}

#[tokio::test]
async fn missing_accept_answers_xml_and_unknown_accept_is_406() {
    let app = spawn_app().await;
    let response = app.anonymous(Method::GET, "/credits").bearer_auth(&app.token).send().await.unwrap();
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("application/xml"));
    let response = app
        .anonymous(Method::GET, "/credits")
        .bearer_auth(&app.token)
        .header("Accept", "text/csv")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 406);
}

#[tokio::test]
async fn the_legacy_form_post_carries_json_in_data() {
    let app = spawn_app().await;
    let data = sms(&["33612345678"], "Form").to_string();
    let response = app.request(&app.token, Method::POST, "/send").form(&[("data", data)]).send().await.unwrap();
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn get_send_takes_the_token_in_the_query() {
    let app = spawn_app().await;
    let path = format!("/send?text=Hello%20world&to=33612345678&token={}", app.token);
    let response = app.anonymous(Method::GET, &path).header("Accept", "application/json").send().await.unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["sent"], 1);
}

#[tokio::test]
async fn errors_have_the_envelope_and_the_right_status() {
    let app = spawn_app().await;
    let cases: Vec<(&str, Option<&str>, &str, u16, i64)> = vec![
        ("malformed JSON", Some("application/json"), r#"{"sms": {"#, 400, -6),
        ("malformed XML", Some("application/xml"), "<sms><message>", 400, -2),
        (
            "missing field",
            Some("application/json"),
            r#"{"sms": {"message": {"pushtype": "alert"}, "recipients": {"gsm": [{"value": "33612345678"}]}}}"#,
            422,
            -7,
        ),
        (
            "bad delay",
            Some("application/json"),
            r#"{"sms": {"message": {"text": "x", "pushtype": "alert", "delay": "2026-02-30 10:00:00"}, "recipients": {"gsm": [{"value": "33612345678"}]}}}"#,
            422,
            -4,
        ),
    ];
    for (name, content_type, body, http, status) in cases {
        let mut request = app.request(&app.token, Method::POST, "/send").body(body.to_owned());
        if let Some(content_type) = content_type {
            request = request.header("Content-Type", content_type);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status().as_u16(), http, "{name}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(answer["status"], status, "{name}: {answer}");
        assert!(answer["details"].is_string(), "{name}: {answer}");
    }
    let (http, answer) = app
        .json(
            Method::POST,
            "/send/lists",
            Some(json!({"sms": {"message": {"text": "x", "pushtype": "alert"}, "lists": [{"value": 999}]}})),
        )
        .await;
    assert_eq!((http, answer["status"].as_i64()), (404, Some(-5)), "unknown list: {answer}");
}

#[tokio::test]
async fn not_enough_credits_creates_nothing() {
    let app = spawn_app().await;
    let poor = account(&app.db(), "poor", 1.0).await;
    let (status, body) =
        app.json_as(&poor, Method::POST, "/send", Some(sms(&["33612345678", "33612345677"], "Hi"))).await;
    assert_eq!((status, body["status"].as_i64()), (402, Some(-3)), "{body}");
    let (_, credits) = app.json_as(&poor, Method::GET, "/credits", None).await;
    assert_eq!(credits["credits"], "1");
    let (_, history) = app.json_as(&poor, Method::GET, "/campaigns", None).await;
    assert_eq!(history["totalRecords"], 0);
}

#[tokio::test]
async fn a_send_is_refused_for_its_cost_only_on_the_stored_balance() {
    // A balance raised behind texto's back (an operator's UPDATE): no node's copy of the
    // account knows of it (on PostgreSQL), yet the send goes out on the stored balance.
    let app = spawn_app().await;
    let poor = account(&app.db(), "poor", 1.0).await;
    let (status, body) =
        app.json_as(&poor, Method::POST, "/send", Some(sms(&["33612345678", "33612345677"], "Hi"))).await;
    assert_eq!((status, body["status"].as_i64()), (402, Some(-3)), "{body}");
    app.sql("UPDATE accounts SET balance = 500 WHERE name = 'poor'").await;
    let (status, body) =
        app.json_as(&poor, Method::POST, "/send", Some(sms(&["33612345678", "33612345677"], "Hi"))).await;
    assert_eq!((status, body["credits"].as_f64()), (200, Some(3.0)), "{body}");
}

#[tokio::test]
async fn a_delayed_campaign_is_scheduled_and_can_be_cancelled_for_a_refund() {
    let app = spawn_app().await;
    let mut body = sms(&["33612345678"], "Later");
    body["sms"]["message"]["delay"] = json!(
        (chrono::Utc::now() + chrono::Duration::days(30))
            .with_timezone(&chrono_tz_paris())
            .format("%Y-%m-%d %H:%M:%S")
            .to_string()
    );
    let (status, sent) = app.json(Method::POST, "/send", Some(body)).await;
    assert_eq!(status, 200, "{sent}");
    let ticket = sent["ticket"].as_str().unwrap().to_owned();
    let (_, detail) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert_eq!(detail["campaign"][0]["status"], "Scheduled");
    assert_eq!(app.json(Method::GET, "/credits", None).await.1["credits"], "999");
    let (status, cancelled) = app.json(Method::DELETE, &format!("/send/{ticket}"), None).await;
    assert_eq!(
        (status, cancelled["credits"].as_str()),
        (200, Some("1000")),
        "the balance after the refund: {cancelled}"
    );
    assert_eq!(app.json(Method::GET, "/credits", None).await.1["credits"], "1000", "refunded");
    let (status, again) = app.json(Method::DELETE, &format!("/send/{ticket}"), None).await;
    assert_eq!((status, again["status"].as_i64()), (422, Some(-7)), "already cancelled: {again}");
}

fn chrono_tz_paris() -> chrono::FixedOffset {
    // Paris is UTC+1 or +2; one hour either way does not matter 30 days ahead.
    chrono::FixedOffset::east_opt(3600).unwrap()
}

#[tokio::test]
async fn fifty_concurrent_sends_never_overdraw_an_account() {
    let app = spawn_app().await;
    let token = account(&app.db(), "race", 20.0).await;
    let sends = (0..50).map(|i| {
        let app = &app;
        let token = token.clone();
        async move {
            app.json_as(&token, Method::POST, "/send", Some(sms(&[&format!("336{:08}", 10_000_000 + i)], "Race"))).await
        }
    });
    let results = futures_util::future::join_all(sends).await;
    let accepted = results.iter().filter(|(status, _)| *status == 200).count();
    let refused = results.iter().filter(|(status, body)| *status == 402 && body["status"] == -3).count();
    assert_eq!((accepted, refused), (20, 30));
    assert_eq!(app.json_as(&token, Method::GET, "/credits", None).await.1["credits"], "0");
}

#[tokio::test]
async fn anti_flood_stops_the_seventh_identical_text_within_the_hour() {
    let app = spawn_app().await;
    for attempt in 1..=6 {
        let (_, body) = app.json(Method::POST, "/send", Some(sms(&["33612345678"], "Same text"))).await;
        assert_eq!(body["sent"], 1, "attempt {attempt}: {body}");
    }
    let (_, seventh) = app.json(Method::POST, "/send", Some(sms(&["33612345678"], "Same text"))).await;
    assert_eq!(
        (seventh["sent"].as_i64(), seventh["flood"].as_i64(), seventh["cost"].as_f64()),
        (Some(0), Some(1), Some(0.0)),
        "{seventh}"
    );
    let (_, other) = app.json(Method::POST, "/send", Some(sms(&["33612345678"], "Another text"))).await;
    assert_eq!(other["sent"], 1, "a different text is still allowed: {other}");
}

#[tokio::test]
async fn anti_flood_remembers_the_last_hour_across_a_restart() {
    let app = spawn_app().await;
    for _ in 1..=6 {
        assert_eq!(app.json(Method::POST, "/send", Some(sms(&["33612345678"], "Same text"))).await.1["sent"], 1);
    }
    let app = app.restarted().await;
    let (_, seventh) = app.json(Method::POST, "/send", Some(sms(&["33612345678"], "Same text"))).await;
    assert_eq!((seventh["sent"].as_i64(), seventh["flood"].as_i64()), (Some(0), Some(1)), "{seventh}");
}

/// `texto account …` on the test app's database.
async fn operator(app: &crate::helpers::TestApp, action: AccountAction) -> String {
    account_commands::account(&app.db(), action).await.expect("the command succeeds")
}

/// `texto account country alice CODE [--block] [--allow] [--monthly-cap N]`.
fn country(code: &str, block: bool, allow: bool, monthly_cap: Option<u32>) -> AccountAction {
    AccountAction::Country { name: "alice".into(), country: code.into(), block, allow, monthly_cap, no_cap: false }
}

#[tokio::test]
async fn a_monthly_country_cap_counts_every_campaign_of_the_month() {
    let app = spawn_app().await;
    let said = operator(&app, country("fr", false, false, Some(3))).await;
    assert_eq!(said, "account alice, FR: allowed, at most 3 messages a month");
    let (_, first) = app.json(Method::POST, "/send", Some(sms(&["33612345671", "33612345672"], "Cap"))).await;
    assert_eq!((first["sent"].as_i64(), first["country_limit"].as_i64()), (Some(2), Some(0)), "{first}");
    let (_, second) = app.json(Method::POST, "/send", Some(sms(&["33612345673", "33612345674"], "Cap"))).await;
    assert_eq!((second["sent"].as_i64(), second["country_limit"].as_i64()), (Some(1), Some(1)), "{second}");
    let (_, third) = app.json(Method::POST, "/send/simulate", Some(sms(&["33612345675"], "Cap"))).await;
    assert_eq!((third["sent"].as_i64(), third["country_limit"].as_i64()), (Some(0), Some(1)), "{third}");
}

#[tokio::test]
async fn a_blocked_country_is_not_allowed_until_allowed_again() {
    let app = spawn_app().await;
    let said = operator(&app, country("BE", true, false, None)).await;
    assert_eq!(said, "account alice, BE: blocked, no monthly cap");
    let belgian_and_french = sms(&["32470123456", "33612345678"], "Bonjour");
    let (_, blocked) = app.json(Method::POST, "/send/simulate", Some(belgian_and_french.clone())).await;
    assert_eq!((blocked["sent"].as_i64(), blocked["not_allowed"].as_i64()), (Some(1), Some(1)), "{blocked}");
    operator(&app, country("BE", false, true, None)).await;
    let (_, allowed) = app.json(Method::POST, "/send/simulate", Some(belgian_and_french)).await;
    assert_eq!((allowed["sent"].as_i64(), allowed["not_allowed"].as_i64()), (Some(2), Some(0)), "{allowed}");
}

#[tokio::test]
async fn an_account_s_own_flood_limits_replace_the_defaults() {
    let app = spawn_app().await;
    let flood = |identical, any| AccountAction::Flood {
        name: "alice".into(),
        identical_per_hour: identical,
        any_per_hour: any,
    };
    let said = operator(&app, flood(Some(1), None)).await;
    assert_eq!(said, "account alice: at most 1 identical texts and 20 texts per number and rolling hour");
    assert_eq!(app.json(Method::POST, "/send", Some(sms(&["33612345678"], "Same"))).await.1["sent"], 1);
    let (_, second) = app.json(Method::POST, "/send", Some(sms(&["33612345678"], "Same"))).await;
    assert_eq!((second["sent"].as_i64(), second["flood"].as_i64()), (Some(0), Some(1)), "{second}");
    operator(&app, flood(None, Some(2))).await;
    assert_eq!(
        app.json(Method::POST, "/send", Some(sms(&["33612345678"], "Other"))).await.1["sent"],
        1,
        "a second text, another one"
    );
    let (_, third) = app.json(Method::POST, "/send", Some(sms(&["33612345678"], "Third"))).await;
    assert_eq!(
        (third["sent"].as_i64(), third["flood"].as_i64()),
        (Some(0), Some(1)),
        "two texts an hour at most: {third}"
    );
    let unknown = account_commands::account(&app.db(), country("XX", true, false, None)).await;
    assert!(matches!(unknown, Err(texto_server::Error::Command(_))), "{unknown:?}");
}

#[tokio::test]
async fn a_large_campaign_is_sent_whole() {
    // Over 256 KiB: the server handles it off the async threads; the answer is the same.
    let app = spawn_app().await;
    let token = account(&app.db(), "bulk", 20_000.0).await;
    let numbers: Vec<String> = (0..12_000).map(|i| format!("336{:08}", 20_000_000 + i)).collect();
    let refs: Vec<&str> = numbers.iter().map(String::as_str).collect();
    let body = sms(&refs, "Grande campagne");
    assert!(body.to_string().len() > 256 * 1024);
    let (status, simulated) = app.json_as(&token, Method::POST, "/send/simulate", Some(body.clone())).await;
    assert_eq!((status, simulated["sent"].as_i64()), (200, Some(12_000)), "{simulated}");
    let (status, sent) = app.json_as(&token, Method::POST, "/send", Some(body)).await;
    assert_eq!((status, sent["sent"].as_i64(), sent["credits"].as_f64()), (200, Some(12_000), Some(8_000.0)), "{sent}");
    let (_, history) = app.json_as(&token, Method::GET, "/campaigns", None).await;
    assert_eq!(history["totalRecords"], 1, "{history}");
}

#[tokio::test]
async fn a_document_labelled_as_a_form_is_read_as_a_document() {
    // What `curl -d '{...}'` sends: a JSON body with the form content type.
    let app = spawn_app().await;
    let response = app
        .request(&app.token, Method::POST, "/send")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(sms(&["33612345678"], "curl").to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn concurrent_sends_never_overdraw_the_account() {
    let app = spawn_app().await;
    let bob = account(&app.db(), "bob", 10.0).await;
    // 30 sends of one credit each at once, to different numbers (no anti-flood), for 10 credits.
    let sends = (0..30).map(|i| {
        let (app, bob) = (&app, &bob);
        async move {
            app.json_as(bob, Method::POST, "/send", Some(sms(&[&format!("336{:08}", 20_000_000 + i)], "Hello"))).await
        }
    });
    let answers = futures_util::future::join_all(sends).await;
    let accepted = answers.iter().filter(|(status, _)| *status == 200).count();
    let refused = answers.iter().filter(|(status, body)| *status == 402 && body["status"] == -3).count();
    assert_eq!((accepted, refused), (10, 20), "{answers:?}");
    let (_, credits) = app.json_as(&bob, Method::GET, "/credits", None).await;
    assert_eq!(credits["credits"], "0");
}
