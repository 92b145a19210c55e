//! Guessing passwords and two-factor codes: tries sent at once are counted before any is
//! checked, for people, operators and codes alike; the queue of password checks is bounded; a
//! stranger's failures slow down their own address, not the person's; a second factor is
//! replaced or turned off only with a current code and the password; a code signs in once, on
//! any node.

use futures_util::future::join_all;
use reqwest::{Method, header};
use serde_json::{Value, json};
use texto_core::Role;
use texto_server::{OperatorAction, account_commands};

use crate::{
    helpers::{TestApp, spawn_app, spawn_app_with},
    team::{PASSWORD, Session, as_session, current_code, person, sign_in},
};

const LEA: &str = "lea@alice.example";

/// What a client saw of one request.
struct Answer {
    status: u16,
    body: Value,
    retry_after: Option<u64>,
}

impl Answer {
    async fn of(response: reqwest::Response) -> Answer {
        let status = response.status().as_u16();
        let retry_after =
            response.headers().get(header::RETRY_AFTER).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        Answer { status, body: response.json().await.unwrap_or(Value::Null), retry_after }
    }

    /// A refusal to check the try at all: 429 or 503, status -11, with a `Retry-After`.
    fn told_to_wait(&self) -> bool {
        matches!(self.status, 429 | 503) && self.body["status"] == -11 && self.retry_after.is_some_and(|s| s >= 1)
    }
}

/// `POST /session` with a password (and a code), from `from` as the trusted proxy names it.
async fn try_sign_in(app: &TestApp, email: &str, password: &str, code: Option<&str>, from: Option<&str>) -> Answer {
    let mut request = app
        .anonymous(Method::POST, "/session")
        .header("Accept", "application/json")
        .json(&json!({"session": {"email": email, "password": password, "code": code}}));
    if let Some(address) = from {
        request = request.header("X-Forwarded-For", address);
    }
    Answer::of(request.send().await.expect("sent")).await
}

/// A request made with the session's cookie and CSRF header, answering its `Retry-After` too.
async fn with_session(app: &TestApp, session: &Session, method: Method, path: &str, body: Value) -> Answer {
    let request = app
        .anonymous(method, path)
        .header("Accept", "application/json")
        .header(header::COOKIE, &session.cookie)
        .header("X-CSRF-Token", &session.csrf)
        .json(&body);
    Answer::of(request.send().await.expect("sent")).await
}

/// The code of a base32 `secret` at `unix_seconds`.
fn code_at(secret: &str, unix_seconds: u64) -> String {
    let bytes = totp_rs::Secret::Encoded(secret.to_owned()).to_bytes().expect("base32");
    totp_rs::TOTP::new_unchecked(totp_rs::Algorithm::SHA1, 6, 1, 30, bytes, None, String::new()).generate(unix_seconds)
}

fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs()
}

/// `email` joins Alice's account and turns two-factor sign-in on: a session and the secret.
async fn with_two_factor(app: &TestApp, email: &str) -> (Session, String) {
    person(app, "alice", email, Role::Sender).await;
    let session = sign_in(app, email, PASSWORD).await.expect("signed in");
    let (status, setup) = as_session(app, &session, Method::POST, "/me/two-factor", None, true).await;
    assert_eq!(status, 200, "{setup}");
    let secret = setup["secret"].as_str().expect("a secret").to_owned();
    let on = with_session(app, &session, Method::PUT, "/me/two-factor", json!({"code": current_code(&secret)})).await;
    assert_eq!(on.status, 200, "{}", on.body);
    (session, secret)
}

/// A texto that believes the `X-Forwarded-For` of requests from the loopback.
async fn behind_a_proxy() -> TestApp {
    spawn_app_with(|config| config.trusted_proxies = vec!["127.0.0.1".parse().expect("a range")]).await
}

#[tokio::test]
async fn wrong_passwords_sent_at_once_are_counted_before_they_are_checked() {
    let app = spawn_app().await;
    person(&app, "alice", LEA, Role::Sender).await;
    let app = &app;
    let answers = join_all(
        (0..60).map(|i| async move { try_sign_in(app, LEA, &format!("wrong password {i}"), None, None).await }),
    )
    .await;
    let checked = answers.iter().filter(|a| a.status == 401).count();
    assert!(checked <= 5, "{checked} of 60 guesses sent at once were checked: only the 5 free ones may be");
    assert!(answers.iter().all(|a| a.status == 401 || a.told_to_wait()), "the others are told to wait");
    assert!(answers.iter().any(|a| a.status == 429 && a.retry_after.is_some()));
}

