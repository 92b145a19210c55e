//! The operator's registered sender IDs of an account, from the console: `GET` and `POST
//! /operator/account/:id/senders`, `DELETE /operator/account/:id/sender/:name`, as `texto
//! sender list|add|remove` do. Once an account has one, its sends may only name those; each
//! change is written in the operators' log and the account's own.

use axum::{
    Extension, Router,
    extract::{Path, State},
    response::Response,
    routing::{delete, get},
};
use texto_core::{
    FieldError, Sender,
    wire::{RegisterSenderRequest, SenderDto, SendersResponse},
};

use crate::{
    Error,
    http::{Accept, body::WireBody},
    operator::{accounts, caller::OperatorCaller},
    state::AppState,
    store::AccountId,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/operator/account/{id}/senders", get(list).post(register))
        .route("/operator/account/{id}/sender/{name}", delete(unregister))
}

/// The account `id` and its name, or -5.
async fn account(state: &AppState, id: &str) -> Result<(AccountId, String), Error> {
    accounts::account(state, id).await.map(|account| (account.id, account.name))
}

/// The answer: the account's registered senders, by name.
async fn senders(state: &AppState, accept: Accept, account: AccountId) -> Result<Response, Error> {
    let senders = state.store.senders(account).await?;
    let senders = senders.into_iter().map(|s| SenderDto { name: s.name, default: i64::from(s.default) }).collect();
    Ok(accept.ok(&SendersResponse { status: 1, message: "OK".into(), senders }))
}

/// `GET /operator/account/:id/senders`.
#[utoipa::path(get, path = "/operator/account/{id}/senders", tag = "operator",
    params(("id" = i64, Path, description = "The account's id")),
    responses((status = 200, description = "Its registered senders", body = texto_core::wire::SendersResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn list(
    State(state): State<AppState>,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let (account, _) = account(&state, &id).await?;
    senders(&state, accept, account).await
}

/// `POST /operator/account/:id/senders` (`{"sender": "Boutique"}`): registers it (a sender the
/// account has in any case is kept as it is).
#[utoipa::path(post, path = "/operator/account/{id}/senders", tag = "operator", request_body = texto_core::wire::RegisterSenderRequest,
    params(("id" = i64, Path, description = "The account's id")),
    responses((status = 200, description = "Its registered senders", body = texto_core::wire::SendersResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn register(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let (account, name) = account(&state, &id).await?;
    let RegisterSenderRequest { sender } = body.decode()?;
    let sender = Sender::parse(sender.trim()).map_err(|why| Error::Invalid(vec![FieldError::new("sender", why)]))?;
    if state.store.add_sender(account, sender.as_str()).await? {
        let summary = format!("sender {} registered for {name}", sender.as_str());
        caller.record(&state, Some(account), "sender.add", format!("account {account}"), summary);
    }
    senders(&state, accept, account).await
}

/// `DELETE /operator/account/:id/sender/:name`: unregisters it (in any case); -5 when the
/// account has no such sender.
#[utoipa::path(delete, path = "/operator/account/{id}/sender/{name}", tag = "operator",
    params(("id" = i64, Path, description = "The account's id"), ("name" = String, Path, description = "The sender ID")),
    responses((status = 200, description = "Its registered senders", body = texto_core::wire::SendersResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn unregister(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path((id, sender)): Path<(String, String)>,
) -> Result<Response, Error> {
    let (account, name) = account(&state, &id).await?;
    if !state.store.remove_sender(account, &sender).await? {
        return Err(Error::NotFound(format!("registered sender {sender}")));
    }
    let summary = format!("sender {sender} no longer registered for {name}");
    caller.record(&state, Some(account), "sender.remove", format!("account {account}"), summary);
    senders(&state, accept, account).await
}
