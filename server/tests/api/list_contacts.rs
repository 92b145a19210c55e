//! The contacts of a stored list: searching them (`GET /list/{id}?search=`) and deleting one
//! (`DELETE /list/{id}/contact/{contact_id}`), in JSON and XML, within the caller's account.

use reqwest::Method;
use serde_json::{Value, json};
use texto_core::wire::{ErrorResponse, Format, ListResponse, StatusResponse, decode};

use crate::helpers::{TestApp, account, spawn_app};

/// Creates a list as Alice from `(number, info1, info3)`; returns its id.
async fn create(app: &TestApp, name: &str, contacts: &[(&str, &str, &str)]) -> String {
    let gsm: Vec<Value> = contacts
        .iter()
        .map(|(number, info1, info3)| json!({"value": number, "info1": info1, "info3": info3}))
        .collect();
    let (status, body) =
        app.json(Method::POST, "/list", Some(json!({"list": {"name": name, "contacts": {"gsm": gsm}}}))).await;
    assert_eq!(status, 200, "{body}");
    body["id"].as_str().expect("an id").to_owned()
}

/// The numbers of a `GET /list/{id}` answer, in order.
fn numbers(body: &Value) -> Vec<&str> {
    body["list"].as_array().expect("a list").iter().map(|c| c["destination"].as_str().expect("a number")).collect()
}

#[tokio::test]
async fn a_search_finds_digits_of_numbers_or_any_field_whatever_the_case() {
    let app = spawn_app().await;
    let id = create(
        &app,
        "Clients",
        &[
            ("33612345678", "Éloïse", "Paris"),
            ("33698765432", "Marc", "paris-nord"),
            ("33612345677", "Zoé", "1892"),
            ("33751234567", "Ana", ""),
        ],
    )
    .await;
    let search = |query: &str| {
        let (app, path) = (&app, format!("/list/{id}?{query}"));
        async move { app.json(Method::GET, &path, None).await }
    };
    let (status, found) = search("search=612").await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(
        (found["contacts"].as_i64(), found["totalRecords"].as_i64(), found["totalDisplayRecords"].as_i64()),
        (Some(4), Some(4), Some(2)),
        "{found}"
    );
    assert_eq!(numbers(&found), ["33612345678", "33612345677"], "in the order they were added");
    let cases = [
        ("search=PARIS", vec!["33612345678", "33698765432"]),
        ("search=%C3%A9lo%C3%AFse", vec!["33612345678"]),
        ("search=%C3%89LO", vec!["33612345678"]),
        ("search=%20zo%20", vec!["33612345677"]),
        ("search=1892", vec!["33612345677"]),
        ("search=%2B33%2075", vec!["33751234567"]),
        ("search=nobody", vec![]),
    ];
    for (query, expected) in cases {
        let (status, found) = search(query).await;
        assert_eq!((status, numbers(&found)), (200, expected.clone()), "{query}: {found}");
        assert_eq!(
            (found["totalRecords"].as_i64(), found["totalDisplayRecords"].as_i64()),
            (Some(4), Some(expected.len() as i64)),
            "{query}"
        );
    }
    let (_, paged) = search("search=paris&start=1&length=1").await;
    assert_eq!(
        (numbers(&paged), paged["totalDisplayRecords"].as_i64()),
        (vec!["33698765432"], Some(2)),
        "paging applies to the matches: {paged}"
    );
    let (_, beyond) = search("search=paris&start=2").await;
    assert_eq!((numbers(&beyond).len(), beyond["totalDisplayRecords"].as_i64()), (0, Some(2)), "{beyond}");
    let (_, blank) = search("search=").await;
    assert_eq!(
        (numbers(&blank).len(), blank["totalDisplayRecords"].as_i64()),
        (4, Some(4)),
        "a blank search shows everything"
    );
    let (status, error) = search("search=x&start=first").await;
    assert_eq!((status, error["status"].as_i64()), (400, Some(-7)), "bad paging: {error}");

    let (status, xml) = app.xml(Method::GET, &format!("/list/{id}?search=MARC"), None).await;
    assert_eq!(status, 200, "{xml}");
    let list: ListResponse = decode(&xml, Format::Xml).unwrap();
    assert_eq!(
        (list.total_records, list.total_display_records, list.list[0].destination.as_str()),
        (4, 1, "33698765432")
    );
}

