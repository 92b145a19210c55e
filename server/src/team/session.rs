//! Signing in and out: `POST /session` (an email and password, or an API token exchanged for
//! a session), `DELETE /session`, `DELETE /sessions` ("sign out everywhere"), `GET /me` and
//! `PUT /me` (name and password).

use std::time::Instant;

use axum::{
    Router,
    extract::State,
    http::{HeaderValue, header, request::Parts},
    response::Response,
    routing::{delete, get, post},
};
use chrono::Utc;
use texto_core::{
    FieldError, format_paris, parse_international,
    wire::{ProfileRequest, SessionResponse, SessionsEndedResponse, SignInRequest, UserDto},
};

use crate::{
    Error,
    http::{
        Accept,
        access::noted,
        auth::{Caller, SESSION_COOKIE, authenticate, bearer, client},
        body::{JsonBody, WireBody},
    },
    state::AppState,
    store::{AccountId, AuditEntry, SessionOwner, UserRecord, token_hash},
    team::{
        names::{Email, PersonName},
        passwords::{self, Password},
        token_mint::secret,
        two_factor_setup::{second_factor_passes, unix_now},
    },
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/session", post(sign_in).delete(sign_out))
        .route("/sessions", delete(sign_out_everywhere))
        .route("/me", get(me).put(change_profile))
}

/// The answer's details when the password was right and two-factor sign-in needs its code:
/// the app then asks for it.
const CODE_NEEDED: &str = "an authentication code is needed";

/// A person as the wire shows them.
pub(crate) fn user_dto(user: &UserRecord) -> UserDto {
    UserDto {
        id: user.id,
        email: user.email.clone(),
        name: user.name.clone(),
        role: user.role.as_str().to_owned(),
        account_id: user.account,
        created_at: format_paris(user.created_at),
        two_factor: i64::from(user.two_factor.secret.is_some()),
        phone: None,
    }
}

/// The `Set-Cookie` of a session (`secret`), or of its end (`None`).
fn cookie(state: &AppState, secret: Option<&str>) -> HeaderValue {
    let secure = state.config.public_url.as_deref().is_some_and(|url| url.starts_with("https://"));
    let (value, age) = match secret {
        Some(secret) => (secret, crate::store::team_sessions::SESSION_MOST.num_seconds()),
        None => ("", 0),
    };
    let text = format!(
        "{SESSION_COOKIE}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={age}{}",
        if secure { "; Secure" } else { "" }
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("texto_session=; Max-Age=0"))
}

/// Records a sign-in attempt (success or not) in the audit log.
fn record(state: &AppState, account: AccountId, actor: &str, address: String, action: &str, summary: &str) {
    state.audit.record(AuditEntry {
        account,
        at: Utc::now(),
        actor: actor.to_owned(),
        address,
        action: action.to_owned(),
        object: String::new(),
        summary: summary.to_owned(),
    });
}

