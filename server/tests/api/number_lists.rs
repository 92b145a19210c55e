//! `/npai` and `/blacklist`: adding, listing, paging, removing, errors and account isolation,
//! in JSON and XML, and their effect on sends.

use reqwest::Method;
use serde_json::{Value, json};
use texto_core::wire::{AddedContactsResponse, ErrorResponse, Format, NumberListResponse, StatusResponse, decode};

use crate::helpers::{TestApp, account, spawn_app};

/// The two number lists, by path and JSON root.
const LISTS: [&str; 2] = ["npai", "blacklist"];

fn add_body(list: &str, numbers: &[&str]) -> Value {
    let gsm: Vec<Value> =
        numbers.iter().map(|n| json!({"value": n, "info1": format!("i1-{n}"), "info2": "two"})).collect();
    json!({ list: {"contacts": {"gsm": gsm}} })
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

fn is_paris_date(date: &str) -> bool {
    let b = date.as_bytes();
    b.len() == 19 && b[4] == b'-' && b[7] == b'-' && b[10] == b' ' && b[13] == b':' && b[16] == b':'
}

#[tokio::test]
async fn adding_in_json_counts_new_numbers_only_and_lists_them_like_the_sample() {
    let app = spawn_app().await;
    for list in LISTS {
        let (status, body) = app
            .json(
                Method::POST,
                &format!("/{list}"),
                Some(add_body(list, &["33612345678", "33612345677", "33612345678"])),
            )
            .await;
        assert_eq!(
            (status, body["status"].as_i64(), body["added_contacts"].as_i64()),
            (200, Some(1), Some(2)),
            "{list}: {body}"
        );
        assert_eq!(body["message"], "OK");
        let (_, again) = app
            .json(Method::POST, &format!("/{list}"), Some(add_body(list, &["+33 6 12 34 56 78", "33612345676"])))
            .await;
        assert_eq!(again["added_contacts"], 1, "{list}: a number already there is not counted: {again}");

        let (status, listing) = app.json(Method::GET, &format!("/{list}"), None).await;
        assert_eq!(status, 200, "{listing}");
        assert_eq!(
            (listing["totalRecords"].as_i64(), listing["totalDisplayRecords"].as_i64()),
            (Some(3), Some(3)),
            "{listing}"
        );
        let entries = listing["list"].as_array().unwrap();
        let destinations: Vec<&str> = entries.iter().map(|e| e["destination"].as_str().unwrap()).collect();
        assert_eq!(destinations, ["33612345678", "33612345677", "33612345676"], "not duplicated, oldest first");
        let first = &entries[0];
        assert!(first["id"].is_string(), "{first}");
        assert!(is_paris_date(first["date"].as_str().unwrap()), "{first}");
        assert_eq!(
            (first["info1"].as_str(), first["info2"].as_str(), first["info3"].as_str()),
            (Some("i1-33612345678"), Some("two"), Some("")),
            "the first addition's fields stay"
        );
        assert_eq!(first["user_information"], json!([]));
        assert_eq!(
            (first["campaign_id"].clone(), first["batch_id"].clone()),
            (Value::Null, Value::Null),
            "manual additions have no campaign"
        );
    }
}

#[tokio::test]
async fn the_public_xml_samples_are_accepted_and_answers_decode() {
    let app = spawn_app().await;
    for (list, sample) in [
        ("npai", include_str!("../../../core/tests/fixtures/npai_add.request.xml")),
        ("blacklist", include_str!("../../../core/tests/fixtures/blacklist_add.request.xml")),
    ] {
        let (status, xml) = app.xml(Method::POST, &format!("/{list}"), Some(sample)).await;
        assert_eq!(status, 200, "{xml}");
        let added: AddedContactsResponse = decode(&xml, Format::Xml).unwrap();
        assert_eq!((added.status, added.message.as_str(), added.added_contacts), (1, "OK", 3));

        let (status, xml) = app.xml(Method::GET, &format!("/{list}"), None).await;
        assert_eq!(status, 200, "{xml}");
        assert!(xml.contains("<batch_id>null</batch_id>") && xml.contains("<campaign_id>null</campaign_id>"), "{xml}");
        let listing: NumberListResponse = decode(&xml, Format::Xml).unwrap();
        assert_eq!(
            (listing.status, listing.total_records, listing.total_display_records, listing.list.len()),
            (1, 3, 3, 3)
        );
        let last = &listing.list[2];
        assert_eq!(
            (last.info1.as_str(), last.info2.as_str(), last.info3.as_str(), last.info4.as_str()),
            ("Hedy", "Lamarr", "Extase", "1933")
        );
        assert!(is_paris_date(&last.date), "{last:?}");
        assert_eq!((last.campaign_id, last.batch_id), (None, None));

        let number = &listing.list[0].destination;
        let (status, xml) = app.xml(Method::DELETE, &format!("/{list}/{number}"), None).await;
        assert_eq!(status, 200, "{xml}");
        let deleted: StatusResponse = decode(&xml, Format::Xml).unwrap();
        assert_eq!(deleted, StatusResponse::ok());
        let (status, xml) = app.xml(Method::DELETE, &format!("/{list}/{number}"), None).await;
        let error: ErrorResponse = decode(&xml, Format::Xml).unwrap();
        assert_eq!((status, error.status), (404, -5), "{xml}");
    }
}

#[tokio::test]
async fn an_empty_listing_in_xml_decodes() {
    let app = spawn_app().await;
    let (status, xml) = app.xml(Method::GET, "/blacklist", None).await;
    assert_eq!(status, 200, "{xml}");
    let listing: NumberListResponse = decode(&xml, Format::Xml).unwrap();
    assert_eq!((listing.list.len(), listing.total_records), (0, 0));
}

#[tokio::test]
async fn invalid_numbers_refuse_the_whole_request_naming_each() {
    let app = spawn_app().await;
    for list in LISTS {
        let body = add_body(list, &["33612345678", "0612345678", "hello", "33612345677", ""]);
        let (status, error) = app.json(Method::POST, &format!("/{list}"), Some(body)).await;
        assert_eq!((status, error["status"].as_i64()), (422, Some(-7)), "{error}");
        let paths: Vec<&str> =
            error["errors"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
        assert_eq!(
            paths,
            [
                format!("{list}.contacts.gsm[1].value"),
                format!("{list}.contacts.gsm[2].value"),
                format!("{list}.contacts.gsm[4].value")
            ],
            "{error}"
        );
        assert!(error["details"].as_str().unwrap().contains("national format"), "{error}");
        let (_, listing) = app.json(Method::GET, &format!("/{list}"), None).await;
        assert_eq!(listing["totalRecords"], 0, "nothing half-imported");
    }
}

#[tokio::test]
async fn errors_have_the_envelope_and_the_right_status() {
    let app = spawn_app().await;
    for list in LISTS {
        let path = format!("/{list}");
        let (status, error) =
            raw(&app, Method::POST, &path, "application/json", &format!(r#"{{"{list}": {{"contacts": "#)).await;
        assert_eq!((status, error["status"].as_i64()), (400, Some(-6)), "malformed JSON: {error}");
        let (status, error) = raw(&app, Method::POST, &path, "application/xml", "<list><contacts><gsm>336").await;
        assert_eq!((status, error["status"].as_i64()), (400, Some(-2)), "malformed XML: {error}");
        let (status, error) = app.json(Method::POST, &path, Some(json!({ list: {} }))).await;
        assert_eq!((status, error["status"].as_i64()), (422, Some(-7)), "no numbers: {error}");
        assert_eq!(error["errors"][0]["path"], format!("{list}.contacts.gsm"));
        let (status, error) =
            app.json(Method::POST, &path, Some(json!({ list: {"contacts": {"gsm": [{"info1": "no value"}]}} }))).await;
        assert_eq!(
            (status, error["errors"][0]["path"].as_str()),
            (422, Some(format!("{list}.contacts.gsm[0].value").as_str())),
            "missing value: {error}"
        );
        let (status, error) = app.json(Method::DELETE, &format!("/{list}/33612345678"), None).await;
        assert_eq!((status, error["status"].as_i64()), (404, Some(-5)), "unknown number: {error}");
        let (status, error) = app.json(Method::DELETE, &format!("/{list}/not-a-number"), None).await;
        assert_eq!((status, error["status"].as_i64()), (404, Some(-5)), "invalid number: {error}");
        let (status, error) = app.json(Method::GET, &format!("/{list}?start=abc"), None).await;
        assert_eq!((status, error["status"].as_i64()), (400, Some(-7)), "bad paging: {error}");
        let (status, error) = app.json(Method::GET, &format!("/{list}?destination=0612345678"), None).await;
        assert_eq!((status, error["errors"][0]["path"].as_str()), (422, Some("destination")), "bad filter: {error}");
        let (status, xml) = app.xml(Method::POST, &path, Some("<list><contacts>")).await;
        let error: ErrorResponse = decode(&xml, Format::Xml).unwrap();
        assert_eq!((status, error.status), (400, -2), "malformed XML answered in XML: {xml}");
    }
}

#[tokio::test]
async fn listings_are_paged_and_filtered() {
    let app = spawn_app().await;
    let numbers: Vec<String> = (0..250).map(|i| format!("336{:08}", 10_000_000 + i)).collect();
    let refs: Vec<&str> = numbers.iter().map(String::as_str).collect();
    for list in LISTS {
        let (_, added) = app.json(Method::POST, &format!("/{list}"), Some(add_body(list, &refs))).await;
        assert_eq!(added["added_contacts"], 250);
        let page = |query: &'static str| {
            let app = &app;
            async move { app.json(Method::GET, &format!("/{list}{query}"), None).await.1 }
        };
        let first = page("").await;
        assert_eq!(
            (first["list"].as_array().unwrap().len(), first["totalRecords"].as_i64()),
            (100, Some(250)),
            "100 by default"
        );
        let last = page("?start=200&length=100").await;
        assert_eq!(last["list"].as_array().unwrap().len(), 50);
        assert_eq!(last["list"][0]["destination"], numbers[200]);
        assert_eq!(
            page("?length=5000").await["list"].as_array().unwrap().len(),
            250,
            "length is capped at 1000, not refused"
        );
        assert_eq!(page("?start=300").await["list"].as_array().unwrap().len(), 0);
        let one = page("?destination=%2B33%206%2010%2000%2000%2007").await;
        assert_eq!((one["totalRecords"].as_i64(), one["totalDisplayRecords"].as_i64()), (Some(250), Some(1)), "{one}");
        assert_eq!(one["list"][0]["destination"], numbers[7]);
    }
}

#[tokio::test]
async fn listings_are_searched_by_digits_with_paging() {
    let app = spawn_app().await;
    let bob = account(&app.db(), "bob", 10.0).await;
    for list in LISTS {
        app.json(
            Method::POST,
            &format!("/{list}"),
            Some(add_body(list, &["33612345678", "33698765432", "33612345677"])),
        )
        .await;
        app.json_as(&bob, Method::POST, &format!("/{list}"), Some(add_body(list, &["33612345676"]))).await;
        let search = |query: &'static str| {
            let app = &app;
            async move { app.json(Method::GET, &format!("/{list}?{query}"), None).await }
        };
        let destinations = |body: &Value| -> Vec<String> {
            body["list"].as_array().unwrap().iter().map(|e| e["destination"].as_str().unwrap().to_owned()).collect()
        };
        let (status, found) = search("search=612").await;
        assert_eq!(
            (status, found["totalRecords"].as_i64(), found["totalDisplayRecords"].as_i64()),
            (200, Some(3), Some(2)),
            "{found}"
        );
        assert_eq!(destinations(&found), ["33612345678", "33612345677"], "oldest first, Bob's number left out");
        let (_, paged) = search("search=612&start=1&length=1").await;
        assert_eq!(
            (paged["totalDisplayRecords"].as_i64(), destinations(&paged)),
            (Some(2), vec!["33612345677".to_owned()]),
            "{paged}"
        );
        let (_, written) = search("search=%2B33%206%2098").await;
        assert_eq!(destinations(&written), ["33698765432"], "separators and a leading + are ignored: {written}");
        let (_, both) = search("search=612&destination=33612345677").await;
        assert_eq!(
            (both["totalDisplayRecords"].as_i64(), destinations(&both)),
            (Some(1), vec!["33612345677".to_owned()]),
            "{both}"
        );
        let (_, none) = search("search=000").await;
        assert_eq!(
            (none["totalRecords"].as_i64(), none["totalDisplayRecords"].as_i64(), destinations(&none).len()),
            (Some(3), Some(0), 0),
            "{none}"
        );
        let (_, blank) = search("search=%20").await;
        assert_eq!(blank["totalDisplayRecords"], 3, "a blank search shows everything: {blank}");
        let (status, error) = search("search=6x2").await;
        assert_eq!(
            (status, error["status"].as_i64(), error["errors"][0]["path"].as_str()),
            (422, Some(-7), Some("search")),
            "{error}"
        );
    }
    let (status, xml) = app.xml(Method::GET, "/npai?search=765", None).await;
    assert_eq!(status, 200, "{xml}");
    let listing: NumberListResponse = decode(&xml, Format::Xml).unwrap();
    assert_eq!(
        (listing.total_records, listing.total_display_records, listing.list[0].destination.as_str()),
        (3, 1, "33698765432")
    );
}

#[tokio::test]
async fn one_account_never_sees_or_changes_another_accounts_numbers() {
    let app = spawn_app().await;
    let bob = account(&app.db(), "bob", 10.0).await;
    for list in LISTS {
        app.json(Method::POST, &format!("/{list}"), Some(add_body(list, &["33612345678", "33612345677"]))).await;
        let (_, seen) = app.json_as(&bob, Method::GET, &format!("/{list}"), None).await;
        assert_eq!(
            (seen["totalRecords"].as_i64(), seen["list"].as_array().map(Vec::len)),
            (Some(0), Some(0)),
            "{seen}"
        );
        let (_, filtered) = app.json_as(&bob, Method::GET, &format!("/{list}?destination=33612345678"), None).await;
        assert_eq!(filtered["totalDisplayRecords"], 0);
        let (status, _) = app.json_as(&bob, Method::DELETE, &format!("/{list}/33612345678"), None).await;
        assert_eq!(status, 404, "Bob cannot remove Alice's entry");
        let (_, own) =
            app.json_as(&bob, Method::POST, &format!("/{list}"), Some(add_body(list, &["33612345678"]))).await;
        assert_eq!(own["added_contacts"], 1, "Bob's list is his own");
        let (status, _) = app.json_as(&bob, Method::DELETE, &format!("/{list}/33612345678"), None).await;
        assert_eq!(status, 200);
        let (_, alice) = app.json(Method::GET, &format!("/{list}"), None).await;
        assert_eq!(alice["totalRecords"], 2, "Alice's entries are untouched: {alice}");
    }
}

#[tokio::test]
async fn sends_leave_out_blacklisted_and_npai_numbers_of_the_account_only() {
    let app = spawn_app().await;
    let sms = json!({"sms": {"message": {"text": "Hi", "pushtype": "alert"}, "recipients": {"gsm": [
        {"value": "33612345678"}, {"value": "33612345677"}, {"value": "33612345676"}
    ]}}});
    app.json(Method::POST, "/blacklist", Some(add_body("blacklist", &["33612345678"]))).await;
    app.json(Method::POST, "/npai", Some(add_body("npai", &["33612345677"]))).await;
    let (status, result) = app.json(Method::POST, "/send/simulate", Some(sms.clone())).await;
    assert_eq!(status, 200, "{result}");
    assert_eq!(
        (result["total"].as_i64(), result["blacklisted"].as_i64(), result["npai"].as_i64(), result["sent"].as_i64()),
        (Some(3), Some(1), Some(1), Some(1)),
        "{result}"
    );

    let bob = account(&app.db(), "bob", 10.0).await;
    let (_, theirs) = app.json_as(&bob, Method::POST, "/send/simulate", Some(sms.clone())).await;
    assert_eq!(
        (theirs["blacklisted"].as_i64(), theirs["sent"].as_i64()),
        (Some(0), Some(3)),
        "Alice's blacklist is not Bob's: {theirs}"
    );

    app.json(Method::DELETE, "/blacklist/33612345678", None).await;
    let (_, after) = app.json(Method::POST, "/send/simulate", Some(sms)).await;
    assert_eq!(
        (after["blacklisted"].as_i64(), after["sent"].as_i64()),
        (Some(0), Some(2)),
        "removed from the blacklist: {after}"
    );
}
