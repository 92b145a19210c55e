//! Journeys: a list's joiners go through a welcome that sends, waits and follows what they did;
//! an application puts numbers in one by API; the checks name each wrong step; four eyes and
//! the roles hold; and another account's journeys and lists stay out of reach.

use reqwest::Method;
use serde_json::{Value, json};
use texto_core::Role;

use crate::{
    delivery::{quick_app, received, until},
    helpers::{TestApp, another_accounts_list, spawn_app},
    team::token_with,
};

async fn new_list(app: &TestApp, name: &str) -> String {
    let (status, body) = app.json(Method::POST, "/list", Some(json!({"list": {"name": name}}))).await;
    assert_eq!(status, 200, "{body}");
    body["id"].as_str().expect("a list id").to_owned()
}

async fn join(app: &TestApp, list: &str, number: &str, firstname: &str) {
    let contacts = json!({"list": {"contacts": {"gsm": [{"value": number, "info1": firstname}]}}});
    let (status, body) = app.json(Method::PUT, &format!("/list/{list}"), Some(contacts)).await;
    assert_eq!(status, 200, "{body}");
}

pub(crate) async fn create(app: &TestApp, journey: Value) -> String {
    let (status, body) = app.json(Method::POST, "/journey", Some(json!({"journey": journey}))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["journey"]["status"], "draft");
    body["journey"]["id"].as_str().expect("an id").to_owned()
}

pub(crate) async fn set_status(app: &TestApp, token: &str, id: &str, status: &str) -> (u16, Value) {
    let body = json!({"journey": {"status": status}});
    app.json_as(token, Method::PUT, &format!("/journey/{id}/status"), Some(body)).await
}

/// Every contact's wait is over now.
pub(crate) async fn time_passes(app: &TestApp) {
    app.sql("UPDATE journey_entries SET due_at = '2000-01-01T00:00:00Z' WHERE state = 'active'").await;
}

/// The journey's contacts once `done` holds for them.
pub(crate) async fn contacts_when(app: &TestApp, id: &str, what: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    until(what, || async {
        let (_, body) = app.json(Method::GET, &format!("/journey/{id}/contacts"), None).await;
        let contacts = body["contacts"].as_array().cloned().unwrap_or_default();
        done(&contacts).then_some(contacts)
    })
    .await
}

async fn enter(app: &TestApp, id: &str, number: &str, fields: Value) -> (u16, Value) {
    let body = json!({"number": number, "fields": fields});
    app.json(Method::POST, &format!("/journey/{id}/enter"), Some(body)).await
}

pub(crate) fn at<'a>(contacts: &'a [Value], number: &str) -> &'a Value {
    contacts.iter().find(|c| c["number"] == number).expect("the number is in the journey")
}

