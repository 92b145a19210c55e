//! Drafts on the server: kept for the team, changed, sent once as they stand, cloned from any
//! campaign, and private to their account.

use reqwest::Method;
use serde_json::{Value, json};

use crate::delivery::{quick_app, received, send, settled};

fn to_numbers(text: &str, numbers: &[&str]) -> Value {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n})).collect();
    json!({"sms": {"message": {"text": text, "pushtype": "alert"}, "recipients": {"gsm": gsm}}})
}

#[tokio::test]
async fn a_draft_is_kept_for_the_team_changed_then_sent_once_as_it_stands() {
    let app = quick_app().await;
    let (status, created) =
        app.json(Method::POST, "/campaign/draft", Some(to_numbers("Brouillon", &["33612345651"]))).await;
    assert_eq!(status, 200, "{created}");
    let draft = &created["draft"];
    let id = draft["id"].as_str().expect("an id").to_owned();
    assert_eq!(
        (draft["author"].as_str(), draft["sms"]["message"]["text"].as_str()),
        (Some("token \"Tests\""), Some("Brouillon"))
    );

    // A draft's number is never a campaign's.
    let other = send(&app, "Entre-temps", &["33612345652"], json!({})).await;
    assert_ne!(other, id);
    let (_, shown) = app.json(Method::GET, &format!("/campaign/{id}"), None).await;
    assert_eq!(shown["draft"]["id"].as_str(), Some(id.as_str()), "{shown}");

    // Unfinished is fine until it is sent.
    let (status, changed) = app
        .json(
            Method::PUT,
            &format!("/campaign/{id}"),
            Some(to_numbers("Soldes ce soir", &["33612345651", "33612345653"])),
        )
        .await;
    assert_eq!(
        (status, changed["draft"]["sms"]["message"]["text"].as_str()),
        (200, Some("Soldes ce soir")),
        "{changed}"
    );
    let (_, all) = app.json(Method::GET, "/drafts", None).await;
    assert_eq!(all["drafts"].as_array().map(Vec::len), Some(1), "{all}");
    assert_eq!(all["drafts"][0]["updated_by"], "token \"Tests\"");

    // A sender names the revision they saw: a teammate's change since stops the send.
    assert_eq!((created["draft"]["revision"].as_i64(), changed["draft"]["revision"].as_i64()), (Some(1), Some(2)));
    let (status, stale) = app.json(Method::POST, &format!("/campaign/{id}/send?revision=1"), None).await;
    assert_eq!((status, stale["status"].as_i64()), (422, Some(-7)), "{stale}");
    assert!(stale["details"].to_string().contains("revision 2"), "{stale}");
    let (status, sent) = app.json(Method::POST, &format!("/campaign/{id}/send?revision=2"), None).await;
    assert_eq!((status, sent["status"].as_i64()), (200, Some(1)), "{sent}");
    let ticket = sent["ticket"].as_str().expect("a ticket").to_owned();
    let campaign = settled(&app, &ticket).await;
    assert_eq!(campaign["delivered"], 2, "{campaign}");
    assert_eq!(received(&app, "33612345653").await[0]["text"], "Soldes ce soir");
    let (_, all) = app.json(Method::GET, "/drafts", None).await;
    assert_eq!(all["drafts"], json!([]), "a sent draft is no longer a draft");
    let (status, again) = app.json(Method::POST, &format!("/campaign/{id}/send"), None).await;
    assert_eq!(
        (status, again["ticket"].as_str()),
        (200, Some(ticket.as_str())),
        "sent once; again, the first answer: {again}"
    );
    let (_, campaigns) = app.json(Method::GET, "/campaigns", None).await;
    assert_eq!(campaigns["campaigns"].as_array().map(Vec::len), Some(2), "no second campaign: {campaigns}");
}

#[tokio::test]
async fn a_draft_that_cannot_go_stays_a_draft_and_says_why() {
    let app = quick_app().await;
    let mut body = to_numbers("Bonjour", &["33612345654"]);
    body["sms"]["message"]["pushtype"] = json!("promo");
    let (_, created) = app.json(Method::POST, "/campaign/draft", Some(body)).await;
    let id = created["draft"]["id"].as_str().expect("an id").to_owned();
    let (status, refused) = app.json(Method::POST, &format!("/campaign/{id}/send"), None).await;
    assert_eq!((status, refused["status"].as_i64()), (422, Some(-7)), "{refused}");
    assert!(refused["details"].to_string().contains("sms.message.pushtype"), "{refused}");
    assert_eq!(app.json(Method::GET, &format!("/campaign/{id}"), None).await.1["draft"]["id"], id.as_str());

    let (status, bad) =
        app.json(Method::POST, "/campaign/draft", Some(json!({"sms": {"message": "not an object"}}))).await;
    assert_eq!((status, bad["status"].as_i64()), (400, Some(-6)), "a body POST /send could not read: {bad}");

    let xml = "<sms><message><text>Rappel</text></message><recipients><gsm>33612345655</gsm></recipients></sms>";
    let (status, answer) = app.xml(Method::POST, "/campaign/draft", Some(xml)).await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("<text>Rappel</text>") && answer.contains("<draft>"), "{answer}");
}

