//! `POST`, `PUT` and `DELETE /me/two-factor`: setting up two-factor sign-in (a secret shown as
//! a QR code, confirmed by a code, then ten recovery codes), replacing it and turning it off
//! (both with the password and a current code, counted as sign-in tries); and the check
//! sign-in makes.

use std::{net::IpAddr, time::Instant};

use axum::{Router, extract::State, http::request::Parts, response::Response, routing::post};
use chrono::Utc;
use texto_core::{
    FieldError,
    wire::{RecoveryCodesResponse, StatusResponse, TwoFactorCodeRequest, TwoFactorSetupResponse},
};

use crate::{
    Error,
    http::{
        Accept,
        access::noted,
        auth::{Caller, client},
        body::WireBody,
    },
    state::AppState,
    store::{TwoFactor, UserRecord},
    team::two_factor::{code_step, enrolment, new_secret, recovery_codes, recovery_hash},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/me/two-factor", post(start).put(confirm).delete(turn_off))
}

/// The Unix second now: when a request arrived, for judging its code.
pub(crate) fn unix_now() -> i64 {
    Utc::now().timestamp()
}

fn wrong_code() -> Error {
    Error::Invalid(vec![FieldError::new("code", "this code is wrong or has expired")])
}

/// The person signed in (a token has no two-factor sign-in).
async fn person(state: &AppState, caller: &Caller) -> Result<UserRecord, Error> {
    let user = match caller.user() {
        Some(id) => state.store.user(caller.own_account(), id).await?,
        None => None,
    };
    user.ok_or_else(|| Error::Invalid(vec![FieldError::new("", "only a person signed in has two-factor sign-in")]))
}

/// Whether `code` signs `user` in as a second factor: their app's code at `arrived` (the Unix
/// second its request arrived, not the later one its password check ended: a sign-in that
/// waited its turn behind others must not find its code expired), used once (its step recorded,
/// so that neither it nor an earlier one signs in again, on any node), or one of their recovery
/// codes (used up here). Without two-factor on, any.
pub(crate) async fn second_factor_passes(
    state: &AppState,
    user: &UserRecord,
    code: &str,
    arrived: i64,
) -> Result<bool, Error> {
    let Some(secret) = &user.two_factor.secret else { return Ok(true) };
    if let Some(step) = code_step(secret, code, arrived) {
        return state.store.use_totp_step(user.id, step).await;
    }
    let hash = recovery_hash(code);
    let stored = &user.two_factor.recovery;
    if !stored.split(',').any(|h| h == hash) {
        return Ok(false);
    }
    let left = stored.split(',').filter(|h| *h != hash && !h.is_empty()).collect::<Vec<_>>().join(",");
    let used = TwoFactor { recovery: left, ..user.two_factor.clone() };
    state.store.set_two_factor(user.id, &used, Some(stored)).await
}

/// Proves that whoever holds `user`'s session is the person, before their active second factor
/// is replaced or turned off: their password and a current code (or a recovery code, used up),
/// counted as a sign-in try of theirs from `address` before either is checked. A session alone
/// must not take over or remove the person's second factor.
async fn prove_person(
    state: &AppState,
    user: &UserRecord,
    address: IpAddr,
    password: Option<String>,
    code: Option<&str>,
    code_field: &str,
) -> Result<(), Error> {
    let password = password
        .filter(|p| !p.is_empty())
        .ok_or_else(|| Error::invalid("password", "your password is needed to change two-factor sign-in"))?;
    let code = code
        .filter(|c| !c.trim().is_empty())
        .ok_or_else(|| Error::invalid(code_field, "a code of your app, or a recovery code, is needed"))?;
    let arrived = unix_now();
    let turn = state.password_checks.turn()?;
    let attempt = state.sign_ins.begin(&user.email, address, Instant::now()).map_err(Error::SignInSlowed)?;
    if !turn.verify(Some(user.password_hash.clone()), password).await? {
        state.sign_ins.failed(attempt, Instant::now());
        return Err(Error::invalid("password", "the password is wrong"));
    }
    if !second_factor_passes(state, user, code, arrived).await? {
        state.sign_ins.failed(attempt, Instant::now());
        return Err(Error::invalid(code_field, "this code is wrong or has expired"));
    }
    state.sign_ins.succeeded(attempt);
    Ok(())
}

