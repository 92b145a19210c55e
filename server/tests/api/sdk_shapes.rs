//! The calls the official SMSFactor SDKs make, with the shapes they read: deleting
//! a list contact or a blacklist entry by the id a listing gave, webhooks under `webhooks`,
//! lists with `count` and `date`, `list_id` when adding contacts, and a doubled slash or a
//! `[]` body as the PHP SDK sends them.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, account, spawn_app};

/// Creates a list of `numbers` as the caller of `token`; its id and its contacts' ids.
async fn list_of(app: &TestApp, token: &str, numbers: &[&str]) -> (String, Vec<String>) {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n})).collect();
    let body = json!({"list": {"name": "Clients", "contacts": {"gsm": gsm}}});
    let (status, created) = app.json_as(token, Method::POST, "/list", Some(body)).await;
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_str().expect("an id").to_owned();
    let (_, list) = app.json_as(token, Method::GET, &format!("/list/{id}"), None).await;
    let contacts = list["list"].as_array().expect("contacts").iter().map(|c| c["id"].as_str().unwrap().to_owned());
    (id, contacts.collect())
}

#[tokio::test]
async fn a_list_contact_is_deleted_by_its_id_alone_and_only_by_its_owner() {
    let app = spawn_app().await;
    let (list, contacts) = list_of(&app, &app.token, &["33612345678", "33612345679"]).await;
    let other = account(&app.db(), "other", 0.0).await;
    let path = format!("/list/contact/{}", contacts[0]);
    let (status, body) = app.json_as(&other, Method::DELETE, &path, None).await;
    assert_eq!((status, body["status"].as_i64()), (404, Some(-5)), "another account's contact: {body}");
    let (status, body) = app.json(Method::DELETE, &path, None).await;
    assert_eq!((status, body["status"].as_i64()), (200, Some(1)), "{body}");
    let (_, left) = app.json(Method::GET, &format!("/list/{list}"), None).await;
    assert_eq!(left["list"].as_array().map(Vec::len), Some(1), "{left}");
    assert_eq!(left["list"][0]["destination"], "33612345679");
    let (status, body) = app.json(Method::DELETE, &path, None).await;
    assert_eq!((status, body["status"].as_i64()), (404, Some(-5)), "already gone: {body}");
    let (status, _) = app.json(Method::DELETE, "/list/contact/abc", None).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_blacklist_entry_is_deleted_by_the_id_the_listing_gave() {
    let app = spawn_app().await;
    let body = json!({"blacklist": {"contacts": {"gsm": [{"value": "33612345678"}, {"value": "33612345679"}]}}});
    let (status, added) = app.json(Method::POST, "/blacklist", Some(body)).await;
    assert_eq!(status, 200, "{added}");
    let (_, listed) = app.json(Method::GET, "/blacklist", None).await;
    let entry = listed["list"].as_array().expect("entries").iter().find(|e| e["destination"] == "33612345678").cloned();
    let path = format!("/blacklist/contact/{}", entry.expect("the entry")["id"].as_str().expect("an id"));
    let other = account(&app.db(), "other", 0.0).await;
    assert_eq!(app.json_as(&other, Method::DELETE, &path, None).await.0, 404, "another account's entry");
    let (status, body) = app.json(Method::DELETE, &path, None).await;
    assert_eq!((status, body["status"].as_i64()), (200, Some(1)), "{body}");
    let (_, listed) = app.json(Method::GET, "/blacklist", None).await;
    let left: Vec<&Value> = listed["list"].as_array().expect("entries").iter().map(|e| &e["destination"]).collect();
    assert_eq!(left, [&json!("33612345679")]);
    assert_eq!(app.json(Method::DELETE, &path, None).await.0, 404, "already gone");
}

#[tokio::test]
async fn webhooks_are_listed_under_webhooks_and_lists_carry_count_and_date() {
    let app = spawn_app().await;
    let hook = json!({"webhook": {"type": "DLR", "url": "https://example.com/dlr"}});
    assert_eq!(app.json(Method::POST, "/webhook", Some(hook)).await.0, 200);
    let (_, listed) = app.json(Method::GET, "/webhook", None).await;
    assert_eq!(listed["webhooks"][0]["url"], "https://example.com/dlr", "{listed}");
    assert_eq!(listed["webhooks"], listed["webhook"], "texto's first key stays");
    let (_, xml) = app.xml(Method::GET, "/webhook", None).await;
    assert!(xml.contains("<webhooks>") && xml.contains("https://example.com/dlr"), "{xml}");

    list_of(&app, &app.token, &["33612345678", "33612345679"]).await;
    let (_, lists) = app.json(Method::GET, "/lists", None).await;
    let first = &lists["lists"][0];
    assert_eq!((first["count"].as_i64(), first["contacts"].as_i64()), (Some(2), Some(2)), "{lists}");
    let date = first["date"].as_str().expect("a date");
    assert!(chrono::NaiveDateTime::parse_from_str(date, "%Y-%m-%d %H:%M:%S").is_ok(), "Y-m-d H:i:s: {date}");
}

#[tokio::test]
async fn contacts_are_added_with_list_id_as_the_php_example_writes_it() {
    let app = spawn_app().await;
    let (list, _) = list_of(&app, &app.token, &["33612345678"]).await;
    let body = json!({"list": {"list_id": list, "contacts": {"gsm": [{"value": "33612345679"}]}}});
    let (status, added) = app.json(Method::POST, "/list", Some(body)).await;
    assert_eq!(status, 200, "{added}");
    let (_, read) = app.json(Method::GET, &format!("/list/{list}"), None).await;
    assert_eq!(read["list"].as_array().map(Vec::len), Some(2), "added to the same list: {read}");
}

#[tokio::test]
async fn a_doubled_slash_and_an_empty_array_body_are_what_the_php_sdk_sends() {
    let app = spawn_app().await;
    let (status, credits) = app.json(Method::GET, "//credits", None).await;
    assert_eq!((status, credits["credits"].as_str()), (200, Some("1000")), "{credits}");
    let (status, credits) = app.json(Method::GET, "/credits", Some(json!([]))).await;
    assert_eq!((status, credits["status"].as_i64()), (200, Some(1)), "a [] body on a GET: {credits}");
    let (list, contacts) = list_of(&app, &app.token, &["33612345678"]).await;
    let (status, body) = app.json(Method::DELETE, &format!("//list/contact/{}", contacts[0]), Some(json!([]))).await;
    assert_eq!((status, body["status"].as_i64()), (200, Some(1)), "{body}");
    let (status, body) = app.json(Method::GET, &format!("/list//{list}"), None).await;
    assert_eq!(status, 200, "slashes inside the path too: {body}");
}

#[tokio::test]
async fn the_account_answers_with_its_name_and_balance_and_a_lookup_says_why_it_cannot() {
    let app = spawn_app().await;
    let poor = account(&app.db(), "Boulangerie Martin", 2.5).await;
    let (status, answer) = app.json_as(&poor, Method::GET, "/account", None).await;
    assert_eq!(status, 200, "{answer}");
    let account = &answer["account"];
    assert_eq!((account["company"].as_str(), account["credits"].as_str()), (Some("Boulangerie Martin"), Some("2.5")));
    assert_eq!(account["time_zone"], "Europe/Paris");
    assert_ne!(account["client_id"], app.json(Method::GET, "/account", None).await.1["account"]["client_id"]);
    let (status, xml) = app.xml(Method::GET, "/account", None).await;
    assert!(status == 200 && xml.contains("<account>") && xml.contains("<credits>1000</credits>"), "{xml}");
    assert_eq!(app.anonymous(Method::GET, "/account").send().await.expect("sent").status(), 401);

    let lookup = json!({"lookup": {"to": [{"value": "33612345678"}]}});
    let (status, refused) = app.json(Method::POST, "/lookup", Some(lookup)).await;
    assert_eq!((status, refused["status"].as_i64()), (422, Some(-7)), "{refused}");
    assert!(refused.to_string().contains("no HLR provider"), "says why: {refused}");
    for path in ["/account/invoice", "/account/invoice/12", "/account/invoice/12/download"] {
        let (status, refused) = app.json(Method::GET, path, None).await;
        assert_eq!((status, refused["status"].as_i64()), (422, Some(-7)), "{path}: {refused}");
        assert!(refused.to_string().contains("billing is the operator's own system"), "says why: {refused}");
    }
}

#[tokio::test]
async fn a_token_with_http_errors_off_gets_its_errors_as_200_as_the_sdks_need() {
    let app = spawn_app().await;
    let broke = account(&app.db(), "broke", 0.0).await;
    let sdk = texto_server::operator::account_commands::token(
        app.db(),
        texto_server::TokenAction::Create {
            account: "broke".into(),
            http_errors: texto_server::HttpErrors::Off,
            name: "PHP SDK".into(),
            ttl: None,
            allow_ip: Vec::new(),
            role: texto_core::Role::Owner,
        },
    )
    .await
    .expect("a token");
    let send = json!({"sms": {"message": {"text": "Hi", "pushtype": "alert"}, "recipients": {"gsm": [{"value": "33612345678"}]}}});
    let (status, body) = app.json_as(&broke, Method::POST, "/send", Some(send.clone())).await;
    assert_eq!((status, body["status"].as_i64()), (402, Some(-3)), "http_errors on (the default): {body}");
    let (status, body) = app.json_as(&sdk, Method::POST, "/send", Some(send)).await;
    assert_eq!((status, body["status"].as_i64()), (200, Some(-3)), "http_errors off: the same envelope, 200: {body}");
    let (status, body) = app.json_as(&sdk, Method::GET, "/campaign/999", None).await;
    assert_eq!((status, body["status"].as_i64()), (200, Some(-5)), "{body}");
    let (status, body) = app.json_as("texto_not_a_token", Method::GET, "/credits", None).await;
    assert_eq!(
        (status, body["status"].as_i64()),
        (401, Some(-1)),
        "without a valid token, the server's default: {body}"
    );
}

#[tokio::test]
async fn the_server_default_answers_requests_without_a_valid_token() {
    let app = crate::helpers::spawn_app_with(|config| config.http_errors = texto_server::HttpErrors::Off).await;
    let (status, body) = app.json_as("texto_not_a_token", Method::GET, "/credits", None).await;
    assert_eq!((status, body["status"].as_i64()), (200, Some(-1)), "{body}");
    let (status, body) = app.json(Method::GET, "/campaign/999", None).await;
    assert_eq!((status, body["status"].as_i64()), (404, Some(-5)), "a token's own setting wins: {body}");
    assert_eq!(app.get("/s/nothere").await.status(), 404, "pages keep their status");
}

#[tokio::test]
async fn campaigns_are_listed_with_their_creation_date_lists_and_delivery_counts() {
    let app = spawn_app().await;
    let (list, _) = list_of(&app, &app.token, &["33612345678", "33612345679"]).await;
    let send = json!({"sms": {"message": {"text": "Soldes", "pushtype": "alert"}, "lists": [{"value": list}]}});
    let (status, sent) = app.json(Method::POST, "/send/lists", Some(send)).await;
    assert_eq!(status, 200, "{sent}");
    let ticket = sent["ticket"].as_str().expect("a ticket").to_owned();
    let (_, listed) = app.json(Method::GET, "/campaigns", None).await;
    let item = &listed["campaigns"][0];
    let (_, detail) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
    let detail = &detail["campaign"][0];
    assert_eq!(item["lists"], json!([{"id": list}]), "{item}");
    for field in ["creation_date", "lists", "delivered", "error", "expired", "network_error", "stop", "npai", "total"] {
        assert_eq!(item[field], detail[field], "{field}: as GET /campaign/:id says");
    }
    let created = item["creation_date"].as_str().expect("a creation date");
    assert!(chrono::NaiveDateTime::parse_from_str(created, "%Y-%m-%d %H:%M:%S").is_ok(), "{created}");
}

#[tokio::test]
async fn an_http_errors_off_token_gets_unknown_paths_and_wrong_methods_as_200_too() {
    let app = spawn_app().await;
    let (_, created) =
        app.json(Method::POST, "/token", Some(json!({"token": {"name": "PHP SDK", "http_errors": 0}}))).await;
    let sdk = created["token"].as_str().expect("a token").to_owned();
    let (status, body) = app.json_as(&sdk, Method::GET, "/no/such/path", None).await;
    assert_eq!((status, body["status"].as_i64()), (200, Some(-5)), "{body}");
    let (status, body) = app.json_as(&sdk, Method::PATCH, "/credits", None).await;
    assert_eq!((status, body["status"].as_i64()), (200, Some(-7)), "{body}");
    let (status, _) = app.json(Method::GET, "/no/such/path", None).await;
    assert_eq!(status, 404, "a token with http_errors on keeps the status");
}

#[tokio::test]
async fn sub_accounts_answer_in_the_sdks_shapes_and_say_what_is_wrong() {
    let app = spawn_app().await;
    let (status, body) = app.json(Method::GET, "/sub-accounts", Some(json!([]))).await;
    assert_eq!((status, body["sub-accounts"].clone()), (200, json!([])), "{body}");
    let short = json!({"account": {"email": "a@example.com", "password": "secret", "isChild": 1}});
    let (status, body) = app.json(Method::POST, "/account", Some(short)).await;
    assert_eq!((status, body["status"].as_i64()), (422, Some(-7)), "{body}");
    assert!(body.to_string().contains("account.password"), "names the field: {body}");
    let (status, body) = app.json(Method::POST, "/token/account/1", Some(json!({"token": {"name": "x"}}))).await;
    assert_eq!((status, body["status"].as_i64()), (404, Some(-5)), "its own account is no sub-account: {body}");
    let created = json!({"account": {"email": "b@example.com", "password": "long enough secret", "isChild": "1"}});
    let (status, body) = app.json(Method::POST, "/account", Some(created)).await;
    assert_eq!((status, body["active"].as_i64()), (200, Some(1)), "{body}");
    let (status, xml) = app.xml(Method::GET, "/sub-accounts", None).await;
    assert_eq!(status, 200);
    assert!(xml.contains("<company>b@example.com</company>") && xml.contains("<current_month_consumption>0<"), "{xml}");
}

#[tokio::test]
async fn deleting_a_webhook_answers_its_id() {
    let app = spawn_app().await;
    let hook = json!({"webhook": {"type": "DLR", "url": "https://example.com/dlr"}});
    let (status, created) = app.json(Method::POST, "/webhook", Some(hook)).await;
    assert_eq!(status, 200, "{created}");
    let id = created["webhook"]["webhook_id"]
        .as_str()
        .map(str::to_owned)
        .unwrap_or_else(|| created["webhook"]["webhook_id"].to_string());
    let (status, deleted) = app.json(Method::DELETE, &format!("/webhook/{id}"), None).await;
    assert_eq!((status, deleted["deleted_id"].to_string()), (200, id), "{deleted}");
}
