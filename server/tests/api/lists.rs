//! Stored lists: creating, adding, reading, renaming, deleting, paging, errors and account
//! isolation, in JSON and XML, and sending a campaign to a list.

use reqwest::Method;
use serde_json::{Value, json};
use texto_core::wire::{ErrorResponse, Format, ListResponse, ListSavedResponse, ListsResponse, StatusResponse, decode};

use crate::helpers::{TestApp, account, spawn_app};

fn contacts(numbers: &[&str]) -> Value {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n, "info1": format!("name-{n}")})).collect();
    json!({"gsm": gsm})
}

/// Creates the list `name` as Alice; returns its id.
async fn create(app: &TestApp, name: &str, numbers: &[&str]) -> String {
    let (status, body) =
        app.json(Method::POST, "/list", Some(json!({"list": {"name": name, "contacts": contacts(numbers)}}))).await;
    assert_eq!(status, 200, "{body}");
    body["id"].as_str().expect("the id is a string").to_owned()
}

/// Sends `body` with `content_type` as Alice, answering JSON.
async fn raw(app: &TestApp, method: Method, path: &str, content_type: &str, body: &str) -> (u16, Value) {
    let response = app
        .request(&app.token, method, path)
        .header("Content-Type", content_type)
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

#[tokio::test]
async fn a_list_created_in_json_reads_back_like_the_sample() {
    let app = spawn_app().await;
    let sample: Value =
        serde_json::from_str(include_str!("../../../core/tests/fixtures/list_create.request.json")).unwrap();
    let (status, saved) = app.json(Method::POST, "/list", Some(sample)).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(
        (
            saved["status"].as_i64(),
            saved["message"].as_str(),
            saved["contacts"].as_i64(),
            saved["invalid"].as_i64(),
            saved["duplicates"].as_i64()
        ),
        (Some(1), Some("OK"), Some(2), Some(0), Some(0))
    );
    let id = saved["id"].as_str().expect("id is a JSON string");

    let (status, list) = app.json(Method::GET, &format!("/list/{id}"), None).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(
        (
            list["name"].as_str(),
            list["contacts"].as_i64(),
            list["totalRecords"].as_i64(),
            list["totalDisplayRecords"].as_i64()
        ),
        (Some("My list"), Some(2), Some(2), Some(2))
    );
    let first = &list["list"][0];
    assert!(first["id"].is_string(), "{first}");
    assert_eq!(
        (
            first["destination"].as_str(),
            first["info1"].as_str(),
            first["info2"].as_str(),
            first["info3"].as_str(),
            first["info4"].as_str()
        ),
        (Some("33612345678"), Some("Louis"), Some("de Broglie"), Some("1892"), Some("Dieppe"))
    );
    assert_eq!(list["list"][1]["destination"], "33612345677");

    let (status, lists) = app.json(Method::GET, "/lists", None).await;
    assert_eq!(status, 200, "{lists}");
    assert_eq!(lists["totalRecords"], 1);
    let date = lists["lists"][0]["date"].clone();
    assert_eq!(lists["lists"][0], json!({"id": id, "name": "My list", "contacts": 2, "count": 2, "date": date}));
}

#[tokio::test]
async fn every_list_endpoint_speaks_xml() {
    let app = spawn_app().await;
    let (status, xml) = app
        .xml(Method::POST, "/list", Some(include_str!("../../../core/tests/fixtures/list_create.request.xml")))
        .await;
    assert_eq!(status, 200, "{xml}");
    let saved: ListSavedResponse = decode(&xml, Format::Xml).unwrap();
    assert_eq!((saved.status, saved.contacts, saved.invalid, saved.duplicates), (1, 2, 0, 0));
    let id = saved.id;

    let add = include_str!("../../../core/tests/fixtures/list_add_contacts.request.xml").replace("50433", &id);
    let (status, xml) = app.xml(Method::POST, "/list", Some(&add)).await;
    assert_eq!(status, 200, "{xml}");
    let added: ListSavedResponse = decode(&xml, Format::Xml).unwrap();
    assert_eq!((added.contacts, added.invalid, added.duplicates, added.id.as_str()), (3, 0, 0, id.as_str()));

    let (status, xml) = app.xml(Method::GET, &format!("/list/{id}"), None).await;
    assert_eq!(status, 200, "{xml}");
    let list: ListResponse = decode(&xml, Format::Xml).unwrap();
    assert_eq!((list.name.as_str(), list.contacts, list.total_records, list.list.len()), ("My list", 5, 5, 5));
    let hiroo = &list.list[2];
    assert_eq!(
        (hiroo.destination.as_str(), hiroo.info1.as_deref(), hiroo.info2.as_deref(), hiroo.info3.as_deref()),
        ("41781234567", Some("Hiroo"), Some("Onoda"), None)
    );

    let rename = r#"<?xml version="1.0" encoding="UTF-8"?><list><name>Renamed</name><contacts><gsm info1="Ada">33612345600</gsm></contacts></list>"#;
    let (status, xml) = app.xml(Method::PUT, &format!("/list/{id}"), Some(rename)).await;
    assert_eq!(status, 200, "{xml}");
    let updated: ListSavedResponse = decode(&xml, Format::Xml).unwrap();
    assert_eq!((updated.contacts, updated.id.as_str()), (1, id.as_str()));

    let (status, xml) = app.xml(Method::GET, "/lists", None).await;
    assert_eq!(status, 200, "{xml}");
    let lists: ListsResponse = decode(&xml, Format::Xml).unwrap();
    assert_eq!((lists.total_records, lists.lists.len()), (1, 1));
    assert_eq!(
        (lists.lists[0].id.as_str(), lists.lists[0].name.as_str(), lists.lists[0].contacts),
        (id.as_str(), "Renamed", 6)
    );

    let (status, xml) = app.xml(Method::DELETE, &format!("/list/{id}"), None).await;
    assert_eq!(status, 200, "{xml}");
    assert_eq!(decode::<StatusResponse>(&xml, Format::Xml).unwrap(), StatusResponse::ok());
    let (status, xml) = app.xml(Method::GET, &format!("/list/{id}"), None).await;
    let error: ErrorResponse = decode(&xml, Format::Xml).unwrap();
    assert_eq!((status, error.status), (404, -5), "{xml}");
    let (status, xml) = app.xml(Method::GET, "/lists", None).await;
    assert_eq!(status, 200, "{xml}");
    let lists: ListsResponse = decode(&xml, Format::Xml).unwrap();
    assert_eq!((lists.total_records, lists.lists.len()), (0, 0), "{xml}");
}

#[tokio::test]
async fn invalid_and_duplicate_contacts_are_counted_not_stored() {
    let app = spawn_app().await;
    let body = json!({"list": {"name": "Mixed", "contacts": contacts(&["33612345678", "+33 6 12 34 56 78", "0612345678", "33612345677", "nope"])}});
    let (status, saved) = app.json(Method::POST, "/list", Some(body)).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(
        (saved["contacts"].as_i64(), saved["invalid"].as_i64(), saved["duplicates"].as_i64()),
        (Some(2), Some(2), Some(1)),
        "{saved}"
    );
    let id = saved["id"].as_str().unwrap();

    let (_, added) = app
        .json(
            Method::POST,
            "/list",
            Some(json!({"list": {"listId": id, "contacts": contacts(&["33612345678", "33612345676"])}})),
        )
        .await;
    assert_eq!(
        (added["contacts"].as_i64(), added["duplicates"].as_i64(), added["id"].as_str()),
        (Some(1), Some(1), Some(id)),
        "{added}"
    );
    let (_, numeric_id) = app
        .json(
            Method::POST,
            "/list",
            Some(json!({"list": {"listId": id.parse::<i64>().unwrap(), "contacts": contacts(&["33612345675"])}})),
        )
        .await;
    assert_eq!(numeric_id["contacts"], 1, "listId may be a JSON number, as in a public sample: {numeric_id}");

    let (_, list) = app.json(Method::GET, &format!("/list/{id}"), None).await;
    assert_eq!(list["contacts"], 4);
    assert_eq!(list["list"][0]["info1"], "name-33612345678", "a duplicate does not overwrite the first contact");
    assert!(list["list"][0].get("info2").is_none(), "empty fields are left out as in the sample: {list}");
}

#[tokio::test]
async fn put_renames_and_adds() {
    let app = spawn_app().await;
    let id = create(&app, "Before", &["33612345678"]).await;
    let (status, saved) = app.json(Method::PUT, &format!("/list/{id}"), Some(json!({"list": {"name": "After"}}))).await;
    assert_eq!(
        (status, saved["contacts"].as_i64(), saved["id"].as_str()),
        (200, Some(0), Some(id.as_str())),
        "{saved}"
    );
    let (status, saved) = app
        .json(
            Method::PUT,
            &format!("/list/{id}"),
            Some(json!({"list": {"contacts": contacts(&["33612345677", "33612345678", "123"])}})),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(
        (saved["contacts"].as_i64(), saved["duplicates"].as_i64(), saved["invalid"].as_i64()),
        (Some(1), Some(1), Some(1))
    );
    let (_, list) = app.json(Method::GET, &format!("/list/{id}"), None).await;
    assert_eq!((list["name"].as_str(), list["contacts"].as_i64()), (Some("After"), Some(2)));
}

#[tokio::test]
async fn deleting_a_list_removes_its_contacts() {
    let app = spawn_app().await;
    let id = create(&app, "Gone", &["33612345678", "33612345677"]).await;
    let keep = create(&app, "Kept", &["33612345678"]).await;
    let (status, body) = app.json(Method::DELETE, &format!("/list/{id}"), None).await;
    assert_eq!((status, body["status"].as_i64(), body["message"].as_str()), (200, Some(1), Some("OK")));
    let (status, again) = app.json(Method::DELETE, &format!("/list/{id}"), None).await;
    assert_eq!((status, again["status"].as_i64()), (404, Some(-5)));
    let send = json!({"sms": {"message": {"text": "x", "pushtype": "alert"}, "lists": [{"value": id}]}});
    let (status, _) = app.json(Method::POST, "/send/lists/simulate", Some(send)).await;
    assert_eq!(status, 404, "a deleted list cannot be sent to");
    let (_, kept) = app.json(Method::GET, &format!("/list/{keep}"), None).await;
    assert_eq!(kept["contacts"], 1, "other lists keep their contacts");
    assert_eq!(contacts_in_database(&app, &id).await, 0, "no orphan contacts");
}

/// Contacts the database still holds for list `id` (no endpoint shows a deleted list's).
async fn contacts_in_database(app: &TestApp, id: &str) -> i64 {
    let id: i64 = id.parse().expect("a numeric id");
    let rows = app.sql(&format!("SELECT COUNT(*) FROM contacts WHERE list_id = {id}")).await;
    rows[0][0].as_deref().and_then(|n| n.parse().ok()).expect("a count")
}

#[tokio::test]
async fn errors_have_the_envelope_and_the_right_status() {
    let app = spawn_app().await;
    let id = create(&app, "Mine", &["33612345678"]).await;
    let (status, error) = raw(&app, Method::POST, "/list", "application/json", r#"{"list": {"name": "#).await;
    assert_eq!((status, error["status"].as_i64()), (400, Some(-6)), "malformed JSON: {error}");
    assert!(error["details"].is_string());
    let (status, error) = raw(&app, Method::POST, "/list", "application/xml", "<list><name>x</list>").await;
    assert_eq!((status, error["status"].as_i64()), (400, Some(-2)), "malformed XML: {error}");
    let (status, error) = raw(&app, Method::PUT, &format!("/list/{id}"), "application/json", "{").await;
    assert_eq!((status, error["status"].as_i64()), (400, Some(-6)), "malformed JSON on PUT: {error}");

    let cases = [
        ("missing name and listId", json!({"list": {"contacts": contacts(&["33612345678"])}}), "list.name"),
        ("empty name", json!({"list": {"name": "  ", "contacts": contacts(&[])}}), "list.name"),
        ("name too long", json!({"list": {"name": "x".repeat(256)}}), "list.name"),
        ("name and listId", json!({"list": {"name": "x", "listId": id}}), "list.listId"),
    ];
    for (name, body, path) in cases {
        let (status, error) = app.json(Method::POST, "/list", Some(body)).await;
        assert_eq!(
            (status, error["status"].as_i64(), error["errors"][0]["path"].as_str()),
            (422, Some(-7), Some(path)),
            "{name}: {error}"
        );
    }
    let (status, error) =
        app.json(Method::PUT, &format!("/list/{id}"), Some(json!({"list": {"listId": "12345"}}))).await;
    assert_eq!((status, error["status"].as_i64()), (422, Some(-7)), "listId differing from the path: {error}");
    let (status, error) = app.json(Method::PUT, &format!("/list/{id}"), Some(json!({"list": {"name": ""}}))).await;
    assert_eq!((status, error["status"].as_i64()), (422, Some(-7)), "empty new name: {error}");

    for unknown in ["999999", "abc"] {
        let add = json!({"list": {"listId": unknown, "contacts": contacts(&["33612345678"])}});
        let (status, error) = app.json(Method::POST, "/list", Some(add)).await;
        assert_eq!((status, error["status"].as_i64()), (404, Some(-5)), "POST listId {unknown}: {error}");
        for method in [Method::GET, Method::DELETE] {
            let (status, error) = app.json(method.clone(), &format!("/list/{unknown}"), None).await;
            assert_eq!((status, error["status"].as_i64()), (404, Some(-5)), "{method} {unknown}: {error}");
        }
        let (status, error) =
            app.json(Method::PUT, &format!("/list/{unknown}"), Some(json!({"list": {"name": "x"}}))).await;
        assert_eq!((status, error["status"].as_i64()), (404, Some(-5)), "PUT {unknown}: {error}");
    }
    let (status, error) = app.json(Method::GET, "/lists?length=many", None).await;
    assert_eq!((status, error["status"].as_i64()), (400, Some(-7)), "bad paging: {error}");
    let (status, xml) = app.xml(Method::POST, "/list", Some("<list><name>")).await;
    let error: ErrorResponse = decode(&xml, Format::Xml).unwrap();
    assert_eq!((status, error.status), (400, -2), "{xml}");
    let (status, xml) = app.xml(Method::POST, "/list", Some("<list><contacts/></list>")).await;
    let error: ErrorResponse = decode(&xml, Format::Xml).unwrap();
    assert_eq!((status, error.status), (422, -7), "{xml}");
}

#[tokio::test]
async fn lists_and_contacts_are_paged() {
    let app = spawn_app().await;
    let numbers: Vec<String> = (0..250).map(|i| format!("336{:08}", 20_000_000 + i)).collect();
    let refs: Vec<&str> = numbers.iter().map(String::as_str).collect();
    let id = create(&app, "Big", &refs).await;
    for name in ["Second", "Third"] {
        create(&app, name, &[]).await;
    }
    let get = |path: String| {
        let app = &app;
        async move { app.json(Method::GET, &path, None).await.1 }
    };
    let first = get(format!("/list/{id}")).await;
    assert_eq!(
        (first["list"].as_array().unwrap().len(), first["totalRecords"].as_i64(), first["contacts"].as_i64()),
        (100, Some(250), Some(250))
    );
    let middle = get(format!("/list/{id}?start=100&length=30")).await;
    assert_eq!(middle["list"].as_array().unwrap().len(), 30);
    assert_eq!(middle["list"][0]["destination"], numbers[100], "in the order they were added");
    assert_eq!(
        get(format!("/list/{id}?length=100000")).await["list"].as_array().unwrap().len(),
        250,
        "length is capped, not refused"
    );
    assert_eq!(get(format!("/list/{id}?start=250")).await["list"].as_array().unwrap().len(), 0);

    let lists = get("/lists?start=1&length=1".into()).await;
    assert_eq!((lists["totalRecords"].as_i64(), lists["lists"].as_array().unwrap().len()), (Some(3), 1));
    assert_eq!((lists["lists"][0]["name"].as_str(), lists["lists"][0]["contacts"].as_i64()), (Some("Second"), Some(0)));
}

#[tokio::test]
async fn one_account_never_sees_or_changes_another_accounts_lists() {
    let app = spawn_app().await;
    let id = create(&app, "Alice's", &["33612345678", "33612345677"]).await;
    let bob = account(&app.db(), "bob", 100.0).await;
    let (_, lists) = app.json_as(&bob, Method::GET, "/lists", None).await;
    assert_eq!(
        (lists["totalRecords"].as_i64(), lists["lists"].as_array().map(Vec::len)),
        (Some(0), Some(0)),
        "{lists}"
    );
    let path = format!("/list/{id}");
    let attempts = [
        (Method::GET, path.as_str(), None),
        (
            Method::PUT,
            path.as_str(),
            Some(json!({"list": {"name": "Bob's now", "contacts": contacts(&["33612345676"])}})),
        ),
        (Method::DELETE, path.as_str(), None),
        (Method::POST, "/list", Some(json!({"list": {"listId": id, "contacts": contacts(&["33612345676"])}}))),
        (
            Method::POST,
            "/send/lists/simulate",
            Some(json!({"sms": {"message": {"text": "x"}, "lists": [{"value": id}]}})),
        ),
        (
            Method::POST,
            "/send/lists",
            Some(json!({"sms": {"message": {"text": "x", "pushtype": "alert"}, "lists": [{"value": id}]}})),
        ),
    ];
    for (method, path, body) in attempts {
        let (status, error) = app.json_as(&bob, method.clone(), path, body).await;
        assert_eq!((status, error["status"].as_i64()), (404, Some(-5)), "Bob {method} {path}: {error}");
    }
    let (_, list) = app.json(Method::GET, &path, None).await;
    assert_eq!(
        (list["name"].as_str(), list["contacts"].as_i64()),
        (Some("Alice's"), Some(2)),
        "Alice's list is untouched: {list}"
    );
    assert_eq!(app.json_as(&bob, Method::GET, "/credits", None).await.1["credits"], "100", "Bob paid nothing");
}

#[tokio::test]
async fn a_campaign_goes_to_a_list_with_its_fields_and_filter() {
    let app = spawn_app().await;
    let body = json!({"list": {"name": "Clients", "contacts": {"gsm": [
        {"value": "33612345678", "info1": "Ada"},
        {"value": "33612345677", "info1": "Grace"},
        {"value": "33612345676", "info1": "Hedy"},
    ]}}});
    let (_, saved) = app.json(Method::POST, "/list", Some(body)).await;
    let id = saved["id"].as_str().unwrap().to_owned();

    let send = json!({"sms": {"message": {"text": "Hello [info1]", "pushtype": "alert"}, "lists": [{"value": id}]}});
    let (status, result) = app.json(Method::POST, "/send/lists", Some(send)).await;
    assert_eq!(status, 200, "{result}");
    assert!(result["ticket"].is_string(), "{result}");
    assert_eq!(
        (result["total"].as_i64(), result["sent"].as_i64(), result["cost"].as_f64()),
        (Some(3), Some(3), Some(3.0)),
        "{result}"
    );
    let (_, campaign) = app.json(Method::GET, &format!("/campaign/{}", result["ticket"].as_str().unwrap()), None).await;
    assert_eq!(campaign["campaign"][0]["lists"][0]["id"], id, "{campaign}");

    let (_, blacklisted) = app
        .json(Method::POST, "/blacklist", Some(json!({"blacklist": {"contacts": {"gsm": [{"value": "33612345677"}]}}})))
        .await;
    assert_eq!(blacklisted["added_contacts"], 1);
    let simulate = json!({"sms": {"message": {"text": "Hello [info1]"}, "lists": [{"value": id}]}});
    let (status, result) = app.json(Method::POST, "/send/lists/simulate", Some(simulate)).await;
    assert_eq!(status, 200, "{result}");
    assert_eq!(
        (result["total"].as_i64(), result["blacklisted"].as_i64(), result["sent"].as_i64()),
        (Some(3), Some(1), Some(2)),
        "{result}"
    );

    let numbers = json!({"sms": {"message": {"text": "Hi", "pushtype": "alert"}, "recipients": {"gsm": [{"value": "33612345677"}, {"value": "33612345678"}]}}});
    let (_, result) = app.json(Method::POST, "/send/simulate", Some(numbers)).await;
    assert_eq!((result["blacklisted"].as_i64(), result["sent"].as_i64()), (Some(1), Some(1)), "{result}");
}

#[tokio::test]
async fn a_hundred_thousand_contacts_import_in_one_request() {
    let app = spawn_app().await;
    let gsm: Vec<Value> =
        (0..100_000).map(|i| json!({"value": format!("336{:08}", 30_000_000 + i), "info1": format!("c{i}")})).collect();
    let body = json!({"list": {"name": "Huge", "contacts": {"gsm": gsm}}});
    // Import speed is measured by scripts/load (a million contacts), not here: this request
    // must take every one of them and keep them in order.
    let (status, saved) = app.json(Method::POST, "/list", Some(body)).await;
    assert_eq!(
        (status, saved["contacts"].as_i64(), saved["invalid"].as_i64()),
        (200, Some(100_000), Some(0)),
        "{saved}"
    );
    let id = saved["id"].as_str().unwrap();
    let (_, list) = app.json(Method::GET, &format!("/list/{id}?start=99999"), None).await;
    assert_eq!(
        (list["contacts"].as_i64(), list["list"][0]["destination"].as_str()),
        (Some(100_000), Some("33630099999"))
    );
}
