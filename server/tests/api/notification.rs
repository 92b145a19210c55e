//! Balance alert settings: defaults, saving and reading back in JSON and XML, every
//! validation error, and one account's settings never showing in another's.

use reqwest::Method;
use serde_json::{Value, json};
use texto_core::wire::{ErrorResponse, Format, NotificationResponse, decode};

use crate::helpers::{account, spawn_app};

fn settings(trigger: Value, email_on: &str, gsm_on: &str, email: &str, phone: &str) -> Value {
    json!({"notification": {"alert_trigger": trigger, "alert_email": email_on, "alert_gsm": gsm_on, "email": email, "phone_number": phone}})
}

#[tokio::test]
async fn get_answers_the_defaults_before_anything_is_saved() {
    let app = spawn_app().await;
    let (status, body) = app.json(Method::GET, "/notification/balance", None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({"status": 1, "message": "OK", "notification": {
            "alert_trigger": "0", "alert_email": "0", "alert_gsm": "0", "email": "", "phone_number": "", "gsm": ""
        }})
    );
    let (status, xml) = app.xml(Method::GET, "/notification/balance", None).await;
    assert_eq!(status, 200, "{xml}");
    let answer: NotificationResponse = decode(&xml, Format::Xml).expect("a notification response");
    assert_eq!((answer.status, answer.message.as_str()), (1, "OK"));
    let n = answer.notification;
    assert_eq!(
        (n.alert_trigger.as_deref(), n.alert_email.as_deref(), n.alert_gsm.as_deref()),
        (Some("0"), Some("0"), Some("0"))
    );
}

