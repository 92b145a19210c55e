//! The team workspace: people sign in with a password (a strict, HttpOnly cookie and a CSRF
//! header), failed sign-ins slow down, every route answers by the role table for tokens and
//! people of each role, an author's send waits for approval, and the audit log records it all.

use reqwest::{Method, header};
use serde_json::{Value, json};
use texto_core::Role;
use texto_server::{Access, ROUTES, TokenAction, UserAction, account_commands, user_commands};

use crate::helpers::{TestApp, account, spawn_app};

pub(crate) const PASSWORD: &str = "correct horse battery";

/// A token of `account` with `role`.
pub(crate) async fn token_with(app: &TestApp, account: &str, role: Role) -> String {
    let action = TokenAction::Create {
        account: account.into(),
        http_errors: texto_server::HttpErrors::On,
        name: format!("{role} token"),
        ttl: None,
        allow_ip: Vec::new(),
        role,
    };
    account_commands::token(&app.db(), action).await.expect("a token")
}

/// Invites `email` into `account` with the command line and accepts the link with the API.
pub(crate) async fn person(app: &TestApp, account: &str, email: &str, role: Role) {
    let action = UserAction::Create {
        account: account.into(),
        email: email.into(),
        role,
        name: None,
        password_stdin: false,
        public_url: app.base_url.clone(),
    };
    let printed = user_commands::user(&app.db(), action).await.expect("an invitation");
    let link = printed.split_whitespace().last().expect("a link").to_owned();
    let secret = link.rsplit('/').next().expect("a secret");
    let body = json!({"invitation": {"name": "Camille", "password": PASSWORD}});
    let (status, answer) = app.json(Method::POST, &format!("/invitation/{secret}"), Some(body)).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["user"]["role"], role.as_str());
}

/// A signed-in session: its cookie and CSRF value.
pub(crate) struct Session {
    pub(crate) cookie: String,
    pub(crate) csrf: String,
}

pub(crate) async fn sign_in(app: &TestApp, email: &str, password: &str) -> Result<Session, (u16, Value)> {
    sign_in_with(app, email, password, None).await
}

async fn sign_in_with(app: &TestApp, email: &str, password: &str, code: Option<&str>) -> Result<Session, (u16, Value)> {
    let response = app
        .anonymous(Method::POST, "/session")
        .header("Accept", "application/json")
        .json(&json!({"session": {"email": email, "password": password, "code": code}}))
        .send()
        .await
        .expect("sent");
    let status = response.status().as_u16();
    let set_cookie = response.headers().get(header::SET_COOKIE).map(|v| v.to_str().unwrap_or("").to_owned());
    let body: Value = response.json().await.expect("JSON");
    if status != 200 {
        return Err((status, body));
    }
    let set_cookie = set_cookie.expect("a cookie");
    for flag in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(set_cookie.contains(flag), "{set_cookie}");
    }
    let cookie = set_cookie.split(';').next().expect("a pair").to_owned();
    Ok(Session { cookie, csrf: body["csrf_token"].as_str().expect("a CSRF value").to_owned() })
}