#[tokio::test]
async fn a_welcome_sends_to_joiners_waits_and_follows_who_clicked() {
    let app = quick_app().await;
    let (club, clients) = (new_list(&app, "Club").await, new_list(&app, "Clients").await);
    join(&app, &club, "33611110000", "Before").await;
    let id = create(&app, json!({
        "name": "Bienvenue",
        "trigger": {"type": "list", "list": club},
        "steps": [
            {"type": "send", "text": "Bienvenue [firstname|ami] ! <-short->", "links": ["https://club.example/offre"]},
            {"type": "wait", "duration": "2d"},
            {"type": "branch", "if": {"type": "clicked"},
             "then": [{"type": "tag", "add": "client"}, {"type": "list", "add": clients}],
             "else": [{"type": "send", "text": "Vu notre offre ?"}]}
        ]
    }))
    .await;
    // A draft takes nobody in.
    join(&app, &club, "33611110001", "Draft").await;
    let (status, live) = set_status(&app, &app.token, &id, "live").await;
    assert_eq!((status, &live["journey"]["status"]), (200, &json!("live")), "{live}");
    let card = json!({"contact": {"firstname": "Ana"}});
    assert_eq!(app.json(Method::PUT, "/contact/33611112222", Some(card)).await.0, 200);
    join(&app, &club, "33611112222", "Ana").await;
    join(&app, &club, "33611113333", "Bo").await;

    // Each joiner gets the welcome with its name and waits two days; earlier members do not enter.
    let contacts = contacts_when(&app, &id, "both welcomed", |c| {
        c.len() == 2 && c.iter().all(|c| c["step"] == "1" && c["state"] == "waiting")
    })
    .await;
    assert!(contacts.iter().all(|c| c["number"] != "33611110000" && c["number"] != "33611110001"));
    let welcome = until("the welcome", || async { received(&app, "33611112222").await.into_iter().next() }).await;
    let text = welcome["text"].as_str().expect("a text").to_owned();
    assert!(text.starts_with("Bienvenue Ana ! "), "{text}");

    // Ana clicks; after the wait she is tagged and joins Clients, Bo gets the reminder.
    let code = text.split_whitespace().find(|w| w.contains("/s/")).and_then(|u| u.rsplit('/').next()).expect("a link");
    let clicked = app.anonymous(Method::GET, &format!("/s/{code}")).send().await.expect("a click");
    assert_eq!(clicked.status(), 302);
    time_passes(&app).await;
    let contacts = contacts_when(&app, &id, "both through", |c| c.iter().all(|c| c["state"] == "done")).await;
    assert_eq!(at(&contacts, "33611112222")["state"], "done");
    let (_, card) = app.json(Method::GET, "/contact/33611112222", None).await;
    assert_eq!(card["contact"]["tags"], json!(["client"]), "{card}");
    let (_, members) = app.json(Method::GET, &format!("/list/{clients}"), None).await;
    assert_eq!(members["list"][0]["destination"], "33611112222", "{members}");
    let reminder = until("the reminder", || async {
        received(&app, "33611113333").await.into_iter().find(|m| m["text"] == "Vu notre offre ?")
    })
    .await;
    assert_eq!(reminder["text"], "Vu notre offre ?");
    assert!(received(&app, "33611112222").await.iter().all(|m| m["text"] != "Vu notre offre ?"));

    // The report: two entered, each step's counts, the click branch taken once each way.
    let (status, report) = app.json(Method::GET, &format!("/journey/{id}/report"), None).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["entered"], 2);
    let steps: Vec<(String, i64, i64, i64)> = report["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| {
            let n = |k: &str| s[k].as_i64().unwrap_or(-1);
            (s["step"].as_str().unwrap_or("").to_owned(), n("entered"), n("waiting"), n("done"))
        })
        .collect();
    let expected = [
        ("0", 2, 0, 2),
        ("1", 2, 0, 2),
        ("2", 2, 0, 2),
        ("2.then.0", 1, 0, 1),
        ("2.then.1", 1, 0, 1),
        ("2.else.0", 1, 0, 1),
    ];
    let expected: Vec<(String, i64, i64, i64)> =
        expected.iter().map(|(s, a, b, c)| (s.to_string(), *a, *b, *c)).collect();
    assert_eq!(steps, expected);

    // Its sends are campaigns of their own, reported as any other and told apart by their journey.
    let (_, campaigns) = app.json(Method::GET, "/campaigns", None).await;
    let by_journey: Vec<&Value> =
        campaigns["campaigns"].as_array().expect("campaigns").iter().filter(|c| c["journey"] == id.as_str()).collect();
    let texts: Vec<&str> = by_journey.iter().filter_map(|c| c["text"].as_str()).collect();
    // The two joiners came a moment apart: one welcome campaign for both, or one each.
    let welcomes = texts.iter().filter(|t| t.starts_with("Bienvenue")).count();
    assert!((1..=2).contains(&welcomes), "{texts:?}");
    assert_eq!(texts.iter().filter(|t| **t == "Vu notre offre ?").count(), 1, "{texts:?}");
    let reminder = by_journey.iter().find(|c| c["text"] == "Vu notre offre ?").expect("the reminder's campaign");
    let (status, detail) =
        app.json(Method::GET, &format!("/campaign/{}", reminder["id"].as_str().unwrap_or("")), None).await;
    assert_eq!((status, &detail["campaign"][0]["journey"]), (200, &json!(id)), "{detail}");
}