#[tokio::test]
async fn a_clone_is_a_draft_of_the_same_message_to_the_same_recipients() {
    let app = quick_app().await;
    let extra = json!({"links": ["https://example.com/soldes"], "validity": 60, "sender": "Boutique"});
    let ticket = send(&app, "Soldes <-short->", &["33612345656", "33612345657"], extra).await;
    let (status, cloned) = app.json(Method::POST, &format!("/campaign/{ticket}/clone"), None).await;
    assert_eq!(status, 200, "{cloned}");
    let sms = &cloned["draft"]["sms"];
    assert_eq!(sms["message"]["text"], "Soldes <-short->", "{cloned}");
    assert_eq!(sms["message"]["links"], json!(["https://example.com/soldes"]));
    assert_eq!((sms["message"]["validity"].as_i64(), sms["message"]["sender"].as_str()), (Some(60), Some("Boutique")));
    let numbers: Vec<&str> =
        sms["recipients"]["gsm"].as_array().expect("numbers").iter().filter_map(|g| g["value"].as_str()).collect();
    assert_eq!(numbers, ["33612345656", "33612345657"]);

    let (_, list) = app
        .json(
            Method::POST,
            "/list",
            Some(json!({"list": {"name": "Clients", "contacts": {"gsm": [{"value": "33612345658"}]}}})),
        )
        .await;
    let list = list["id"].as_str().expect("a list").to_owned();
    let lists_send =
        json!({"sms": {"message": {"text": "Nouveautés", "pushtype": "alert"}, "lists": [{"value": list}]}});
    let (_, sent) = app.json(Method::POST, "/send/lists", Some(lists_send)).await;
    let ticket = sent["ticket"].as_str().expect("a ticket");
    let (_, cloned) = app.json(Method::POST, &format!("/campaign/{ticket}/clone"), None).await;
    assert_eq!(cloned["draft"]["sms"]["lists"], json!([{"value": list}]), "{cloned}");
    assert!(cloned["draft"]["sms"].get("recipients").is_none());
    let segment = json!({"segment": {"name": "Tous", "rules": [{"type": "list", "list": list}]}});
    let (_, segment) = app.json(Method::POST, "/segment", Some(segment)).await;
    let segment = segment["segment"]["id"].as_str().expect("a segment").to_owned();
    let to_segment = json!({"sms": {"message": {"text": "Rien que pour vous", "pushtype": "alert"}, "segments": [{"value": segment}]}});
    let (_, sent) = app.json(Method::POST, "/send/lists", Some(to_segment)).await;
    let (_, cloned_segment) =
        app.json(Method::POST, &format!("/campaign/{}/clone", sent["ticket"].as_str().expect("a ticket")), None).await;
    assert_eq!(cloned_segment["draft"]["sms"]["segments"], json!([{"value": segment}]), "{cloned_segment}");
    let id = cloned_segment["draft"]["id"].as_str().expect("an id");
    let (status, again) = app.json(Method::POST, &format!("/campaign/{id}/send"), None).await;
    assert_eq!((status, again["sent"].as_i64()), (200, Some(1)), "a clone sends as it is: {again}");

    let id = cloned["draft"]["id"].as_str().expect("an id");
    let (_, copy) = app.json(Method::POST, &format!("/campaign/{id}/clone"), None).await;
    assert_eq!(copy["draft"]["sms"], cloned["draft"]["sms"], "a draft clones too");
    assert_ne!(copy["draft"]["id"], cloned["draft"]["id"]);
}

#[tokio::test]
async fn another_account_cannot_read_change_send_clone_or_discard_a_draft() {
    let app = quick_app().await;
    let (_, created) = app.json(Method::POST, "/campaign/draft", Some(to_numbers("Privé", &["33612345659"]))).await;
    let id = created["draft"]["id"].as_str().expect("an id").to_owned();
    let ticket = send(&app, "Envoyé", &["33612345660"], json!({})).await;
    let bob = crate::helpers::account(&app.db(), "bob", 10.0).await;
    assert_eq!(app.json_as(&bob, Method::GET, "/drafts", None).await.1["drafts"], json!([]));
    for (method, path, body) in [
        (Method::GET, format!("/campaign/{id}"), None),
        (Method::PUT, format!("/campaign/{id}"), Some(to_numbers("Pris", &["33612345661"]))),
        (Method::POST, format!("/campaign/{id}/send"), None),
        (Method::POST, format!("/campaign/{id}/clone"), None),
        (Method::POST, format!("/campaign/{ticket}/clone"), None),
        (Method::DELETE, format!("/campaign/{id}"), None),
    ] {
        let (status, body) = app.json_as(&bob, method.clone(), &path, body).await;
        assert_eq!((status, body["status"].as_i64()), (404, Some(-5)), "{method} {path}: {body}");
    }
    assert_eq!(
        app.json(Method::DELETE, &format!("/campaign/{ticket}"), None).await.0,
        404,
        "a campaign is not discarded"
    );
    assert_eq!(app.json(Method::DELETE, &format!("/campaign/{id}"), None).await.0, 200);
    assert_eq!(app.json(Method::GET, &format!("/campaign/{id}"), None).await.0, 404);
}