/// A request made with the session's cookie (and its CSRF header when `csrf`).
pub(crate) async fn as_session(
    app: &TestApp,
    session: &Session,
    method: Method,
    path: &str,
    body: Option<Value>,
    csrf: bool,
) -> (u16, Value) {
    let mut request =
        app.anonymous(method, path).header("Accept", "application/json").header(header::COOKIE, &session.cookie);
    if csrf {
        request = request.header("X-CSRF-Token", &session.csrf);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("sent");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// `path` with each `{placeholder}` filled with a value of its kind (ids of another account).
pub(crate) fn concrete(path: &str) -> String {
    path.replace("{email}", "nobody@example.com")
        .replace("{number}", "33612345678")
        .split('/')
        .map(|part| if part.starts_with('{') { "1".to_owned() } else { part.to_owned() })
        .collect::<Vec<_>>()
        .join("/")
}

#[tokio::test]
async fn every_route_answers_by_the_role_table_for_tokens_and_people_of_each_role() {
    let app = spawn_app().await;
    // Ids 1 belong to alice's account: an allowed caller of another account gets 404 or
    // -7, never 401 or 403, and touches nothing.
    person(&app, "alice", "first@alice.example", Role::Owner).await;
    account(&app.db(), "team", 100.0).await;
    let mut tried = 0;
    for role in Role::ALL {
        let token = token_with(&app, "team", role).await;
        let email = format!("{role}@team.example");
        person(&app, "team", &email, role).await;
        let session = sign_in(&app, &email, PASSWORD).await.expect("signed in");
        for (method, path, access) in ROUTES {
            let Access::Signed(action, _) = access else { continue };
            if path.starts_with("/session") {
                continue; // signing out is tried by its own test
            }
            let method = Method::from_bytes(method.as_bytes()).expect("a method");
            let path = concrete(path);
            let by_token = app.request(&token, method.clone(), &path).json(&json!({})).send().await.expect("sent");
            let (token_status, token_body) = (by_token.status().as_u16(), by_token.text().await.unwrap_or_default());
            let (person_status, person_body) =
                as_session(&app, &session, method.clone(), &path, Some(json!({})), true).await;
            for (who, status, body) in
                [("token", token_status, token_body), ("person", person_status, person_body.to_string())]
            {
                if role.may(*action) {
                    assert!(status != 401 && status != 403, "{role} {who}: {method} {path} answered {status}: {body}");
                } else {
                    assert_eq!(status, 403, "{role} {who}: {method} {path}: {body}");
                    assert!(body.contains("-12") && body.contains(role.as_str()), "{body}");
                }
                tried += 1;
            }
        }
    }
    println!("role table checks: {tried}");
}

#[tokio::test]
async fn a_session_cookie_needs_its_csrf_header_for_changes_and_signing_out_ends_it() {
    let app = spawn_app().await;
    person(&app, "alice", "sam@alice.example", Role::Sender).await;
    let session = sign_in(&app, "SAM@alice.example", PASSWORD).await.expect("emails are read in any case");
    let (status, me) = as_session(&app, &session, Method::GET, "/me", None, false).await;
    assert_eq!(
        (status, me["user"]["email"].as_str(), me["role"].as_str()),
        (200, Some("sam@alice.example"), Some("sender"))
    );
    assert_eq!(me["csrf_token"].as_str(), Some(session.csrf.as_str()), "a reload finds its CSRF value again");
    let list = json!({"list": {"name": "Clients", "contacts": {"gsm": [{"value": "33611111111"}]}}});
    let (status, refused) = as_session(&app, &session, Method::POST, "/list", Some(list.clone()), false).await;
    assert_eq!(
        (status, refused["status"].as_i64()),
        (403, Some(-12)),
        "a cross-site post carries no CSRF header: {refused}"
    );
    assert_eq!(as_session(&app, &session, Method::POST, "/list", Some(list), true).await.0, 200);
    let (status, _) = as_session(&app, &session, Method::DELETE, "/session", None, true).await;
    assert_eq!(status, 200);
    assert_eq!(as_session(&app, &session, Method::GET, "/me", None, false).await.0, 401, "signed out");
}

#[tokio::test]
async fn signing_out_everywhere_or_changing_the_password_ends_the_other_sessions() {
    let app = spawn_app().await;
    person(&app, "alice", "ana@alice.example", Role::Analyst).await;
    let (laptop, phone) = (
        sign_in(&app, "ana@alice.example", PASSWORD).await.unwrap(),
        sign_in(&app, "ana@alice.example", PASSWORD).await.unwrap(),
    );
    let change = json!({"me": {"password": "another long password", "current_password": PASSWORD}});
    let (status, answer) = as_session(&app, &laptop, Method::PUT, "/me", Some(change), true).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(as_session(&app, &phone, Method::GET, "/me", None, false).await.0, 401, "the phone's session ended");
    assert_eq!(as_session(&app, &laptop, Method::GET, "/me", None, false).await.0, 200, "the laptop's stays");
    assert!(sign_in(&app, "ana@alice.example", PASSWORD).await.is_err(), "the old password no longer works");
    let tablet = sign_in(&app, "ana@alice.example", "another long password").await.unwrap();
    let (status, ended) = as_session(&app, &tablet, Method::DELETE, "/sessions", None, true).await;
    assert_eq!((status, ended["ended"].as_i64()), (200, Some(2)));
    assert_eq!(as_session(&app, &laptop, Method::GET, "/me", None, false).await.0, 401);
}

#[tokio::test]
async fn failed_sign_ins_slow_down_and_never_say_whether_the_email_exists() {
    let app = spawn_app().await;
    person(&app, "alice", "lea@alice.example", Role::Owner).await;
    let (_, unknown) = sign_in(&app, "nobody@alice.example", PASSWORD).await.err().expect("refused");
    let (status, wrong) = sign_in(&app, "lea@alice.example", "not the password").await.err().expect("refused");
    assert_eq!(status, 401);
    assert_eq!(unknown["details"], wrong["details"], "the same answer whether the email exists or not");
    for _ in 0..4 {
        assert_eq!(sign_in(&app, "lea@alice.example", "still wrong!").await.err().unwrap().0, 401);
    }
    let (status, slowed) = sign_in(&app, "lea@alice.example", PASSWORD).await.err().expect("slowed");
    assert_eq!(status, 429, "{slowed}");
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert!(sign_in(&app, "lea@alice.example", PASSWORD).await.is_ok(), "after the wait the right password works");
}

async fn credits(app: &TestApp) -> f64 {
    let (_, body) = app.json(Method::GET, "/credits", None).await;
    body["credits"].as_str().and_then(|c| c.parse().ok()).expect("credits")
}

#[tokio::test]
async fn an_authors_send_waits_for_approval_until_a_sender_approves_or_rejects_it() {
    let app = spawn_app().await;
    let (author, sender) =
        (token_with(&app, "alice", Role::Author).await, token_with(&app, "alice", Role::Sender).await);
    let send = json!({"sms": {"message": {"text": "Soldes", "pushtype": "alert"}, "recipients": {"gsm": [{"value": "33611111111"}, {"value": "33611111112"}]}}});
    let (status, first) = app.json_as(&author, Method::POST, "/send", Some(send.clone())).await;
    assert_eq!(status, 200, "{first}");
    let ticket = first["ticket"].as_str().expect("a ticket").to_owned();
    let (_, detail) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
    assert_eq!(detail["campaign"][0]["status"], "awaiting approval", "{detail}");
    let held = credits(&app).await;
    assert!(held < 1000.0, "the credits are held: {held}");
    let (status, refused) = app.json_as(&author, Method::POST, &format!("/campaign/{ticket}/approve"), None).await;
    assert_eq!((status, refused["status"].as_i64()), (403, Some(-12)), "an author approves nothing");
    let (status, _) = app.json_as(&sender, Method::POST, &format!("/campaign/{ticket}/approve"), None).await;
    assert_eq!(status, 200);
    let approval = app.sql(&format!("SELECT approval FROM campaigns WHERE id = {ticket}")).await;
    assert_eq!(approval[0][0].as_deref(), Some("approved"));
    crate::delivery::settled(&app, &ticket).await;
    let (_, second) = app.json_as(&author, Method::POST, "/send", Some(send)).await;
    let other = second["ticket"].as_str().unwrap().to_owned();
    let before = credits(&app).await;
    let (status, why) = app.json_as(&sender, Method::POST, &format!("/campaign/{other}/reject"), Some(json!({}))).await;
    assert_eq!(status, 422, "a reason is required: {why}");
    let (status, _) = app
        .json_as(&sender, Method::POST, &format!("/campaign/{other}/reject"), Some(json!({"reason": "Wrong day"})))
        .await;
    assert_eq!(status, 200);
    let after = credits(&app).await;
    assert!(after > before, "the rejected campaign's credits came back: {before} → {after}");
    let (_, detail) = app.json(Method::GET, &format!("/campaign/{other}"), None).await;
    assert_eq!(detail["campaign"][0]["status"], "Cancelled");
    assert_eq!(detail["campaign"][0]["rejection"], "Wrong day", "the author sees why: {detail}");
    let (status, _) = app.json_as(&sender, Method::POST, &format!("/campaign/{other}/approve"), None).await;
    assert_eq!(status, 422, "a rejected campaign cannot be approved");
}

#[tokio::test]
async fn the_audit_log_names_who_did_what_from_where_and_is_filtered() {
    let app = spawn_app().await;
    person(&app, "alice", "owner@alice.example", Role::Owner).await;
    let session = sign_in(&app, "owner@alice.example", PASSWORD).await.unwrap();
    let _ = sign_in(&app, "owner@alice.example", "wrong password!").await;
    let invite = json!({"user": {"email": "new@alice.example", "role": "analyst"}});
    let (status, invited) = as_session(&app, &session, Method::POST, "/users", Some(invite), true).await;
    assert_eq!(status, 200, "{invited}");
    assert!(
        invited["invitation_url"].as_str().unwrap_or("").contains("/app/invitation/"),
        "no SMTP: the link is answered"
    );
    let (status, _) =
        app.json(Method::POST, "/list", Some(json!({"list": {"name": "VIP", "contacts": {"gsm": []}}}))).await;
    assert_eq!(status, 200);
    let (_, log) = app.json(Method::GET, "/audit", None).await;
    let actions: Vec<&str> = log["audit"].as_array().unwrap().iter().filter_map(|e| e["action"].as_str()).collect();
    for expected in ["list.create", "user.invite", "session.failed", "session.create", "user.join"] {
        assert!(actions.contains(&expected), "{expected} in {actions:?}");
    }
    let newest = &log["audit"][0];
    assert_eq!((newest["action"].as_str(), newest["actor"].as_str()), (Some("list.create"), Some("token \"Tests\"")));
    assert_eq!(newest["address"], "127.0.0.1");
    let (_, mine) = app.json(Method::GET, "/audit?actor=owner@alice.example&action=user", None).await;
    assert_eq!(mine["audit"].as_array().unwrap().len(), 2, "joining and inviting: {mine}");
    assert_eq!(mine["audit"][0]["summary"], "new@alice.example invited as analyst");
    let csv =
        app.request(&app.token, Method::GET, "/audit.csv?action=list").send().await.unwrap().text().await.unwrap();
    assert!(csv.contains("date,actor,address,action,object,summary") && csv.contains("list.create"), "{csv}");
    let other = account(&app.db(), "mallory", 10.0).await;
    let (_, theirs) = app.json_as(&other, Method::GET, "/audit", None).await;
    assert_eq!(theirs["totalRecords"], 0, "another account sees none of it");
}

#[tokio::test]
async fn nobody_hands_out_more_power_than_they_have() {
    let app = spawn_app().await;
    let admin = token_with(&app, "alice", Role::Admin).await;
    let (status, _) =
        app.json_as(&admin, Method::POST, "/token", Some(json!({"token": {"name": "CI", "role": "owner"}}))).await;
    assert_eq!(status, 403);
    let (status, made) = app.json_as(&admin, Method::POST, "/token", Some(json!({"token": {"name": "CI"}}))).await;
    assert_eq!(status, 200, "{made}");
    let (_, listed) = app.json(Method::GET, &format!("/token/{}", made["token_id"]), None).await;
    assert_eq!(listed["token"]["role"], "admin", "a token takes its creator's role by default");
    let (status, _) = app
        .json_as(&admin, Method::POST, "/users", Some(json!({"user": {"email": "x@alice.example", "role": "owner"}})))
        .await;
    assert_eq!(status, 403, "only an owner makes owners");
    person(&app, "alice", "boss@alice.example", Role::Owner).await;
    let (_, users) = app.json(Method::GET, "/users", None).await;
    let boss = users["users"][0]["id"].as_i64().unwrap();
    let (status, _) = app.json_as(&admin, Method::DELETE, &format!("/user/{boss}"), None).await;
    assert_eq!(status, 403, "an admin cannot remove an owner");
    let (status, last) =
        app.json(Method::PUT, &format!("/user/{boss}"), Some(json!({"user": {"role": "admin"}}))).await;
    assert_eq!(status, 422, "the last owner stays one: {last}");
}

#[tokio::test]
async fn a_campaign_nobody_approves_in_time_is_rejected_and_refunded() {
    let app =
        crate::helpers::spawn_app_with(|config| config.approval_wait = std::time::Duration::from_secs(1).into()).await;
    let author = token_with(&app, "alice", Role::Author).await;
    let send = json!({"sms": {"message": {"text": "Trop tard", "pushtype": "alert"}, "recipients": {"gsm": [{"value": "33611111113"}]}}});
    let (_, sent) = app.json_as(&author, Method::POST, "/send", Some(send)).await;
    let ticket = sent["ticket"].as_str().expect("a ticket").to_owned();
    assert!(credits(&app).await < 1000.0, "held while it waits");
    crate::delivery::until("the campaign rejected", || async {
        let (_, detail) = app.json(Method::GET, &format!("/campaign/{ticket}"), None).await;
        (detail["campaign"][0]["status"] == "Cancelled").then_some(())
    })
    .await;
    assert_eq!(credits(&app).await, 1000.0, "its credits came back");
    // The worker notes the rejection and records it just after the cancellation commits.
    let log = crate::delivery::until("the expiry in the audit log", || async {
        let (_, log) = app.json(Method::GET, "/audit?action=campaign.expire", None).await;
        (log["audit"].as_array().is_some_and(|lines| !lines.is_empty())).then_some(log)
    })
    .await;
    assert_eq!(log["audit"][0]["actor"], "texto", "{log}");
}

/// The current code of a base32 `secret`, as an authenticator app shows it.
pub(crate) fn current_code(secret: &str) -> String {
    let bytes = totp_rs::Secret::Encoded(secret.to_owned()).to_bytes().expect("base32");
    totp_rs::TOTP::new_unchecked(totp_rs::Algorithm::SHA1, 6, 1, 30, bytes, None, String::new())
        .generate_current()
        .expect("a code")
}

#[tokio::test]
async fn two_factor_sign_in_asks_for_the_apps_code_or_a_recovery_code_used_once() {
    let app = spawn_app().await;
    person(&app, "alice", "max@alice.example", Role::Sender).await;
    let session = sign_in(&app, "max@alice.example", PASSWORD).await.unwrap();
    let (status, setup) = as_session(&app, &session, Method::POST, "/me/two-factor", None, true).await;
    assert_eq!(status, 200, "{setup}");
    assert!(setup["otpauth_url"].as_str().unwrap().starts_with("otpauth://totp/texto:max%40alice.example?"));
    assert!(setup["qr_svg"].as_str().unwrap().contains("<svg"));
    let secret = setup["secret"].as_str().unwrap().to_owned();
    assert!(sign_in(&app, "max@alice.example", PASSWORD).await.is_ok(), "not on until confirmed");
    let (status, _) =
        as_session(&app, &session, Method::PUT, "/me/two-factor", Some(json!({"code": "000000"})), true).await;
    assert_eq!(status, 422, "a wrong code confirms nothing");
    let (status, on) =
        as_session(&app, &session, Method::PUT, "/me/two-factor", Some(json!({"code": current_code(&secret)})), true)
            .await;
    assert_eq!(status, 200, "{on}");
    let recovery: Vec<String> = serde_json::from_value(on["recovery_codes"].clone()).unwrap();
    assert_eq!(recovery.len(), 10);

    let (status, asked) = sign_in(&app, "max@alice.example", PASSWORD).await.err().expect("a code is needed");
    assert_eq!((status, asked["details"].as_str()), (401, Some("an authentication code is needed")));
    assert!(sign_in_with(&app, "max@alice.example", PASSWORD, Some("123456")).await.is_err());
    assert!(sign_in_with(&app, "max@alice.example", PASSWORD, Some(&current_code(&secret))).await.is_ok());
    assert!(sign_in_with(&app, "max@alice.example", PASSWORD, Some(&recovery[0])).await.is_ok());
    assert!(
        sign_in_with(&app, "max@alice.example", PASSWORD, Some(&recovery[0])).await.is_err(),
        "a recovery code works once"
    );

    let off = json!({"code": recovery[1], "password": PASSWORD});
    let (status, _) = as_session(&app, &session, Method::DELETE, "/me/two-factor", Some(off), true).await;
    assert_eq!(status, 200);
    assert!(sign_in(&app, "max@alice.example", PASSWORD).await.is_ok(), "off again");
}

#[tokio::test]
async fn a_password_hashed_with_former_parameters_signs_in_and_is_hashed_again() {
    use argon2::{Algorithm, Argon2, Params, PasswordHasher, Version, password_hash::SaltString};
    let app = spawn_app().await;
    person(&app, "alice", "camille@example.com", Role::Sender).await;
    // The hash a person made before 2026-11-29 had: 19 MiB and 2 passes.
    let former = Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::new(19 * 1024, 2, 1, None).expect("params"));
    let salt = SaltString::encode_b64(b"sixteen byte sal").expect("a salt");
    let stored = former.hash_password(PASSWORD.as_bytes(), &salt).expect("a hash").to_string();
    app.sql(&format!("UPDATE users SET password_hash = '{stored}' WHERE email = 'camille@example.com'")).await;
    let kept = sign_in(&app, "camille@example.com", PASSWORD).await.expect("the former hash verifies");
    assert!(sign_in(&app, "camille@example.com", "not the password").await.is_err());
    // Hashed again beside the sign-in, with today's parameters; the session stays.
    let query = "SELECT password_hash FROM users WHERE email = 'camille@example.com'";
    let rehashed = crate::delivery::until("the hash made again", || async {
        let hash = app.sql(query).await.into_iter().next().and_then(|row| row[0].clone())?;
        hash.starts_with("$argon2id$v=19$m=7168,t=5,p=1$").then_some(hash)
    })
    .await;
    assert_ne!(rehashed, stored);
    sign_in(&app, "camille@example.com", PASSWORD).await.expect("the new hash verifies");
    let me = app.anonymous(Method::GET, "/me").header("Cookie", &kept.cookie).header("Accept", "application/json");
    assert_eq!(me.send().await.expect("sent").status(), 200, "the first session stays");
}
