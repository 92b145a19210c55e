//! What starts a journey besides a list and an application: a birthday enters each contact at
//! 09:00 of its own day (Paris, La Réunion), planned a day ahead; a weekly schedule enters a segment's
//! contacts once each time it comes round; a contact that starts matching a segment enters; a
//! reply's keyword and a click on a campaign's link enter the replier and the clicker; a wait until a weekday and time ends then, in the
//! contact's time; and another account's segment or campaign is out of reach.

use chrono::{Datelike, Duration, NaiveDate, NaiveTime, Utc};
use reqwest::Method;
use serde_json::{Value, json};
use texto_core::{Zone, format_paris, local_instant};

use crate::{
    delivery::{quick_app, received, send, settled, until},
    helpers::{TestApp, account},
    journeys::{at, contacts_when, create, set_status, time_passes},
    keywords::mo,
};

async fn card(app: &TestApp, number: &str, contact: Value) {
    let (status, body) = app.json(Method::PUT, &format!("/contact/{number}"), Some(json!({"contact": contact}))).await;
    assert_eq!(status, 200, "{body}");
}

/// Today in Paris.
fn paris_today() -> NaiveDate {
    NaiveDate::parse_from_str(&format_paris(Utc::now())[..10], "%Y-%m-%d").expect("a Paris date")
}

/// `day` at `time` in `zone`, as the API shows times (Paris).
fn shown(zone: Zone, day: NaiveDate, time: &str) -> String {
    let time = NaiveTime::parse_from_str(time, "%H:%M").expect("HH:MM");
    format_paris(local_instant(zone.time_zone(), day, time))
}

/// `day` at `time` in Paris.
fn paris(day: NaiveDate, time: &str) -> chrono::DateTime<Utc> {
    local_instant(Zone::Paris.time_zone(), day, NaiveTime::parse_from_str(time, "%H:%M").expect("HH:MM"))
}

#[tokio::test]
async fn a_birthday_enters_each_contact_at_nine_of_its_own_day_and_sends_then() {
    let app = quick_app().await;
    let today = paris_today();
    let tomorrow = today + Duration::days(1);
    let born = |day: NaiveDate| format!("1990-{}", day.format("%m-%d"));
    card(&app, "33612340001", json!({"firstname": "Léa", "fields": {"birthday": born(today)}})).await;
    card(&app, "262692340002", json!({"firstname": "Noé", "fields": {"birthday": born(tomorrow)}})).await;
    card(&app, "33612340003", json!({"firstname": "Zoé", "fields": {"birthday": born(tomorrow)}})).await;
    let in_a_week = today + Duration::days(7);
    card(&app, "33612340004", json!({"firstname": "Max", "fields": {"birthday": born(in_a_week)}})).await;
    card(&app, "33612340005", json!({"firstname": "Sam", "fields": {"birthday": "bientôt"}})).await;
    let id = create(
        &app,
        json!({
            "name": "Anniversaire",
            "trigger": {"type": "date", "field": "birthday", "every": "year", "at": "09:00"},
            "steps": [{"type": "send", "text": "Joyeux anniversaire [firstname|] !"}]
        }),
    )
    .await;
    let (_, saved) = app.json(Method::GET, &format!("/journey/{id}"), None).await;
    let trigger = &saved["journey"]["trigger"];
    assert_eq!((&trigger["type"], &trigger["offset"], &trigger["at"]), (&json!("date"), &json!("0d"), &json!("09:00")));
    assert_eq!(set_status(&app, &app.token, &id, "live").await.0, 200);

    // Today's and tomorrow's birthdays are planned, each at 09:00 of its own clock (today's may
    // have passed, and then it goes at once).
    let contacts = contacts_when(&app, &id, "three birthdays planned", |c| c.len() == 3).await;
    let reunion = Zone::parse("RE").expect("La Réunion");
    assert_eq!(at(&contacts, "262692340002")["due_at"], json!(shown(reunion, tomorrow, "09:00")));
    assert_eq!(at(&contacts, "33612340003")["due_at"], json!(shown(Zone::Paris, tomorrow, "09:00")));
    for number in ["262692340002", "33612340003"] {
        assert_eq!((&at(&contacts, number)["step"], &at(&contacts, number)["state"]), (&json!("0"), &json!("waiting")));
    }
    if paris(today, "09:00") > Utc::now() {
        assert_eq!(at(&contacts, "33612340001")["due_at"], json!(shown(Zone::Paris, today, "09:00")));
    }

    // Planned once: a later pass of the planner enters nobody again.
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let (_, report) = app.json(Method::GET, &format!("/journey/{id}/report"), None).await;
    assert_eq!(report["entered"], 3, "{report}");

    // At 09:00 the message goes, with the contact's name.
    time_passes(&app).await;
    let wish = until("Léa's wish", || async { received(&app, "33612340001").await.into_iter().next() }).await;
    assert_eq!(wish["text"], "Joyeux anniversaire Léa !");
    contacts_when(&app, &id, "all wished", |c| c.iter().all(|c| c["state"] == "done")).await;
    assert!(received(&app, "33612340004").await.is_empty());
    assert!(received(&app, "33612340005").await.is_empty());
}