#[tokio::test]
async fn put_saves_and_echoes_all_five_as_strings() {
    let app = spawn_app().await;
    let (status, body) = app
        .json(
            Method::PUT,
            "/notification/balance",
            Some(settings(json!("1000"), "1", "1", "ops@example.com", "+33 6 12 34 56 78")),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({"status": 1, "message": "OK", "notification": {
            "alert_trigger": "1000", "alert_email": "1", "alert_gsm": "1", "email": "ops@example.com", "phone_number": "33612345678"
        }})
    );
    let (status, body) = app.json(Method::GET, "/notification/balance", None).await;
    assert_eq!(status, 200, "{body}");
    let n = &body["notification"];
    assert_eq!(
        (n["alert_trigger"].as_str(), n["alert_email"].as_str(), n["alert_gsm"].as_str()),
        (Some("1000"), Some("1"), Some("1"))
    );
    assert_eq!(
        (n["email"].as_str(), n["phone_number"].as_str(), n["gsm"].as_str()),
        (Some("ops@example.com"), Some("33612345678"), Some("33612345678"))
    );

    // Numbers written as JSON numbers are read as their digits; a later PUT replaces it all.
    let (status, body) = app
        .json(
            Method::PUT,
            "/notification/balance",
            Some(json!({"notification": {"alert_trigger": 50, "alert_email": 0}})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["notification"],
        json!({"alert_trigger": "50", "alert_email": "0", "alert_gsm": "0", "email": "", "phone_number": ""})
    );
}

#[tokio::test]
async fn put_and_get_in_xml() {
    let app = spawn_app().await;
    let body = "<notification><alert_trigger>250</alert_trigger><alert_email>1</alert_email><alert_gsm>0</alert_gsm><email>billing@example.org</email><phone_number></phone_number></notification>";
    let (status, xml) = app.xml(Method::PUT, "/notification/balance", Some(body)).await;
    assert_eq!(status, 200, "{xml}");
    let answer: NotificationResponse = decode(&xml, Format::Xml).expect("a notification response");
    assert_eq!((answer.status, answer.message.as_str()), (1, "OK"));
    let n = answer.notification;
    assert_eq!(
        (n.alert_trigger.as_deref(), n.alert_email.as_deref(), n.alert_gsm.as_deref()),
        (Some("250"), Some("1"), Some("0"))
    );
    assert_eq!(n.email.as_deref(), Some("billing@example.org"));
    assert!(n.phone_number.as_deref().unwrap_or_default().is_empty(), "{xml}");

    let (status, xml) = app.xml(Method::GET, "/notification/balance", None).await;
    assert_eq!(status, 200, "{xml}");
    let n = decode::<NotificationResponse>(&xml, Format::Xml).expect("a notification response").notification;
    assert_eq!(
        (n.alert_trigger.as_deref(), n.alert_email.as_deref(), n.email.as_deref()),
        (Some("250"), Some("1"), Some("billing@example.org"))
    );

    let (status, xml) = app
        .xml(
            Method::PUT,
            "/notification/balance",
            Some("<notification><alert_trigger>ten</alert_trigger></notification>"),
        )
        .await;
    assert_eq!(status, 422, "{xml}");
    let error: ErrorResponse = decode(&xml, Format::Xml).expect("an error envelope");
    assert_eq!(error.status, -7);
    assert_eq!(error.errors.iter().map(|e| e.path.as_str()).collect::<Vec<_>>(), ["notification.alert_trigger"]);
}

#[tokio::test]
async fn invalid_settings_are_refused_with_the_field_named() {
    let app = spawn_app().await;
    let ok_phone = "33612345678";
    let cases: Vec<(&str, Value, &[&str])> = vec![
        ("no trigger", json!({"notification": {"alert_email": "0"}}), &["notification.alert_trigger"]),
        ("empty trigger", settings(json!(""), "0", "0", "", ""), &["notification.alert_trigger"]),
        ("negative trigger", settings(json!("-5"), "0", "0", "", ""), &["notification.alert_trigger"]),
        ("decimal trigger", settings(json!("1.5"), "0", "0", "", ""), &["notification.alert_trigger"]),
        ("words", settings(json!("ten"), "0", "0", "", ""), &["notification.alert_trigger"]),
        ("huge trigger", settings(json!("1234567890123456"), "0", "0", "", ""), &["notification.alert_trigger"]),
        ("alert_email 2", settings(json!("10"), "2", "0", "a@example.com", ""), &["notification.alert_email"]),
        ("alert_gsm yes", settings(json!("10"), "0", "yes", "", ok_phone), &["notification.alert_gsm"]),
        ("email required", settings(json!("10"), "1", "0", "", ""), &["notification.email"]),
        ("email without @", settings(json!("10"), "1", "0", "ops.example.com", ""), &["notification.email"]),
        ("email without dot", settings(json!("10"), "1", "0", "ops@localhost", ""), &["notification.email"]),
        ("email with two @", settings(json!("10"), "1", "0", "a@b@example.com", ""), &["notification.email"]),
        ("email with a space", settings(json!("10"), "1", "0", "o ps@example.com", ""), &["notification.email"]),
        ("bad email even when off", settings(json!("10"), "0", "0", "nope", ""), &["notification.email"]),
        ("phone required", settings(json!("10"), "0", "1", "", ""), &["notification.phone_number"]),
        ("national phone", settings(json!("10"), "0", "1", "", "0612345678"), &["notification.phone_number"]),
        ("letters for a phone", settings(json!("10"), "0", "1", "", "call me"), &["notification.phone_number"]),
        (
            "everything wrong",
            settings(json!("x"), "1", "1", "", ""),
            &["notification.alert_trigger", "notification.email", "notification.phone_number"],
        ),
    ];
    for (name, body, fields) in cases {
        let (status, answer) = app.json(Method::PUT, "/notification/balance", Some(body)).await;
        assert_eq!((status, answer["status"].as_i64()), (422, Some(-7)), "{name}: {answer}");
        let paths: Vec<&str> =
            answer["errors"].as_array().expect("errors").iter().filter_map(|e| e["path"].as_str()).collect();
        assert_eq!(paths, fields, "{name}: {answer}");
        assert!(answer["details"].as_str().is_some_and(|d| d.contains(fields[0])), "{name}: {answer}");
    }
    let (_, body) = app.json(Method::GET, "/notification/balance", None).await;
    assert_eq!(body["notification"]["alert_trigger"], "0", "nothing was saved: {body}");

    let malformed = app
        .request(&app.token, Method::PUT, "/notification/balance")
        .header("Content-Type", "application/json")
        .body("{")
        .send()
        .await
        .expect("sent");
    assert_eq!(malformed.status(), 400);
    assert_eq!(malformed.json::<Value>().await.expect("json")["status"], -6);
}

#[tokio::test]
async fn one_account_never_sees_another_accounts_settings() {
    let app = spawn_app().await;
    let (status, _) = app
        .json(Method::PUT, "/notification/balance", Some(settings(json!("500"), "1", "0", "alice@example.com", "")))
        .await;
    assert_eq!(status, 200);
    let bob = account(&app.db(), "bob", 10.0).await;
    let (_, body) = app.json_as(&bob, Method::GET, "/notification/balance", None).await;
    assert_eq!(
        (body["notification"]["alert_trigger"].as_str(), body["notification"]["email"].as_str()),
        (Some("0"), Some(""))
    );
    let (status, _) =
        app.json_as(&bob, Method::PUT, "/notification/balance", Some(settings(json!("7"), "0", "0", "", ""))).await;
    assert_eq!(status, 200);
    let (_, body) = app.json(Method::GET, "/notification/balance", None).await;
    assert_eq!(
        (body["notification"]["alert_trigger"].as_str(), body["notification"]["email"].as_str()),
        (Some("500"), Some("alice@example.com"))
    );
}