#[tokio::test]
async fn a_full_queue_of_password_checks_is_answered_busy_with_retry_after() {
    let app = spawn_app_with(|config| config.max_password_checks = std::num::NonZeroUsize::MIN).await;
    let emails: Vec<String> = (0..12).map(|i| format!("nobody{i}@alice.example")).collect();
    let answers = join_all(emails.iter().map(|email| try_sign_in(&app, email, "not a password", None, None))).await;
    let busy: Vec<&Answer> = answers.iter().filter(|a| a.status == 503).collect();
    assert!(!busy.is_empty(), "12 checks at once with room for 1: some are refused");
    assert!(busy.iter().all(|a| a.told_to_wait()), "{:?}", busy.iter().map(|a| &a.body).collect::<Vec<_>>());
    assert!(answers.iter().all(|a| matches!(a.status, 401 | 503)), "the others are checked and wrong");
    person(&app, "alice", LEA, Role::Sender).await;
    assert!(sign_in(&app, LEA, PASSWORD).await.is_ok(), "once the burst is over, sign-in works");
}

#[tokio::test]
async fn operators_wrong_passwords_sent_at_once_are_counted_before_they_are_checked() {
    let app = spawn_app().await;
    account_commands::operator(&app.db(), OperatorAction::Create { name: "Night shift".into() })
        .await
        .expect("an operator");
    let answers = join_all((0..30).map(|_| async {
        let request = app
            .anonymous(Method::POST, "/operator/session")
            .header("Accept", "application/json")
            .json(&json!({"name": "Night shift", "password": "a wrong password"}));
        Answer::of(request.send().await.expect("sent")).await
    }))
    .await;
    let checked = answers.iter().filter(|a| a.status == 401).count();
    assert!(checked <= 5, "{checked} of 30 guesses sent at once were checked");
    assert!(answers.iter().all(|a| a.status == 401 || a.told_to_wait()));
}

#[tokio::test]
async fn wrong_codes_sent_at_once_are_counted_before_they_are_checked() {
    let app = spawn_app().await;
    let (_, secret) = with_two_factor(&app, LEA).await;
    let wrong = if current_code(&secret) == "000000" { "111111" } else { "000000" };
    let answers = join_all((0..30).map(|_| try_sign_in(&app, LEA, PASSWORD, Some(wrong), None))).await;
    let checked = answers.iter().filter(|a| a.status == 401).count();
    assert!(checked <= 5, "{checked} of 30 codes sent at once were checked");
    assert!(answers.iter().all(|a| a.status == 401 || a.told_to_wait()));
}

#[tokio::test]
async fn a_strangers_failures_slow_down_their_address_not_the_person() {
    let app = behind_a_proxy().await;
    let (_, secret) = with_two_factor(&app, LEA).await;
    let stranger = Some("203.0.113.9");
    for _ in 0..5 {
        assert_eq!(try_sign_in(&app, LEA, "a wrong guess", None, stranger).await.status, 401);
    }
    let slowed = try_sign_in(&app, LEA, "a wrong guess", None, stranger).await;
    assert!(slowed.told_to_wait(), "{}", slowed.body);
    let owner = try_sign_in(&app, LEA, PASSWORD, Some(&current_code(&secret)), Some("198.51.100.7")).await;
    assert_eq!(owner.status, 200, "the person signs in from their own address: {}", owner.body);
    tokio::time::sleep(std::time::Duration::from_secs(slowed.retry_after.unwrap_or(1))).await;
    assert_eq!(try_sign_in(&app, LEA, "a wrong guess", None, stranger).await.status, 401, "after the wait");
    let again = try_sign_in(&app, LEA, "a wrong guess", None, stranger).await;
    assert!(again.told_to_wait(), "the person's sign-in did not start the stranger's count again: {}", again.body);
    assert!(again.retry_after >= Some(2), "the waits double: {:?}", again.retry_after);
}

#[tokio::test]
async fn an_active_second_factor_is_replaced_or_turned_off_only_with_a_current_code_and_the_password() {
    let app = spawn_app().await;
    let (session, old) = with_two_factor(&app, LEA).await;
    let (status, setup) = as_session(&app, &session, Method::POST, "/me/two-factor", None, true).await;
    assert_eq!(status, 200, "{setup}");
    let new = setup["secret"].as_str().expect("a secret").to_owned();
    let put = |body: Value| with_session(&app, &session, Method::PUT, "/me/two-factor", body);

    let taken = put(json!({"code": current_code(&new)})).await;
    assert_eq!(taken.status, 422, "a session alone does not replace the second factor: {}", taken.body);
    let wrong_password =
        put(json!({"code": current_code(&new), "current_code": current_code(&old), "password": "not the password"}))
            .await;
    assert_eq!(wrong_password.status, 422, "{}", wrong_password.body);
    assert_eq!(wrong_password.body["errors"][0]["path"], "password", "{}", wrong_password.body);
    let wrong = if current_code(&old) == "000000" { "111111" } else { "000000" };
    let wrong_code = put(json!({"code": current_code(&new), "current_code": wrong, "password": PASSWORD})).await;
    assert_eq!(wrong_code.status, 422, "{}", wrong_code.body);
    assert_eq!(wrong_code.body["errors"][0]["path"], "current_code", "{}", wrong_code.body);
    assert!(sign_in(&app, LEA, PASSWORD).await.is_err(), "still on");

    let replaced =
        put(json!({"code": current_code(&new), "current_code": current_code(&old), "password": PASSWORD})).await;
    assert_eq!(replaced.status, 200, "{}", replaced.body);
    assert_eq!(replaced.body["recovery_codes"].as_array().map(Vec::len), Some(10));
    assert_eq!(try_sign_in(&app, LEA, PASSWORD, Some(&current_code(&old)), None).await.status, 401);
    assert_eq!(try_sign_in(&app, LEA, PASSWORD, Some(&current_code(&new)), None).await.status, 200);

    let delete = |body: Value| with_session(&app, &session, Method::DELETE, "/me/two-factor", body);
    let recovery = replaced.body["recovery_codes"][0].as_str().expect("a recovery code").to_owned();
    let without_password = delete(json!({"code": recovery})).await;
    assert_eq!(without_password.status, 422, "turning it off needs the password: {}", without_password.body);
    assert_eq!(without_password.body["errors"][0]["path"], "password", "{}", without_password.body);
    let off = delete(json!({"code": recovery, "password": PASSWORD})).await;
    assert_eq!(off.status, 200, "the recovery code was not used up by the refusal: {}", off.body);
    assert!(sign_in(&app, LEA, PASSWORD).await.is_ok(), "off");
}