#[tokio::test]
async fn a_weekly_schedule_enters_its_segment_once_each_week_and_a_wait_ends_on_monday_at_ten() {
    let app = quick_app().await;
    card(&app, "33612350001", json!({"firstname": "Ana", "tags": ["vip"]})).await;
    card(&app, "33612350002", json!({"firstname": "Bo"})).await;
    let segment = json!({"segment": {"name": "VIP", "rules": [{"type": "tag", "value": "vip"}]}});
    let (status, saved) = app.json(Method::POST, "/segment", Some(segment.clone())).await;
    assert_eq!(status, 200, "{saved}");
    let segment_id = saved["segment"]["id"].as_str().expect("a segment").to_owned();

    // Another account's segment is refused, by its path.
    let bob = account(&app.db(), "bob", 10.0).await;
    let (_, bobs) = app.json_as(&bob, Method::POST, "/segment", Some(segment)).await;
    let foreign = bobs["segment"]["id"].as_str().expect("Bob's segment").to_owned();
    let today = paris_today();
    let weekday = today.weekday().to_string().to_lowercase();
    let journey = |segment: &str| {
        json!({
            "name": "Offre de la semaine",
            "trigger": {"type": "schedule", "every": "week", "days": [weekday], "at": "00:00", "segment": segment},
            "steps": [
                {"type": "send", "text": "Offre de la semaine, [firstname|] !"},
                {"type": "wait", "until": "10:00", "days": ["mon"]},
                {"type": "send", "text": "Dernier jour !"}
            ]
        })
    };
    let (status, body) = app.json(Method::POST, "/journey", Some(json!({"journey": journey(&foreign)}))).await;
    assert_eq!((status, &body["errors"][0]["path"]), (422, &json!("journey.trigger.segment")), "{body}");

    let id = create(&app, journey(&segment_id)).await;
    assert_eq!(set_status(&app, &app.token, &id, "live").await.0, 200);
    // Gone live now, it waits for the next time it comes round: next week.
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let (_, report) = app.json(Method::GET, &format!("/journey/{id}/report"), None).await;
    assert_eq!(report["entered"], 0, "{report}");

    // A week on (its mark put back a week): today at 00:00 came round, and the segment enters.
    let week_ago = format!("{}T00:00:00Z", today - Duration::days(7));
    app.sql(&format!("UPDATE journeys SET planned_until = '{week_ago}' WHERE id = {id}")).await;
    let offer = until("Ana's offer", || async { received(&app, "33612350001").await.into_iter().next() }).await;
    assert_eq!(offer["text"], "Offre de la semaine, Ana !");
    let contacts = contacts_when(&app, &id, "Ana waits for Monday", |c| c.len() == 1 && c[0]["step"] == "1").await;
    // The first Monday 10:00 in Paris from now.
    let monday = (0..8)
        .map(|ahead| today + Duration::days(ahead))
        .find(|day| day.weekday() == chrono::Weekday::Mon && paris(*day, "10:00") > Utc::now())
        .expect("a Monday within a week");
    assert_eq!(contacts[0]["due_at"], json!(shown(Zone::Paris, monday, "10:00")), "{contacts:?}");
    assert!(received(&app, "33612350002").await.is_empty(), "Bo is not in the segment");

    // Its mark moved to today's 00:00: the schedule does not come round again this week.
    let mark = app.sql(&format!("SELECT planned_until FROM journeys WHERE id = {id}")).await;
    assert_eq!(mark[0][0].as_deref(), Some(shown_utc(today).as_str()));
    time_passes(&app).await;
    until("the last day's reminder", || async {
        received(&app, "33612350001").await.into_iter().find(|m| m["text"] == "Dernier jour !")
    })
    .await;
    let (_, report) = app.json(Method::GET, &format!("/journey/{id}/report"), None).await;
    assert_eq!(report["entered"], 1, "{report}");
}