#[tokio::test]
async fn a_search_sees_only_the_callers_list() {
    let app = spawn_app().await;
    let id = create(&app, "Alice's", &[("33612345678", "Ada", "")]).await;
    let bob = account(&app.db(), "bob", 10.0).await;
    let (status, error) = app.json_as(&bob, Method::GET, &format!("/list/{id}?search=Ada"), None).await;
    assert_eq!((status, error["status"].as_i64()), (404, Some(-5)), "{error}");
}

#[tokio::test]
async fn one_contact_is_deleted_from_its_list() {
    let app = spawn_app().await;
    let id =
        create(&app, "Three", &[("33612345678", "Ada", ""), ("33612345677", "Grace", ""), ("33612345676", "Hedy", "")])
            .await;
    let other = create(&app, "Other", &[("33612345678", "Ada", "")]).await;
    let (_, list) = app.json(Method::GET, &format!("/list/{id}"), None).await;
    let grace = list["list"][1]["id"].as_str().expect("contact ids are strings").to_owned();

    let (status, body) = app.json(Method::DELETE, &format!("/list/{id}/contact/{grace}"), None).await;
    assert_eq!((status, body), (200, json!({"status": 1, "message": "OK"})));
    let (_, list) = app.json(Method::GET, &format!("/list/{id}"), None).await;
    assert_eq!((list["contacts"].as_i64(), numbers(&list)), (Some(2), vec!["33612345678", "33612345676"]), "{list}");
    let (_, kept) = app.json(Method::GET, &format!("/list/{other}"), None).await;
    assert_eq!(kept["contacts"], 1, "other lists keep their contacts");

    let hedy = list["list"][1]["id"].as_str().unwrap().to_owned();
    let (status, xml) = app.xml(Method::DELETE, &format!("/list/{id}/contact/{hedy}"), None).await;
    assert_eq!((status, decode::<StatusResponse>(&xml, Format::Xml).unwrap()), (200, StatusResponse::ok()), "{xml}");
    let (status, xml) = app.xml(Method::DELETE, &format!("/list/{id}/contact/{hedy}"), None).await;
    let error: ErrorResponse = decode(&xml, Format::Xml).unwrap();
    assert_eq!((status, error.status), (404, -5), "already deleted: {xml}");
}

#[tokio::test]
async fn deleting_a_contact_not_of_the_callers_list_is_not_found() {
    let app = spawn_app().await;
    let id = create(&app, "Alice's", &[("33612345678", "Ada", "")]).await;
    let other = create(&app, "Other", &[("33612345677", "Grace", "")]).await;
    let (_, list) = app.json(Method::GET, &format!("/list/{id}"), None).await;
    let ada = list["list"][0]["id"].as_str().unwrap().to_owned();
    let bob = account(&app.db(), "bob", 10.0).await;
    let bobs = {
        let (_, body) = app
            .json_as(
                &bob,
                Method::POST,
                "/list",
                Some(json!({"list": {"name": "Bob's", "contacts": {"gsm": [{"value": "33612345676"}]}}})),
            )
            .await;
        body["id"].as_str().unwrap().to_owned()
    };
    let (status, error) = app.json_as(&bob, Method::DELETE, &format!("/list/{id}/contact/{ada}"), None).await;
    assert_eq!((status, error["status"].as_i64()), (404, Some(-5)), "Bob, Alice's list: {error}");
    let (status, error) = app.json_as(&bob, Method::DELETE, &format!("/list/{bobs}/contact/{ada}"), None).await;
    assert_eq!((status, error["status"].as_i64()), (404, Some(-5)), "Bob's list, Alice's contact: {error}");
    for path in [
        format!("/list/{other}/contact/{ada}"),
        format!("/list/999999/contact/{ada}"),
        format!("/list/{id}/contact/999999"),
        format!("/list/{id}/contact/abc"),
        format!("/list/abc/contact/{ada}"),
    ] {
        let (status, error) = app.json(Method::DELETE, &path, None).await;
        assert_eq!(
            (status, error["status"].as_i64(), error["message"].as_str()),
            (404, Some(-5), Some("Resource not found")),
            "{path}: {error}"
        );
    }
    let (_, list) = app.json(Method::GET, &format!("/list/{id}"), None).await;
    assert_eq!(list["contacts"], 1, "Alice's contact is still there: {list}");
}
