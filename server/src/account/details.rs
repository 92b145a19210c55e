//! `GET /account`, and the calls of the public API that texto leaves to other systems
//! (docs/interface.md §9).

use axum::{
    Router,
    extract::State,
    response::Response,
    routing::{get, post},
};
use futures_util::future::try_join3;
use texto_core::{
    FieldError,
    wire::{AccountDto, AccountResponse},
};

use crate::{
    Error,
    account::sub_accounts::owner_names,
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
    let (name, balance, family) = try_join3(
        state.store.account_name(caller.account),
        state.store.balance(caller.account),
        state.store.family(caller.account),
    )
    .await?;
    let mut account = AccountDto {
        client_id: caller.account.to_string(),
        company: name,
        credits: balance.to_string(),
        status: 1,
        time_zone: "Europe/Paris".into(),
        ..AccountDto::default()
    };
    // A sub-account answers as its parent's listing shows it: its parent, and the email and
    // names of the owner it was created with.
    if let Some(parent) = family.parent
        && let Some(record) = state.store.sub_account(parent, caller.account).await?
    {
        let (firstname, lastname) = owner_names(&record.owner_name);
        account.parent_client_id = parent.to_string();
        account.firstname = firstname.to_owned();
        account.lastname = lastname.to_owned();
        account.email = record.owner_email;
        account.unlimited = i64::from(record.unlimited);
    }
    Ok(accept.ok(&AccountResponse { status: 1, message: "OK".into(), account }))
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