#[tokio::test]
async fn a_test_send_shows_the_first_contact_s_message_on_the_team_s_phones_apart_from_the_campaign() {
    let app = quick_app().await;
    let contacts = json!({"list": {"name": "Clients", "contacts": {"gsm": [{"value": "33612345671", "info1": "Léa"}, {"value": "33612345672", "info1": "Hugo"}]}}});
    let (_, list) = app.json(Method::POST, "/list", Some(contacts)).await;
    let list = list["id"].as_str().expect("a list").to_owned();
    let body = json!({"sms": {"message": {"text": "Bonjour [info1], -20 % ce soir <-short->", "pushtype": "marketing",
        "links": ["https://example.com/soldes"], "delay": "2030-01-07 10:00:00"}, "lists": [{"value": list}]}});
    let (_, created) = app.json(Method::POST, "/campaign/draft", Some(body)).await;
    let id = created["draft"]["id"].as_str().expect("an id").to_owned();

    let (status, tested) = app
        .json(Method::POST, &format!("/campaign/{id}/test"), Some(json!({"numbers": ["33612345681", "33612345682"]})))
        .await;
    assert_eq!(status, 200, "{tested}");
    let test = tested["ticket"].as_str().expect("the test's own ticket").to_owned();
    settled(&app, &test).await;
    let got = received(&app, "33612345681").await;
    let text = got[0]["text"].as_str().expect("a text");
    assert!(
        text.starts_with("Bonjour Léa, -20 % ce soir http"),
        "the first contact's fields, a real short link: {text}"
    );
    assert!(text.ends_with("STOP au 36180"), "as recipients will read it: {text}");
    assert!(received(&app, "33612345671").await.is_empty(), "the contacts get nothing");
    assert_eq!(
        app.json(Method::GET, &format!("/campaign/{id}"), None).await.1["draft"]["id"],
        id.as_str(),
        "still a draft"
    );

    let eleven: Vec<String> = (0..11).map(|n| format!("336123457{n:02}")).collect();
    let (status, refused) =
        app.json(Method::POST, &format!("/campaign/{id}/test"), Some(json!({"numbers": eleven}))).await;
    assert_eq!((status, refused["status"].as_i64()), (422, Some(-7)), "{refused}");
    assert!(refused["details"].to_string().contains("numbers"), "{refused}");
    let bob = crate::helpers::account(&app.db(), "bob", 10.0).await;
    let (status, _) = app
        .json_as(&bob, Method::POST, &format!("/campaign/{id}/test"), Some(json!({"numbers": ["33612345683"]})))
        .await;
    assert_eq!(status, 404, "another account's draft");
}

#[tokio::test]
async fn an_erased_contact_leaves_the_drafts_that_named_it() {
    let app = quick_app().await;
    let (_, created) = app
        .json(Method::POST, "/campaign/draft", Some(to_numbers("Bientôt", &["+33 6 12 34 57 01", "33612345702"])))
        .await;
    let id = created["draft"]["id"].as_str().expect("an id").to_owned();
    let (status, _) =
        app.json(Method::PUT, "/contact/33612345701", Some(json!({"contact": {"firstname": "Léa"}}))).await;
    assert_eq!(status, 200);
    let (status, body) = app.json(Method::DELETE, "/contact/33612345701", None).await;
    assert_eq!(status, 200, "{body}");
    let (_, draft) = app.json(Method::GET, &format!("/campaign/{id}"), None).await;
    assert_eq!(draft["draft"]["sms"]["recipients"]["gsm"], json!([{"value": "33612345702"}]), "{draft}");
    assert_eq!(draft["draft"]["revision"].as_i64(), Some(2), "a sender who saw it before does not send the old one");
}

#[tokio::test]
async fn an_account_keeps_at_most_a_thousand_drafts() {
    let app = quick_app().await;
    for n in 0..1_000 {
        let (status, body) = app
            .json(Method::POST, "/campaign/draft", Some(to_numbers(&format!("Brouillon {n}"), &["33612345703"])))
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, refused) =
        app.json(Method::POST, "/campaign/draft", Some(to_numbers("Un de trop", &["33612345703"]))).await;
    assert_eq!((status, refused["status"].as_i64()), (422, Some(-7)), "{refused}");
    assert!(refused["details"].to_string().contains("at most 1000 drafts"), "{refused}");
}
