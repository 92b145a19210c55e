//! Sign-up pages: an account sets a page (checked by path, its list its own, its slug unique);
//! a visitor fills the hosted form at `/join/{slug}`, gets a code by SMS (the built-in SMSC
//! receives it) and types it, or replies OUI; only then does the number join the list, with
//! the consent recorded. The form refuses a flood per address and per number, and never sends
//! a number two codes in a day.

use reqwest::Method;
use serde_json::{Value, json};
use texto_core::Role;

use crate::{
    delivery::{quick_app, received, until},
    helpers::{TestApp, account},
    keywords::mo,
    team::token_with,
};

async fn new_list(app: &TestApp) -> String {
    let (status, body) = app.json(Method::POST, "/list", Some(json!({"list": {"name": "Club"}}))).await;
    assert_eq!(status, 200, "{body}");
    body["id"].as_str().expect("a list").to_owned()
}

fn club(list: &str) -> Value {
    json!({"signup_page": {
        "slug": "club", "title": "Le <Club>", "text": "Nos offres, deux fois par mois.",
        "fields": ["firstname", "city"], "list": list,
        "consent_text": "J'accepte de recevoir les offres du Club par SMS."
    }})
}

/// Posts a form to `path` from the test's loopback address; the status and the HTML.
async fn post_form(app: &TestApp, path: &str, pairs: &[(&str, &str)]) -> (u16, String) {
    let response = app
        .client
        .post(format!("{}{path}", app.base_url))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish())
        .send()
        .await
        .expect("an answer");
    (response.status().as_u16(), response.text().await.expect("a body"))
}

/// The code in the SMS the number got last.
async fn code_sent_to(app: &TestApp, number: &str) -> String {
    let texts = until("the code's SMS", || async {
        let got = received(app, number).await;
        (!got.is_empty()).then_some(got)
    })
    .await;
    let text = texts[0]["text"].as_str().expect("a text").to_owned();
    text.split(|c: char| !c.is_ascii_digit()).find(|part| part.len() == 6).expect("a six-figure code").to_owned()
}

async fn contact(app: &TestApp, number: &str) -> Value {
    let (_, card) = app.json(Method::GET, &format!("/contact/{number}"), None).await;
    card["contact"].clone()
}

async fn in_list(app: &TestApp, list: &str, number: &str) -> bool {
    let (_, body) = app.json(Method::GET, &format!("/list/{list}"), None).await;
    body["list"].to_string().contains(number)
}