/// `POST /me/two-factor`: a new secret to scan (its QR code as SVG); on once confirmed.
#[utoipa::path(post, path = "/me/two-factor", tag = "team",
    responses((status = 200, description = "The secret and its QR code", body = texto_core::wire::TwoFactorSetupResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn start(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let user = person(&state, &caller).await?;
    let secret = new_secret()?;
    let (otpauth_url, qr_svg) = enrolment(&secret, &user.email)?;
    let pending = TwoFactor { pending: Some(secret.clone()), ..user.two_factor };
    state.store.set_two_factor(user.id, &pending, None).await?;
    let answer = TwoFactorSetupResponse { status: 1, message: "OK".into(), secret, otpauth_url, qr_svg };
    Ok(noted(
        accept.ok(&answer),
        format!("user {}", user.id),
        format!("{} began setting up two-factor sign-in", user.email),
    ))
}

/// `PUT /me/two-factor` (`{"code"}`): the app's code confirms the secret; two-factor sign-in
/// is on, and ten recovery codes are answered this once. Replacing an active secret also takes
/// `password` and `current_code` (the current app's code, or a recovery code).
#[utoipa::path(put, path = "/me/two-factor", tag = "team", request_body = texto_core::wire::TwoFactorCodeRequest,
    responses((status = 200, description = "On; the recovery codes", body = texto_core::wire::RecoveryCodesResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn confirm(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    parts: Parts,
    body: WireBody,
) -> Result<Response, Error> {
    let TwoFactorCodeRequest { code, current_code, password } = body.decode()?;
    let user = person(&state, &caller).await?;
    let pending = user.two_factor.pending.clone().ok_or_else(|| {
        Error::Invalid(vec![FieldError::new("", "no two-factor set-up is under way: POST /me/two-factor first")])
    })?;
    if code_step(&pending, code.as_deref().unwrap_or_default(), unix_now()).is_none() {
        return Err(wrong_code());
    }
    if user.two_factor.secret.is_some() {
        let address = client(&parts, &state.config.trusted_proxies);
        prove_person(&state, &user, address, password, current_code.as_deref(), "current_code").await?;
    }
    let (codes, stored) = recovery_codes()?;
    state
        .store
        .set_two_factor(user.id, &TwoFactor { secret: Some(pending), pending: None, recovery: stored }, None)
        .await?;
    let answer = RecoveryCodesResponse { status: 1, message: "OK".into(), recovery_codes: codes };
    Ok(noted(accept.ok(&answer), format!("user {}", user.id), format!("{} turned two-factor sign-in on", user.email)))
}

/// `DELETE /me/two-factor` (`{"code", "password"}`: a current code or a recovery code, and the
/// password): off.
#[utoipa::path(delete, path = "/me/two-factor", tag = "team", request_body = texto_core::wire::TwoFactorCodeRequest,
    responses((status = 200, description = "Off", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn turn_off(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    parts: Parts,
    body: WireBody,
) -> Result<Response, Error> {
    let TwoFactorCodeRequest { code, password, .. } = body.decode()?;
    let user = person(&state, &caller).await?;
    if user.two_factor.secret.is_none() {
        return Err(Error::invalid("", "two-factor sign-in is off"));
    }
    let address = client(&parts, &state.config.trusted_proxies);
    prove_person(&state, &user, address, password, code.as_deref(), "code").await?;
    state.store.set_two_factor(user.id, &TwoFactor::default(), None).await?;
    let summary = format!("{} turned two-factor sign-in off", user.email);
    Ok(noted(accept.ok(&StatusResponse::ok()), format!("user {}", user.id), summary))
}
