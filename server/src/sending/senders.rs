//! Registered sender IDs (texto's additions): `GET /senders` (the account's, registered by the
//! operator with `texto sender add`) and `PUT /senders/default` (`{"sender": "NAME"}`, or
//! `null`: sends that name no sender go from the short code). Once an account has registered
//! senders, a send may only name one of them.

use axum::{Router, extract::State, response::Response, routing::get};
use texto_core::{
    FieldError,
    wire::{DefaultSenderRequest, SenderDto, SendersResponse},
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody},
    state::AppState,
    store::AccountId,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/senders", get(all)).route("/senders/default", axum::routing::put(set_default))
}

/// The account's senders as the wire shows them.
async fn answer(state: &AppState, account: AccountId, accept: Accept) -> Result<Response, Error> {
    let senders = state
        .store
        .senders(account)
        .await?
        .into_iter()
        .map(|s| SenderDto { name: s.name, default: i64::from(s.default) })
        .collect();
    Ok(accept.ok(&SendersResponse { status: 1, message: "OK".into(), senders }))
}

/// `GET /senders`: the account's registered senders, by name.
#[utoipa::path(get, path = "/senders", tag = "send",
    responses((status = 200, description = "The registered senders", body = texto_core::wire::SendersResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn all(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    answer(&state, caller.account, accept).await
}

/// `PUT /senders/default`: the registered sender that sends naming none go from.
#[utoipa::path(put, path = "/senders/default", tag = "send", request_body = texto_core::wire::DefaultSenderRequest,
    responses((status = 200, description = "The registered senders, the default marked", body = texto_core::wire::SendersResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn set_default(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let DefaultSenderRequest { sender } = body.decode()?;
    let sender = sender.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
    if !state.store.set_default_sender(caller.account, sender.as_deref()).await? {
        let name = sender.unwrap_or_default();
        return Err(Error::Invalid(vec![FieldError::new("sender", format!("\"{name}\" is not a registered sender"))]));
    }
    let summary = match &sender {
        Some(name) => format!("default sender {name}"),
        None => "no default sender".to_owned(),
    };
    Ok(noted(answer(&state, caller.account, accept).await?, "senders", summary))
}
