//! Operators who sign in: `POST /operator/session` with their name and password
//! (set with `texto operator password`) opens a session, a bearer token of its own valid 12
//! hours; `DELETE /operator/session` ends it. Failed tries slow down as people's do.

use std::time::Instant;

use axum::{Extension, Router, extract::State, http::request::Parts, response::Response, routing::post};
use chrono::{TimeDelta, Utc};
use texto_core::wire::{OperatorSessionResponse, OperatorSignInRequest, StatusResponse};

use crate::{
    Error,
    http::{Accept, auth, body::WireBody},
    operator::caller::OperatorCaller,
    state::AppState,
    store::token_hash,
    team::token_mint::secret,
};

/// How long a session lasts.
const SESSION_FOR: TimeDelta = TimeDelta::hours(12);

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/operator/session", post(sign_in).delete(sign_out))
}

/// `POST /operator/session`.
#[utoipa::path(post, path = "/operator/session", tag = "operator",
    request_body = texto_core::wire::OperatorSignInRequest,
    responses((status = 200, description = "Signed in: the session's token", body = texto_core::wire::OperatorSessionResponse), (status = "default", description = "Error envelope (401 for a wrong name or password, 429 after too many)", body = texto_core::wire::ErrorResponse)))]
pub(crate) async fn sign_in(
    State(state): State<AppState>,
    accept: Accept,
    parts: Parts,
    body: WireBody,
) -> Result<Response, Error> {
    let asked: OperatorSignInRequest = body.decode()?;
    let name = asked.name.map(|n| n.trim().to_owned()).unwrap_or_default();
    let password = asked.password.unwrap_or_default();
    let address = auth::client(&parts, &state.config.trusted_proxies);
    let key = format!("operator {name}");
    let turn = state.password_checks.turn()?;
    // Counted before it is checked, so that guesses sent at once are all counted.
    let attempt = state.sign_ins.begin(&key, address, Instant::now()).map_err(Error::SignInSlowed)?;
    let (operator, hash) = state.store.operator_sign_in(&name).await?.map_or((None, None), |(o, h)| (Some(o), h));
    let operator = match (operator, turn.verify(hash, password).await?) {
        (Some(operator), true) => operator,
        _ => {
            state.sign_ins.failed(attempt, Instant::now());
            return Err(Error::Unauthorized("the name or the password is wrong"));
        }
    };
    state.sign_ins.succeeded(attempt);
    let token = format!("texto_ops_{}", secret()?);
    state.store.add_operator_session(&token_hash(&token), operator.id, Utc::now() + SESSION_FOR).await?;
    let caller = OperatorCaller { operator: operator.clone(), address };
    caller.record(
        &state,
        None,
        "session.create",
        format!("operator {}", operator.name),
        format!("{} signed in", operator.name),
    );
    Ok(accept.ok(&OperatorSessionResponse { status: 1, message: "OK".into(), token, operator: operator.name }))
}

/// `DELETE /operator/session`: ends the session whose token the request carries.
#[utoipa::path(delete, path = "/operator/session", tag = "operator",
    responses((status = 200, description = "Signed out", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn sign_out(
    State(state): State<AppState>,
    Extension(_caller): Extension<OperatorCaller>,
    accept: Accept,
    parts: Parts,
) -> Result<Response, Error> {
    if let Some(token) = auth::bearer(&parts) {
        state.store.end_operator_session(&token_hash(&token)).await?;
    }
    Ok(accept.ok(&StatusResponse::ok()))
}
