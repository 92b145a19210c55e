//! `GET /account`, and the calls of the public API that texto leaves to other systems
//! (docs/interface.md §9).

use axum::{
    Router,
    extract::State,
    response::Response,
    routing::{get, post},
};
use texto_core::{
    FieldError,
    wire::{AccountDto, AccountResponse},
};

use crate::{
    Error,
    http::{Accept, auth::Caller},
    state::AppState,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/account", get(account).post(crate::account::sub_accounts::create))
        .route("/lookup", post(lookup))
        .route("/account/invoice", get(invoices))
        .route("/account/invoice/{id}", get(invoices))
        .route("/account/invoice/{id}/download", get(invoices))
}

/// `GET /account`: the caller's account.
#[utoipa::path(
    get,
    path = "/account",
    tag = "account",
    responses((status = 200, description = "The caller's account", body = texto_core::wire::AccountResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn account(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let name = state.store.account_name(caller.account).await?;
    let balance = state.store.balance(caller.account).await?;
    Ok(accept.ok(&AccountResponse {
        status: 1,
        message: "OK".into(),
        account: AccountDto {
            client_id: caller.account.to_string(),
            company: name,
            credits: balance.to_string(),
            status: 1,
            time_zone: "Europe/Paris".into(),
            ..AccountDto::default()
        },
    }))
}

/// `POST /lookup`: HLR lookups need a provider of operator data, which texto does not have.
/// Answered -7 with that reason, not 404, so that an SDK user knows why.
#[utoipa::path(
    post,
    path = "/lookup",
    tag = "account",
    responses((status = "default", description = "-7: texto does no HLR lookup", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn lookup(_caller: Caller) -> Result<Response, Error> {
    Err(Error::Invalid(vec![FieldError::new(
        "lookup",
        "HLR lookup is not available: texto has no HLR provider to ask",
    )]))
}

/// `GET /account/invoice`, `/account/invoice/:id` and its `/download`: invoices come from the
/// operator's billing system, not texto. Answered -7 with that reason, not 404.
#[utoipa::path(
    get,
    path = "/account/invoice",
    tag = "account",
    responses((status = "default", description = "-7: invoices are the operator's billing system's", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn invoices(_caller: Caller) -> Result<Response, Error> {
    Err(Error::Invalid(vec![FieldError::new(
        "invoice",
        "invoices are not available here: billing is the operator's own system; ask your operator",
    )]))
}