/// `day`'s 00:00 in Paris, as the store keeps instants.
fn shown_utc(day: NaiveDate) -> String {
    paris(day, "00:00").format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

#[tokio::test]
async fn a_reply_with_the_keyword_and_a_click_on_the_campaign_start_their_journeys_once() {
    let app = quick_app().await;
    let (ana, bo) = ("33612370001", "33612370002");
    let links = json!({"links": ["https://club.example/offre"]});
    let ticket = send(&app, "Le club : répondez CLUB. Notre offre : <-short->", &[ana, bo], links).await;
    settled(&app, &ticket).await;
    let steps = |text: &str| json!([{"type": "send", "text": text}]);
    let club = create(&app, json!({"name": "Club", "trigger": {"type": "keyword", "keyword": "club"}, "steps": steps("Bienvenue au club !")})).await;
    let offer = create(
        &app,
        json!({"name": "Relance", "trigger": {"type": "click", "campaign": ticket},
        "steps": [{"type": "wait", "duration": "1d"}, {"type": "send", "text": "Toujours intéressé ?"}]}),
    )
    .await;
    // STOP is texto's; another account's campaign is out of reach.
    let stop =
        json!({"journey": {"name": "x", "trigger": {"type": "keyword", "keyword": "Stop"}, "steps": steps("x")}});
    let (status, body) = app.json(Method::POST, "/journey", Some(stop)).await;
    assert_eq!((status, &body["errors"][0]["path"]), (422, &json!("journey.trigger.keyword")), "{body}");
    let bob = account(&app.db(), "bob", 10.0).await;
    let bobs = json!({"journey": {"name": "x", "trigger": {"type": "click", "campaign": ticket}, "steps": steps("x")}});
    let (status, body) = app.json_as(&bob, Method::POST, "/journey", Some(bobs)).await;
    assert_eq!((status, &body["errors"][0]["path"]), (422, &json!("journey.trigger.campaign")), "{body}");
    for id in [&club, &offer] {
        assert_eq!(set_status(&app, &app.token, id, "live").await.0, 200);
    }

    // Ana answers "Club !": she enters the club's journey and is welcomed; Bo's "non" enters nothing.
    mo(&app, ana, "Club !").await;
    mo(&app, bo, "non merci").await;
    until("Ana's welcome", || async {
        received(&app, ana).await.into_iter().find(|m| m["text"] == "Bienvenue au club !")
    })
    .await;
    let members = contacts_when(&app, &club, "Ana is through", |c| c.len() == 1 && c[0]["state"] == "done").await;
    assert_eq!(members[0]["number"], ana);

    // Bo clicks the campaign's link, twice: he enters the follow-up once, and waits a day.
    let text =
        received(&app, bo).await.into_iter().find_map(|m| m["text"].as_str().map(str::to_owned)).expect("a text");
    let code = text.split_whitespace().find(|w| w.contains("/s/")).and_then(|u| u.rsplit('/').next()).expect("a link");
    for _ in 0..2 {
        let clicked = app.anonymous(Method::GET, &format!("/s/{code}")).send().await.expect("a click");
        assert_eq!(clicked.status(), 302);
    }
    let clickers = contacts_when(&app, &offer, "Bo waits a day", |c| c.len() == 1 && c[0]["step"] == "0").await;
    assert_eq!((&clickers[0]["number"], &clickers[0]["state"]), (&json!(bo), &json!("waiting")));
    let (_, report) = app.json(Method::GET, &format!("/journey/{offer}/report"), None).await;
    assert_eq!(report["entered"], 1, "{report}");
}

#[tokio::test]
async fn a_contact_that_starts_matching_a_segment_enters_and_those_who_matched_before_do_not() {
    let app = quick_app().await;
    let (before, newcomer, other) = ("33612410001", "33612410002", "33612410003");
    card(&app, before, json!({"tags": ["vip"]})).await;
    card(&app, other, json!({"firstname": "Léo"})).await;
    let segment = json!({"segment": {"name": "VIP", "rules": [{"type": "tag", "value": "vip"}]}});
    let (_, saved) = app.json(Method::POST, "/segment", Some(segment)).await;
    let vip = saved["segment"]["id"].as_str().expect("a segment").to_owned();
    let id = create(
        &app,
        json!({
            "name": "Nouveaux VIP", "trigger": {"type": "segment", "segment": vip},
            "steps": [{"type": "send", "text": "Bienvenue parmi nos VIP !"}]
        }),
    )
    .await;
    assert_eq!(set_status(&app, &app.token, &id, "live").await.0, 200);
    // The first look after going live notes who matches then, and enters nobody.
    until("the first look", || async {
        let mark = app.sql(&format!("SELECT planned_until FROM journeys WHERE id = {id}")).await;
        mark[0][0].is_some().then_some(())
    })
    .await;
    // Tagged by an edit, the newcomer starts matching and enters at the next look.
    card(&app, newcomer, json!({"tags": ["vip"]})).await;
    let contacts = contacts_when(&app, &id, "the newcomer welcomed", |c| c.len() == 1 && c[0]["state"] == "done").await;
    assert_eq!(contacts[0]["number"], newcomer);
    until("the welcome", || async {
        received(&app, newcomer).await.into_iter().find(|m| m["text"] == "Bienvenue parmi nos VIP !")
    })
    .await;
    assert!(received(&app, before).await.is_empty(), "who matched before going live does not enter");
    assert!(received(&app, other).await.is_empty());
}