#[tokio::test]
async fn an_application_puts_numbers_in_with_their_fields_once_and_the_blacklist_ends_their_way() {
    let app = quick_app().await;
    let id = create(&app, json!({
        "name": "Rendez-vous",
        "trigger": {"type": "api"},
        "steps": [{"type": "wait", "duration": "1h"}, {"type": "send", "text": "Rappel [firstname|] : [field:rdv|]"}]
    }))
    .await;
    let (status, refused) = enter(&app, &id, "33622220000", json!({})).await;
    assert_eq!((status, &refused["errors"][0]["path"]), (422, &json!("journey.status")), "{refused}");
    assert_eq!(set_status(&app, &app.token, &id, "live").await.0, 200);
    let (status, entered) = enter(&app, &id, "33622221111", json!({"firstname": "Ana", "rdv": "mardi 10h"})).await;
    assert_eq!(status, 200, "{entered}");
    assert_eq!(entered["contacts"][0]["state"], "waiting");
    // Once per number: a second call is refused while it is in.
    let (status, twice) = enter(&app, &id, "33622221111", json!({})).await;
    assert_eq!((status, &twice["errors"][0]["path"]), (422, &json!("number")), "{twice}");
    for (bad, path) in [("0612", "number"), ("33622223333", "fields.Bad-Name")] {
        let (status, body) = enter(&app, &id, bad, json!({"Bad-Name": "x"})).await;
        assert_eq!((status, &body["errors"][0]["path"]), (422, &json!(path)), "{body}");
    }
    let many: serde_json::Map<String, Value> = (0..51).map(|i| (format!("f{i}"), json!("x"))).collect();
    let (status, body) = enter(&app, &id, "33622223333", Value::Object(many)).await;
    assert_eq!((status, &body["errors"][0]["path"]), (422, &json!("fields")), "{body}");
    assert_eq!(enter(&app, &id, "33622224444", json!({"firstname": "Bo"})).await.0, 200);
    // Both are at their wait, due an hour after they entered, before time passes: on a slow
    // machine the runner could otherwise start a wait after the clock was moved.
    contacts_when(&app, &id, "both waiting an hour", |c| {
        c.len() == 2 && c.iter().all(|c| c["due_at"].as_str() > c["entered_at"].as_str())
    })
    .await;
    // Bo is blacklisted while he waits (a STOP does the same): his way ends, and he gets nothing.
    let blacklist = json!({"blacklist": {"contacts": {"gsm": [{"value": "33622224444"}]}}});
    assert_eq!(app.json(Method::POST, "/blacklist", Some(blacklist)).await.0, 200);
    time_passes(&app).await;
    let contacts = contacts_when(&app, &id, "both through", |c| c.iter().all(|c| c["state"] != "waiting")).await;
    assert_eq!(
        (at(&contacts, "33622221111")["state"].clone(), at(&contacts, "33622224444")["state"].clone()),
        (json!("done"), json!("stopped"))
    );
    let message = until("the reminder", || async { received(&app, "33622221111").await.into_iter().next() }).await;
    assert_eq!(message["text"], "Rappel Ana : mardi 10h");
    assert!(
        received(&app, "33622224444").await.iter().all(|m| !m["text"].as_str().unwrap_or("").starts_with("Rappel"))
    );
}