/// `POST /session`: signs a person in with their email and password, or exchanges the
/// request's API token for a session; sets the cookie and answers the CSRF value.
#[utoipa::path(
    post,
    path = "/session",
    tag = "team",
    request_body = texto_core::wire::SignInRequest,
    responses((status = 200, description = "Signed in: the cookie is set; send csrf_token in X-CSRF-Token with every change", body = texto_core::wire::SessionResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse))
)]
pub(crate) async fn sign_in(
    State(state): State<AppState>,
    accept: Accept,
    parts: Parts,
    JsonBody(body): JsonBody,
) -> Result<Response, Error> {
    let arrived = unix_now();
    let address = client(&parts, &state.config.trusted_proxies);
    let has_token = bearer(&parts).is_some();
    let (account, owner, actor, role, user) = if has_token && body.text.trim().is_empty() {
        let caller = authenticate(&parts, &state, false).await?;
        let token = caller.token.ok_or(Error::Unauthorized("no token: send Authorization: Bearer <token>"))?;
        (caller.account, SessionOwner::Token(token), caller.actor, caller.role, None)
    } else {
        let SignInRequest { session } = body.decode()?;
        let typed = session.email.unwrap_or_default();
        let email = Email::parse(&typed).map_err(|why| Error::Invalid(vec![FieldError::new("session.email", why)]))?;
        let password = session.password.unwrap_or_default();
        // A place among the checks first: a full queue answers at once, and counts no guess.
        let turn = state.password_checks.turn()?;
        // Counted before it is checked, so that guesses sent at once are all counted.
        let attempt = match state.sign_ins.begin(email.as_str(), address, Instant::now()) {
            Ok(attempt) => attempt,
            Err(wait) => {
                let why = "sign-in refused: too many failures";
                record(&state, 0, email.as_str(), address.to_string(), "session.slowed", why);
                return Err(Error::SignInSlowed(wait));
            }
        };
        let found = state.store.user_by_email(&email).await?;
        let typed_password = password.clone();
        let matches = turn.verify(found.as_ref().map(|u| u.password_hash.clone()), password).await?;
        let user = match found {
            Some(user) if matches => user,
            other => {
                state.sign_ins.failed(attempt, Instant::now());
                let account = other.map_or(0, |u| u.account);
                record(&state, account, email.as_str(), address.to_string(), "session.failed", "sign-in failed");
                return Err(Error::Unauthorized("the email or the password is wrong"));
            }
        };
        if user.two_factor.secret.is_some() {
            // The password was right: asking for the code counts as no failure.
            let Some(code) = session.code.filter(|c| !c.trim().is_empty()) else {
                state.sign_ins.take_back(attempt);
                return Err(Error::Unauthorized(CODE_NEEDED));
            };
            if !second_factor_passes(&state, &user, &code, arrived).await? {
                state.sign_ins.failed(attempt, Instant::now());
                let why = "wrong authentication code";
                record(&state, user.account, email.as_str(), address.to_string(), "session.failed", why);
                return Err(Error::Unauthorized("the authentication code is wrong or has expired"));
            }
        }
        state.sign_ins.succeeded(attempt);
        rehash_if_former(&state, &user, typed_password);
        (user.account, SessionOwner::User(user.id), user.email.clone(), user.role, Some(user))
    };
    if state.moderation.is_suspended(account) {
        return Err(Error::Suspended);
    }
    let two_factor_required = match &user {
        Some(user) => user.two_factor.secret.is_none() && state.store.team_rules(account).await?.require_two_factor,
        None => false,
    };
    let (session_secret, csrf) = (secret()?, secret()?);
    state.store.add_session(&token_hash(&session_secret), account, owner, &csrf, Utc::now()).await?;
    record(&state, account, &actor, address.to_string(), "session.create", &format!("{actor} signed in"));
    let mut response = accept.ok(&SessionResponse {
        status: 1,
        message: "OK".into(),
        user: user.as_ref().map(user_dto),
        actor,
        role: role.as_str().to_owned(),
        account_id: account,
        csrf_token: Some(csrf),
        two_factor_required: i64::from(two_factor_required),
    });
    response.headers_mut().insert(header::SET_COOKIE, cookie(&state, Some(&session_secret)));
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// `DELETE /session`: ends the session the cookie names and clears the cookie.
#[utoipa::path(
    delete,
    path = "/session",
    tag = "team",
    responses((status = 200, description = "Signed out", body = texto_core::wire::SessionsEndedResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn sign_out(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let ended = match &caller.session {
        Some(session) => {
            state.store.end_session(session.id).await?;
            1
        }
        None => 0,
    };
    let mut response = accept.ok(&SessionsEndedResponse { status: 1, message: "OK".into(), ended });
    response.headers_mut().insert(header::SET_COOKIE, cookie(&state, None));
    Ok(noted(response, "", format!("{} signed out", caller.actor)))
}

/// `DELETE /sessions`: ends every session of the person (or token) signed in.
#[utoipa::path(
    delete,
    path = "/sessions",
    tag = "team",
    responses((status = 200, description = "Every session ended", body = texto_core::wire::SessionsEndedResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn sign_out_everywhere(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
) -> Result<Response, Error> {
    let owner = match (caller.user(), caller.token) {
        (Some(user), _) => SessionOwner::User(user),
        (None, Some(token)) => SessionOwner::Token(token),
        (None, None) => return Err(Error::Unauthorized("no session")),
    };
    let ended = state.store.end_sessions(owner).await? as i64;
    let mut response = accept.ok(&SessionsEndedResponse { status: 1, message: "OK".into(), ended });
    response.headers_mut().insert(header::SET_COOKIE, cookie(&state, None));
    Ok(noted(response, "", format!("{} signed out everywhere ({ended} sessions)", caller.actor)))
}

/// The answer of `GET /me` and `PUT /me`.
async fn who(state: &AppState, caller: &Caller, accept: Accept) -> Result<Response, Error> {
    let user = match caller.user() {
        Some(id) => state.store.user(caller.own_account(), id).await?,
        None => None,
    };
    Ok(accept.ok(&SessionResponse {
        status: 1,
        message: "OK".into(),
        // The person's own number is theirs to see, not their team's (`GET /users` has none).
        user: user.as_ref().map(|user| UserDto { phone: user.phone.map(|n| n.to_string()), ..user_dto(user) }),
        actor: caller.actor.clone(),
        role: caller.role.as_str().to_owned(),
        account_id: caller.account,
        csrf_token: caller.session.as_ref().map(|s| s.csrf.clone()),
        two_factor_required: i64::from(caller.session.as_ref().is_some_and(|s| s.two_factor_missing)),
    }))
}

/// `GET /me`: who is signed in, their role, and the session's CSRF value.
#[utoipa::path(
    get,
    path = "/me",
    tag = "team",
    responses((status = 200, description = "Who is signed in", body = texto_core::wire::SessionResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn me(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    who(&state, &caller, accept).await
}

/// `PUT /me`: the signed-in person's name and password (the current one required to change
/// it, and counted as a sign-in try; the change ends their other sessions).
#[utoipa::path(
    put,
    path = "/me",
    tag = "team",
    request_body = texto_core::wire::ProfileRequest,
    responses((status = 200, description = "Changed", body = texto_core::wire::SessionResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn change_profile(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    parts: Parts,
    body: WireBody,
) -> Result<Response, Error> {
    let ProfileRequest { me } = body.decode()?;
    let user = match caller.user() {
        Some(id) => state.store.user(caller.own_account(), id).await?,
        None => None,
    }
    .ok_or_else(|| Error::Invalid(vec![FieldError::new("me", "only a person signed in has a profile")]))?;
    let name = me.name.as_deref().map(PersonName::parse).transpose();
    let password = me.password.as_deref().map(Password::parse).transpose();
    let phone = me.phone.as_deref().map(str::trim).map(|typed| match typed {
        "" => Ok(None),
        typed => parse_international(typed).map(Some),
    });
    let mut problems = Vec::new();
    if let Some(Err(why)) = &phone {
        problems.push(FieldError::new("me.phone", format!("a mobile number in international form: {why}")));
    }
    if let Err(why) = &name {
        problems.push(FieldError::new("me.name", why.clone()));
    }
    if let Err(why) = &password {
        problems.push(FieldError::new("me.password", why.clone()));
    }
    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    let mut changes = Vec::new();
    // The password is checked before anything is written: a wrong one changes nothing.
    if let Ok(Some(password)) = password {
        let current = me.current_password.unwrap_or_default();
        // Counted as the person's sign-in try, so that a session alone cannot guess the password.
        let turn = state.password_checks.turn()?;
        let address = client(&parts, &state.config.trusted_proxies);
        let attempt = state.sign_ins.begin(&user.email, address, Instant::now()).map_err(Error::SignInSlowed)?;
        if !turn.verify(Some(user.password_hash.clone()), current).await? {
            state.sign_ins.failed(attempt, Instant::now());
            return Err(Error::Invalid(vec![FieldError::new("me.current_password", "the current password is wrong")]));
        }
        state.sign_ins.succeeded(attempt);
        let keep = caller.session.as_ref().map(|s| s.id);
        state.store.set_password(user.id, &passwords::hash(password).await?, keep).await?;
        changes.push("password (other sessions ended)");
    }
    if let Some(Ok(phone)) = phone {
        state.store.set_phone(user.id, phone).await?;
        changes.insert(0, "mobile number");
    }
    if let Ok(Some(name)) = name {
        state.store.set_name(user.id, &name).await?;
        changes.insert(0, "name");
    }
    let response = who(&state, &caller, accept).await?;
    Ok(noted(response, format!("user {}", user.id), format!("{} changed their {}", user.email, changes.join(" and "))))
}

/// A password hash made with former parameters is made again with today's, beside the sign-in
/// that proved the password (which does not wait for it); a failure leaves the old hash, which
/// still verifies.
fn rehash_if_former(state: &AppState, user: &crate::store::UserRecord, password: String) {
    if !crate::team::passwords::needs_rehash(&user.password_hash) {
        return;
    }
    let Ok(password) = crate::team::passwords::Password::parse(&password) else { return };
    let (store, id, old) = (state.store.clone(), user.id, user.password_hash.clone());
    tokio::spawn(async move {
        let rehashed = match crate::team::passwords::hash(password).await {
            Ok(new) => store.rehash_password(id, &old, &new).await,
            Err(error) => Err(error),
        };
        if let Err(error) = rehashed {
            tracing::warn!(%error, user = id, "a password hash with former parameters stays as it was");
        }
    });
}
