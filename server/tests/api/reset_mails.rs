//! Asking for a password reset link: the answer is the same, and comes after the same work,
//! whether the email has a sign-in or not (the mail goes later, so a slow or hanging mail relay
//! tells nothing); the mails one email receives, and the requests one address makes, are
//! bounded; a newer link does not cancel an earlier one, and using one ends them all.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use texto_core::Role;

use crate::{
    helpers::{TestApp, spawn_app_with},
    mail_sink::{mails_until_quiet, silent_smtp, smtp_sink},
    team::{PASSWORD, person, sign_in},
};

const LEA: &str = "lea@alice.example";
/// Long enough for a queued mail to reach the sink on a loaded machine.
const QUIET: Duration = Duration::from_secs(3);

/// `POST /password-reset` for `email`: the HTTP status and the answer.
async fn ask(app: &TestApp, email: &str) -> (u16, Value) {
    let response = app
        .anonymous(Method::POST, "/password-reset")
        .header("Accept", "application/json")
        .timeout(Duration::from_secs(5))
        .json(&json!({"email": email}))
        .send()
        .await
        .expect("answered within 5 s");
    (response.status().as_u16(), response.json().await.expect("JSON"))
}

/// The secret of the reset link a mail carries.
fn secret_in(mail: &str) -> String {
    // Quoted-printable: undo its soft line breaks and its escaped `=`.
    let text = mail.replace("=\n", "").replace("=3D", "=");
    let start = text.find("/app/password-reset/").expect("a reset link") + "/app/password-reset/".len();
    text[start..].chars().take_while(char::is_ascii_hexdigit).collect()
}

/// A texto that mails through a sink, with Lea, who has a sign-in.
async fn app_with_mail() -> (TestApp, tokio::sync::mpsc::UnboundedReceiver<String>) {
    let (port, mails) = smtp_sink().await;
    let app = spawn_app_with(|config| config.smtp_url = Some(format!("smtp://127.0.0.1:{port}"))).await;
    person(&app, "alice", LEA, Role::Owner).await;
    (app, mails)
}

#[tokio::test]
async fn ten_requests_for_one_email_send_it_three_mails_and_all_get_the_same_answer() {
    let (app, mut mails) = app_with_mail().await;
    let (_, unknown) = ask(&app, "nobody@alice.example").await;
    for _ in 0..10 {
        assert_eq!(ask(&app, LEA).await, (200, unknown.clone()));
    }
    let received = mails_until_quiet(&mut mails, QUIET).await;
    assert_eq!(received.len(), 3, "at most 3 reset mails per email and hour");
    assert!(received.iter().all(|mail| mail.contains(&format!("To: {LEA}"))));
}

#[tokio::test]
async fn an_earlier_link_still_works_after_a_later_request_and_using_one_ends_them_all() {
    let (app, mut mails) = app_with_mail().await;
    ask(&app, LEA).await;
    ask(&app, LEA).await;
    let received = mails_until_quiet(&mut mails, QUIET).await;
    let secrets: Vec<String> = received.iter().map(|mail| secret_in(mail)).collect();
    assert_eq!(secrets.len(), 2, "{received:?}");
    let new_password = json!({"password": "a brand new password"});
    let (status, answer) = app.json(Method::POST, &format!("/password-reset/{}", secrets[0]), Some(new_password)).await;
    assert_eq!(status, 200, "the first link still works: {answer}");
    assert!(sign_in(&app, LEA, "a brand new password").await.is_ok());
    assert!(sign_in(&app, LEA, PASSWORD).await.is_err());
    let again = json!({"password": "yet another password"});
    let (status, answer) = app.json(Method::POST, &format!("/password-reset/{}", secrets[1]), Some(again)).await;
    assert_eq!((status, answer["status"].as_i64()), (404, Some(-5)), "using one link ended the other: {answer}");
}

#[tokio::test]
async fn the_answer_does_not_wait_for_a_mail_relay_that_hangs() {
    // Were the answer for a known email to wait for the relay, it would not come within the
    // client's 5 s, while an unknown email's would: the answer's time would tell which exist.
    let port = silent_smtp().await;
    let app = spawn_app_with(|config| config.smtp_url = Some(format!("smtp://127.0.0.1:{port}"))).await;
    person(&app, "alice", LEA, Role::Owner).await;
    let known = ask(&app, LEA).await;
    let unknown = ask(&app, "nobody@alice.example").await;
    assert_eq!(known.0, 200);
    assert_eq!(known, unknown, "the same answer either way");
}

#[tokio::test]
async fn one_address_asks_for_at_most_twenty_links_an_hour() {
    let (app, mut mails) = app_with_mail().await;
    for n in 0..20 {
        assert_eq!(ask(&app, &format!("nobody{n}@alice.example")).await.0, 200);
    }
    assert_eq!(ask(&app, LEA).await.0, 200, "the answer stays the same");
    assert!(mails_until_quiet(&mut mails, QUIET).await.is_empty(), "the 21st request of the hour sends nothing");
}