#[tokio::test]
async fn wrong_steps_are_named_and_other_accounts_lists_and_journeys_are_out_of_reach() {
    let app = spawn_app().await;
    let foreign = another_accounts_list(&app, "33633330000").await;
    let bad = json!({"journey": {"name": "x", "trigger": {"type": "list", "list": foreign}, "steps": [
        {"type": "send", "text": ""},
        {"type": "branch", "if": {"type": "list", "list": foreign}, "then": [{"type": "wait", "duration": "soon"}]}
    ]}});
    let (status, body) = app.json(Method::POST, "/journey", Some(bad)).await;
    assert_eq!(status, 422, "{body}");
    let paths: Vec<&str> =
        body["errors"].as_array().expect("errors").iter().filter_map(|d| d["path"].as_str()).collect();
    assert_eq!(paths, ["journey.steps[0].text", "journey.steps[1].then[0].duration"]);
    let lists = json!({"journey": {"name": "x", "trigger": {"type": "list", "list": foreign}, "steps": [
        {"type": "branch", "if": {"type": "list", "list": foreign}, "then": [{"type": "end"}]}
    ]}});
    let (status, body) = app.json(Method::POST, "/journey", Some(lists)).await;
    let paths: Vec<&str> =
        body["errors"].as_array().expect("errors").iter().filter_map(|d| d["path"].as_str()).collect();
    assert_eq!((status, paths), (422, vec!["journey.trigger.list", "journey.steps[0].if.list"]), "{body}");

    // XML in, XML out; nested branches read the same.
    let xml = "<journey><name>Anniversaire</name><trigger><type>api</type></trigger>\
        <steps><type>branch</type><if><type>tag</type><value>vip</value></if>\
        <then><type>send</type><text>Joyeux anniversaire !</text><pushtype>marketing</pushtype></then>\
        <else><type>end</type></else></steps></journey>";
    let (status, saved) = app.xml(Method::POST, "/journey", Some(xml)).await;
    assert_eq!(status, 200, "{saved}");
    assert!(saved.contains("<pushtype>marketing</pushtype>") && saved.contains("<status>draft</status>"), "{saved}");
    let (_, journeys) = app.json(Method::GET, "/journeys", None).await;
    let id = journeys["journeys"][0]["id"].as_str().expect("an id").to_owned();
    assert_eq!(journeys["journeys"][0]["steps"][0]["then"][0]["text"], "Joyeux anniversaire !");

    // Another account sees none of it, nor changes it.
    let bob = crate::helpers::account(&app.db(), "carol", 10.0).await;
    for (method, path) in [
        (Method::GET, format!("/journey/{id}")),
        (Method::GET, format!("/journey/{id}/report")),
        (Method::GET, format!("/journey/{id}/contacts")),
        (Method::DELETE, format!("/journey/{id}")),
    ] {
        assert_eq!(app.json_as(&bob, method, &path, None).await.0, 404, "{path}");
    }
    assert_eq!(set_status(&app, &bob, &id, "live").await.0, 404);
    let (_, listed) = app.json_as(&bob, Method::GET, "/journeys", None).await;
    assert_eq!(listed["journeys"], json!([]));
    assert_eq!(app.anonymous(Method::GET, "/journeys").send().await.expect("an answer").status(), 401);

    // A live journey is archived before it is deleted; an archived one changes no more.
    assert_eq!(set_status(&app, &app.token, &id, "live").await.0, 200);
    let (status, body) = app.json(Method::DELETE, &format!("/journey/{id}"), None).await;
    assert_eq!((status, &body["errors"][0]["path"]), (422, &json!("journey.status")), "{body}");
    assert_eq!(set_status(&app, &app.token, &id, "archived").await.0, 200);
    let (status, _) = set_status(&app, &app.token, &id, "live").await;
    assert_eq!(status, 422);
    assert_eq!(app.json(Method::DELETE, &format!("/journey/{id}"), None).await.0, 200);
    assert_eq!(app.json(Method::GET, &format!("/journey/{id}"), None).await.0, 404);
}

#[tokio::test]
async fn an_author_drafts_but_only_another_who_may_approve_puts_it_live_under_four_eyes() {
    let app = spawn_app().await;
    let rules = json!({"team_rules": {"approval_over": 100}});
    assert_eq!(app.json(Method::PUT, "/team-rules", Some(rules)).await.0, 200);
    let author = token_with(&app, "alice", Role::Author).await;
    let analyst = token_with(&app, "alice", Role::Analyst).await;
    let journey = json!({"journey": {"name": "Relance", "trigger": {"type": "api"}, "steps": [{"type": "send", "text": "Bonjour"}]}});
    assert_eq!(app.json_as(&analyst, Method::POST, "/journey", Some(journey.clone())).await.0, 403);
    let (status, drafted) = app.json_as(&author, Method::POST, "/journey", Some(journey.clone())).await;
    assert_eq!(status, 200, "{drafted}");
    let id = drafted["journey"]["id"].as_str().expect("an id").to_owned();
    // The author may not put it live, nor enter numbers.
    assert_eq!(set_status(&app, &author, &id, "live").await.0, 403);
    let enter = json!({"number": "33644440000"});
    assert_eq!(app.json_as(&author, Method::POST, &format!("/journey/{id}/enter"), Some(enter)).await.0, 403);
    // Alice, who did not write it, approves it by putting it live.
    assert_eq!(set_status(&app, &app.token, &id, "live").await.0, 200);
    // A live journey's change is a new version, by a role that may approve; its writer then
    // cannot put it live again alone.
    let path = format!("/journey/{id}");
    assert_eq!(app.json_as(&author, Method::PUT, &path, Some(journey.clone())).await.0, 403);
    let (status, changed) = app.json(Method::PUT, &path, Some(journey)).await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!((changed["journey"]["version"].as_i64(), &changed["journey"]["status"]), (Some(2), &json!("paused")));
    let (status, own) = set_status(&app, &app.token, &id, "live").await;
    assert_eq!(status, 403, "{own}");
    let sender = token_with(&app, "alice", Role::Sender).await;
    assert_eq!(set_status(&app, &sender, &id, "live").await.0, 200);
}
