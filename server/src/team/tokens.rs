//! `POST /token`, `GET /token`, `GET /token/:id` and `DELETE /token/:id`: an account's API
//! tokens, as the SDKs and the Tokens screen manage them.

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::get,
};
use chrono::Utc;
use texto_core::{
    FieldError, Role, format_paris,
    wire::{
        NewTokenDto, NewTokenRequest, TokenCreatedResponse, TokenDeletedResponse, TokenDto, TokenResponse,
        TokensResponse,
    },
};

use crate::{
    Error,
    http::{Accept, auth::Caller, body::WireBody, inputs::path_id},
    state::AppState,
    store::{AccountId, HttpErrors, NewToken, TokenRecord},
    team::{
        address_range::AddressRange,
        names::{TokenLifetime, TokenName},
        token_mint::mint,
    },
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/token", get(list).post(create)).route("/token/{id}", get(one).delete(revoke))
}

/// The token `NewTokenDto` asks for, or -7 naming every field that is wrong.
fn new_token(dto: NewTokenDto, caller: &Caller) -> Result<NewToken, Error> {
    let mut problems = Vec::new();
    let role = match dto.role.as_deref().map(str::parse::<Role>).transpose() {
        Ok(role) => role.unwrap_or(caller.role),
        Err(why) => {
            problems.push(FieldError::new("token.role", why));
            caller.role
        }
    };
    // Ord puts the most powerful role first: nobody hands out more than they have.
    if role < caller.role {
        return Err(Error::Forbidden { role: caller.role, action: format!("create a token with the role {role}") });
    }
    let name = match TokenName::parse(dto.name.as_deref().unwrap_or_default()) {
        Ok(name) => Some(name),
        Err(why) => {
            problems.push(FieldError::new("token.name", why));
            None
        }
    };
    let lifetime = match dto.ttl.map(TokenLifetime::from_seconds).transpose() {
        Ok(lifetime) => lifetime,
        Err(why) => {
            problems.push(FieldError::new("token.ttl", why));
            None
        }
    };
    let mut allowed = Vec::new();
    for (i, range) in dto.allowed_ips.unwrap_or_default().iter().enumerate() {
        match range.parse::<AddressRange>() {
            Ok(range) => allowed.push(range),
            Err(why) => problems.push(FieldError::new(format!("token.allowed_ips[{i}]"), why)),
        }
    }
    let http_errors = HttpErrors::from_bool(dto.http_errors.unwrap_or(true));
    match (name, problems.is_empty()) {
        (Some(name), true) => Ok(NewToken { name, lifetime, allowed, http_errors, role, made_by: caller.person }),
        _ => Err(Error::Invalid(problems)),
    }
}

fn ranges(record: &TokenRecord) -> Vec<String> {
    record.allowed.iter().map(ToString::to_string).collect()
}

fn dto(record: &TokenRecord) -> TokenDto {
    TokenDto {
        api_token_id: record.id,
        name: record.name.clone(),
        api_token: record.hint.clone(),
        created_at: format_paris(record.created_at),
        expired_at: record.expires_at.map(format_paris),
        ttl: record.ttl(),
        is_active: i64::from(record.is_active(Utc::now())),
        allowed_ips: ranges(record),
        last_used_at: record.last_used_at.map(format_paris),
        http_errors: i64::from(record.http_errors.is_on()),
        role: Some(record.role.as_str().to_owned()),
        made_by: record.made_by.clone(),
    }
}

fn not_found(id: &str) -> Error {
    Error::NotFound(format!("token {id}"))
}

/// `POST /token`: a new token for the caller's account, shown this once.
#[utoipa::path(
    post,
    path = "/token",
    tag = "tokens",
    request_body = texto_core::wire::NewTokenRequest,
    responses((status = 200, description = "The token, shown once, and its id", body = texto_core::wire::TokenCreatedResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    create_in(&state, &caller, caller.account, accept, body).await
}

/// A token of `account` (the caller's, or one of its sub-accounts), as `POST /token` asks.
pub(crate) async fn create_in(
    state: &AppState,
    caller: &Caller,
    account: AccountId,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let NewTokenRequest { token } = body.decode()?;
    let new = new_token(token, caller)?;
    let (token, record) = mint(state.store.as_ref(), account, &new, Utc::now()).await?;
    tracing::info!(token = record.id, account, "token created");
    Ok(accept.ok(&TokenCreatedResponse {
        status: 1,
        message: "OK".into(),
        token,
        token_id: record.id,
        allowed_ips: ranges(&record),
        expired_at: record.expires_at.map(format_paris),
    }))
}

/// `GET /token`: the account's tokens that are not revoked, newest first.
#[utoipa::path(
    get,
    path = "/token",
    tag = "tokens",
    responses((status = 200, description = "The tokens (never the tokens themselves)", body = texto_core::wire::TokensResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn list(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let tokens = state.store.tokens(caller.account).await?;
    Ok(accept.ok(&TokensResponse { status: 1, message: "OK".into(), tokens: tokens.iter().map(dto).collect() }))
}

/// `GET /token/:id`: one token.
#[utoipa::path(
    get,
    path = "/token/{id}",
    tag = "tokens",
    params(("id" = i64, Path, description = "The token's id")),
    responses((status = 200, description = "The token", body = texto_core::wire::TokenResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn one(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let number = path_id(&id).ok_or_else(|| not_found(&id))?;
    let record = state.store.token(caller.account, number).await?.ok_or_else(|| not_found(&id))?;
    Ok(accept.ok(&TokenResponse { status: 1, message: "OK".into(), token: dto(&record) }))
}

/// `DELETE /token/:id`: revokes the token at once (the caller's own included).
#[utoipa::path(
    delete,
    path = "/token/{id}",
    tag = "tokens",
    params(("id" = i64, Path, description = "The token's id")),
    responses((status = 200, description = "Revoked", body = texto_core::wire::TokenDeletedResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn revoke(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let number = path_id(&id).ok_or_else(|| not_found(&id))?;
    if !state.store.revoke_token_id(caller.account, number).await? {
        return Err(not_found(&id));
    }
    tracing::info!(token = number, "token revoked");
    Ok(accept.ok(&TokenDeletedResponse { status: 1, message: "OK".into(), deleted_token: number }))
}