#[tokio::test]
async fn a_code_signs_in_once_on_any_node() {
    let app = spawn_app().await;
    let (_, secret) = with_two_factor(&app, LEA).await;
    let code = code_at(&secret, unix_now());
    assert_eq!(try_sign_in(&app, LEA, PASSWORD, Some(&code), None).await.status, 200);
    let again = try_sign_in(&app, LEA, PASSWORD, Some(&code), None).await;
    assert_eq!(again.status, 401, "the same code a second time: {}", again.body);

    // The next step's code (accepted a step early) sent twice at once signs in once. Taken
    // now, not with the first: under load the sign-ins above may have waited past its step.
    let next = code_at(&secret, unix_now() + 30);
    let both = join_all((0..2).map(|_| try_sign_in(&app, LEA, PASSWORD, Some(&next), None))).await;
    let statuses: Vec<u16> = both.iter().map(|a| a.status).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{statuses:?}");

    let other_node = app.restarted().await;
    for used in [&code, &next] {
        let replayed = try_sign_in(&other_node, LEA, PASSWORD, Some(used), None).await;
        assert_eq!(replayed.status, 401, "a used code on another node: {}", replayed.body);
    }
}

#[tokio::test]
async fn wrong_codes_to_turn_two_factor_off_count_with_the_sign_in_failures() {
    let app = spawn_app().await;
    let (session, secret) = with_two_factor(&app, LEA).await;
    let wrong = if current_code(&secret) == "000000" { "111111" } else { "000000" };
    let answers = join_all((0..30).map(|_| {
        with_session(&app, &session, Method::DELETE, "/me/two-factor", json!({"code": wrong, "password": PASSWORD}))
    }))
    .await;
    let checked = answers.iter().filter(|a| a.status == 422).count();
    assert!(checked <= 5, "{checked} of 30 codes to turn it off were checked");
    assert!(answers.iter().all(|a| a.status == 422 || a.told_to_wait()));
    let signing_in = try_sign_in(&app, LEA, PASSWORD, Some(&current_code(&secret)), None).await;
    assert!(signing_in.told_to_wait(), "the same person from the same address waits: {}", signing_in.body);
    let (_, me) = as_session(&app, &session, Method::GET, "/me", None, false).await;
    assert_eq!(me["user"]["two_factor"], 1, "still on: {me}");
}

#[tokio::test]
async fn wrong_current_passwords_to_change_the_password_count_with_the_sign_in_failures() {
    let app = spawn_app().await;
    person(&app, "alice", LEA, Role::Sender).await;
    let session = sign_in(&app, LEA, PASSWORD).await.expect("signed in");
    let body = json!({"me": {"password": "a brand new password", "current_password": "a wrong guess"}});
    let answers = join_all((0..30).map(|_| with_session(&app, &session, Method::PUT, "/me", body.clone()))).await;
    let checked = answers.iter().filter(|a| a.status == 422).count();
    assert!(checked <= 5, "{checked} of 30 guesses of the current password were checked");
    assert!(answers.iter().all(|a| a.status == 422 || a.told_to_wait()));
}

#[tokio::test]
async fn a_wrong_current_password_changes_nothing_not_even_the_name() {
    let app = spawn_app().await;
    person(&app, "alice", LEA, Role::Sender).await;
    let session = sign_in(&app, LEA, PASSWORD).await.expect("signed in");
    let body =
        json!({"me": {"name": "Taken over", "password": "a brand new password", "current_password": "a wrong guess"}});
    assert_eq!(with_session(&app, &session, Method::PUT, "/me", body).await.status, 422);
    let names = app.sql(&format!("SELECT name FROM users WHERE email = '{LEA}'")).await;
    assert_ne!(names[0][0].as_deref(), Some("Taken over"), "the name is kept: {names:?}");
}