#[tokio::test]
async fn pages_are_checked_by_path_their_list_is_the_accounts_and_roles_hold() {
    let app = quick_app().await;
    let list = new_list(&app).await;
    let bad = json!({"signup_page": {"slug": "a b", "title": "", "fields": ["First"], "list": "x"}});
    let (status, body) = app.json(Method::POST, "/signup-page", Some(bad)).await;
    let paths: Vec<&str> =
        body["errors"].as_array().expect("errors").iter().filter_map(|e| e["path"].as_str()).collect();
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        paths,
        [
            "signup_page.title",
            "signup_page.consent_text",
            "signup_page.slug",
            "signup_page.fields[0]",
            "signup_page.list"
        ]
    );

    let (status, saved) = app.json(Method::POST, "/signup-page", Some(club(&list))).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(
        (&saved["signup_page"]["address"], &saved["signup_page"]["confirmed"]),
        (&json!("/join/club"), &json!(0))
    );
    let id = saved["signup_page"]["id"].as_str().expect("an id").to_owned();

    // Bob may take neither the slug nor Alice's list, nor see her page.
    let bob = account(&app.db(), "bob", 10.0).await;
    let (status, body) = app.json_as(&bob, Method::POST, "/signup-page", Some(club(&list))).await;
    let paths: Vec<&Value> = body["errors"].as_array().expect("errors").iter().map(|e| &e["path"]).collect();
    assert_eq!((status, paths), (422, vec![&json!("signup_page.list")]), "{body}");
    let (_, bobs_list) = app.json_as(&bob, Method::POST, "/list", Some(json!({"list": {"name": "B"}}))).await;
    let bobs_list = bobs_list["id"].as_str().expect("Bob's list");
    let (status, body) = app.json_as(&bob, Method::POST, "/signup-page", Some(club(bobs_list))).await;
    assert_eq!((status, &body["errors"][0]["path"]), (422, &json!("signup_page.slug")), "{body}");
    let (status, _) = app.json_as(&bob, Method::GET, &format!("/signup-page/{id}"), None).await;
    assert_eq!(status, 404);
    let (status, _) = app.json_as(&bob, Method::DELETE, &format!("/signup-page/{id}"), None).await;
    assert_eq!(status, 404);

    // An analyst reads but does not set; no token, no answer.
    let analyst = token_with(&app, "alice", Role::Analyst).await;
    let (status, listed) = app.json_as(&analyst, Method::GET, "/signup-pages", None).await;
    assert_eq!((status, listed["signup_pages"].as_array().map(Vec::len)), (200, Some(1)));
    let (status, _) = app.json_as(&analyst, Method::PUT, &format!("/signup-page/{id}"), Some(club(&list))).await;
    assert_eq!(status, 403);
    let (status, _) = app.json_as("", Method::GET, "/signup-pages", None).await;
    assert_eq!(status, 401);

    // The page is served at once; what the account wrote is shown as text, never as markup.
    let page = app.client.get(format!("{}/join/club?lang=en", app.base_url)).send().await.expect("the page");
    assert_eq!(page.status(), 200);
    let csp = page.headers()["content-security-policy"].to_str().expect("a policy").to_owned();
    let html = page.text().await.expect("HTML");
    assert!(html.contains("Le &lt;Club&gt;") && !html.contains("<Club>"), "{html}");
    assert!(html.contains("Sign up") && html.contains(r#"name="city""#), "{html}");
    assert!(csp.contains("default-src 'none'"), "{csp}");
    let missing = app.client.get(format!("{}/join/nothing-here", app.base_url)).send().await.expect("an answer");
    assert_eq!(missing.status(), 404);
    assert!(missing.text().await.expect("HTML").contains("<html lang=\"fr\">"));

    let (status, _) = app.json(Method::DELETE, &format!("/signup-page/{id}"), None).await;
    assert_eq!(status, 200);
    let gone = app.client.get(format!("{}/join/club", app.base_url)).send().await.expect("an answer");
    assert_eq!(gone.status(), 404);
}

#[tokio::test]
async fn a_sign_up_joins_the_list_with_its_consent_only_once_confirmed_by_code_or_by_reply() {
    let app = quick_app().await;
    let list = new_list(&app).await;
    let (status, _) = app.json(Method::POST, "/signup-page", Some(club(&list))).await;
    assert_eq!(status, 200);

    // A form without the consent, or with a wrong number, is shown again with what to correct.
    let (status, html) = post_form(&app, "/join/club", &[("number", "12"), ("firstname", "Ana")]).await;
    assert_eq!(status, 422);
    assert!(html.contains(r#"value="Ana""#) && html.contains(r##"href="#consent""##), "{html}");

    let ana = "33612300001";
    let form = [("number", "06 12 30 00 01"), ("firstname", "Ana"), ("city", "Lyon"), ("consent", "1")];
    let (status, html) = post_form(&app, "/join/club", &form).await;
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("+33612300001"), "{html}");
    let code = code_sent_to(&app, ana).await;
    assert!(!in_list(&app, &list, ana).await, "not before it is confirmed");

    // A second sign-up the same day sends no second code: the first one confirms it.
    let (status, html) = post_form(&app, "/join/club", &form).await;
    assert_eq!(status, 200);
    assert!(html.contains("déjà envoyé"), "{html}");
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let (status, html) = post_form(&app, "/join/club/confirm", &[("number", ana), ("code", wrong)]).await;
    assert_eq!(status, 422);
    assert!(html.contains("4"), "{html}");
    let (status, html) = post_form(&app, "/join/club/confirm", &[("number", ana), ("code", &code)]).await;
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("Merci"), "{html}");
    assert_eq!(received(&app, ana).await.len(), 1, "one SMS in all");
    assert!(in_list(&app, &list, ana).await);
    let card = contact(&app, ana).await;
    assert_eq!((&card["firstname"], &card["fields"]["city"]), (&json!("Ana"), &json!("Lyon")), "{card}");
    let consent = &card["consent"];
    assert_eq!(consent["source"], "form", "{card}");
    let proof = consent["proof"].as_str().expect("a proof");
    assert!(
        proof.contains("J'accepte de recevoir") && proof.contains("typed on the page") && proof.contains("127.0.0.1"),
        "{proof}"
    );
    assert!(consent["address"].as_str().is_some_and(|a| a.ends_with("/join/club")), "{card}");
    // Confirmed once: the code does not confirm again.
    let (status, _) = post_form(&app, "/join/club/confirm", &[("number", ana), ("code", &code)]).await;
    assert_eq!(status, 410);

    // Bo answers the SMS with "oui": confirmed by the reply.
    let bo = "33612300002";
    let (status, _) =
        post_form(&app, "/join/club?lang=en", &[("number", "+33 6 12 30 00 02"), ("consent", "on")]).await;
    assert_eq!(status, 200);
    let sms = until("Bo's code", || async { received(&app, bo).await.first().cloned() }).await;
    assert!(sms["text"].as_str().is_some_and(|t| t.contains("reply YES")), "{sms}");
    mo(&app, bo, "oui").await;
    until("Bo in the list", || async { in_list(&app, &list, bo).await.then_some(()) }).await;
    let proof = contact(&app, bo).await["consent"]["proof"].as_str().unwrap_or("").to_owned();
    assert!(proof.contains("a reply OUI or YES"), "{proof}");
    let (_, pages) = app.json(Method::GET, "/signup-pages", None).await;
    assert_eq!(pages["signup_pages"][0]["confirmed"], 2, "{pages}");
}

#[tokio::test]
async fn the_form_refuses_a_flood_from_one_address_and_for_one_number() {
    let app = quick_app().await;
    let list = new_list(&app).await;
    app.json(Method::POST, "/signup-page", Some(club(&list))).await;
    // Three sign-ups of one number in the hour, then no more.
    for _ in 0..3 {
        let (status, _) = post_form(&app, "/join/club", &[("number", "33612300010"), ("consent", "1")]).await;
        assert_eq!(status, 200);
    }
    let (status, html) = post_form(&app, "/join/club", &[("number", "33612300010"), ("consent", "1")]).await;
    assert_eq!(status, 429, "{html}");
    // Five from one address in the hour (those three included), then no more.
    for number in ["33612300011", "33612300012"] {
        let (status, _) = post_form(&app, "/join/club", &[("number", number), ("consent", "1")]).await;
        assert_eq!(status, 200);
    }
    let (status, _) = post_form(&app, "/join/club", &[("number", "33612300013"), ("consent", "1")]).await;
    assert_eq!(status, 429);
    assert!(received(&app, "33612300013").await.is_empty());
    assert_eq!(received(&app, "33612300010").await.len(), 1, "one code for the number");
}
