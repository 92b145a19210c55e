//! The operator's changes to accounts: create one, choose its plan, mark it
//! moderated, limit its throughput, add credits, read its ledger, suspend and restore it. Each
//! change is written in the operators' log and the account's own.

use axum::{
    Extension, Router,
    extract::{Path, Query, State, rejection::QueryRejection},
    response::Response,
    routing::{get, post},
};
use chrono::Utc;
use texto_core::{
    Credits, format_paris,
    wire::{
        CreatedResponse, LedgerLineDto, LedgerResponse, NewOperatorAccountRequest, OperatorAccountChange,
        StatusResponse, TopUpRequest,
    },
};

use crate::{
    Error,
    http::{
        Accept,
        body::WireBody,
        inputs::{flag, path_id, query},
    },
    operator::{caller::OperatorCaller, moderation},
    state::AppState,
    store::{AccountId, operators::AccountOverview, plans::SHIPPED},
};

/// Ledger lines a page of `GET /operator/account/:id/ledger` holds.
const LEDGER_LINES: i64 = 100;

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/operator/accounts", post(create))
        .route("/operator/account/{id}", axum::routing::put(change))
        .route("/operator/account/{id}/credits", post(top_up))
        .route("/operator/account/{id}/ledger", get(ledger))
        .route("/operator/account/{id}/suspend", post(suspend))
        .route("/operator/account/{id}/restore", post(restore))
}

/// The account `id` names: -5 when there is none.
pub(crate) async fn account(state: &AppState, id: &str) -> Result<AccountOverview, Error> {
    let not_found = || Error::NotFound(format!("account {id}"));
    let id = path_id(id).ok_or_else(not_found)?;
    state.store.account_overviews().await?.into_iter().find(|a| a.id == id).ok_or_else(not_found)
}

/// Puts `account` on `plan` (`shipped`: the shipped prices); -7 for a plan that does not exist.
async fn set_plan(state: &AppState, account: AccountId, plan: &str) -> Result<(), Error> {
    let chosen = (plan != SHIPPED).then_some(plan);
    match state.store.set_account_plan(account, chosen).await? {
        true => Ok(()),
        false => Err(Error::invalid("plan", format!("no plan called {plan:?}"))),
    }
}

/// A count of credits greater than 0.
fn positive_credits(field: &str, amount: f64) -> Result<Credits, Error> {
    Credits::from_f64(amount)
        .filter(|c| *c > Credits::ZERO)
        .ok_or_else(|| Error::invalid(field, "more than 0, at most two decimals"))
}

/// `POST /operator/accounts`: a new customer account.
#[utoipa::path(post, path = "/operator/accounts", tag = "operator",
    request_body = texto_core::wire::NewOperatorAccountRequest,
    responses((status = 200, description = "Created", body = texto_core::wire::CreatedResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn create(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let request: NewOperatorAccountRequest = body.decode()?;
    let name = request.name.map(|n| n.trim().to_owned()).unwrap_or_default();
    if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(Error::invalid("name", "1 to 100 characters"));
    }
    if state.store.account_by_name(&name).await?.is_some() {
        return Err(Error::invalid("name", format!("an account called {name:?} already exists")));
    }
    let credits = match request.credits.filter(|amount| *amount != 0.0) {
        None => Credits::ZERO,
        Some(amount) => positive_credits("credits", amount)?,
    };
    let plan = request.plan.map(|p| p.trim().to_owned()).filter(|p| !p.is_empty() && p != SHIPPED);
    if let Some(plan) = &plan
        && !state.store.plans().await?.iter().any(|(name, _)| name == plan)
    {
        return Err(Error::invalid("plan", format!("no plan called {plan:?}")));
    }
    let asked = flag("moderated", request.moderated)?;
    let moderated = moderation::new_account_moderated(asked, state.store.new_accounts_moderated().await?);
    let id = state.store.create_account(&name, credits).await?;
    if moderated {
        state.store.set_moderated(id, true).await?;
    }
    if let Some(plan) = &plan {
        set_plan(&state, id, plan).await?;
    }
    let summary = format!(
        "account {name} created with {credits} credits{}{}",
        plan.map(|p| format!(", plan {p}")).unwrap_or_default(),
        if moderated { ", moderated" } else { "" }
    );
    caller.record(&state, Some(id), "account.create", format!("account {id}"), summary);
    Ok(accept.ok(&CreatedResponse { status: 1, message: "OK".into(), id }))
}

/// `PUT /operator/account/:id`: its plan, moderation and throughput limit.
#[utoipa::path(put, path = "/operator/account/{id}", tag = "operator",
    request_body = texto_core::wire::OperatorAccountChange,
    params(("id" = i64, Path, description = "The account's id")),
    responses((status = 200, description = "Changed (every node within a second)", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn change(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let asked: OperatorAccountChange = body.decode()?;
    let account = account(&state, &id).await?;
    let moderated = flag("moderated", asked.moderated)?;
    let per_second = match asked.per_second {
        None => None,
        Some(0) => Some(None),
        Some(n) if (1..=1_000_000).contains(&n) => Some(Some(n)),
        Some(_) => return Err(Error::invalid("per_second", "0 (no limit) to 1000000")),
    };
    let mut changes = Vec::new();
    if let Some(plan) = asked.plan.map(|p| p.trim().to_owned()) {
        set_plan(&state, account.id, &plan).await?;
        changes.push(format!("plan {plan}"));
    }
    if let Some(on) = moderated {
        state.store.set_moderated(account.id, on).await?;
        changes.push(if on { "moderated".into() } else { "not moderated".into() });
    }
    if let Some(limit) = per_second {
        state.store.set_account_limit(account.id, limit).await?;
        changes.push(limit.map_or("no throughput limit".into(), |n| format!("at most {n} msg/s")));
    }
    if !changes.is_empty() {
        let summary = format!("account {}: {}", account.name, changes.join(", "));
        caller.record(&state, Some(account.id), "account.update", format!("account {}", account.id), summary);
    }
    Ok(accept.ok(&StatusResponse::ok()))
}

/// `POST /operator/account/:id/credits`: a top-up.
#[utoipa::path(post, path = "/operator/account/{id}/credits", tag = "operator",
    request_body = texto_core::wire::TopUpRequest,
    params(("id" = i64, Path, description = "The account's id")),
    responses((status = 200, description = "The new balance", body = texto_core::wire::LedgerResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn top_up(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let asked: TopUpRequest = body.decode()?;
    let account = account(&state, &id).await?;
    let credits = positive_credits("credits", asked.credits.ok_or_else(|| Error::invalid("credits", "required"))?)?;
    let balance = state.store.top_up(account.id, credits).await?;
    let summary = format!("account {}: {credits} credits added, {balance} now", account.name);
    caller.record(&state, Some(account.id), "account.credit", format!("account {}", account.id), summary);
    answer_ledger(&state, account.id, balance, 1, accept).await
}

/// The query of `GET /operator/account/:id/ledger`.
#[derive(Debug, serde::Deserialize)]
pub(crate) struct LedgerQuery {
    page: Option<String>,
}

/// `GET /operator/account/:id/ledger`: the balance and its movements, 100 a page, newest first.
#[utoipa::path(get, path = "/operator/account/{id}/ledger", tag = "operator",
    params(("id" = i64, Path, description = "The account's id"), ("page" = Option<i64>, Query, description = "From 1 (the newest 100 movements)")),
    responses((status = 200, description = "The ledger, newest first", body = texto_core::wire::LedgerResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn ledger(
    State(state): State<AppState>,
    accept: Accept,
    Path(id): Path<String>,
    asked: Result<Query<LedgerQuery>, QueryRejection>,
) -> Result<Response, Error> {
    let page = match query(asked)?.page.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
        None => 1,
        Some(text) => text
            .parse::<i64>()
            .ok()
            .filter(|p| (1..=1_000_000).contains(p))
            .ok_or_else(|| Error::invalid("page", "a whole number from 1"))?,
    };
    let account = account(&state, &id).await?;
    answer_ledger(&state, account.id, account.balance, page, accept).await
}

/// The balance and the `page`-th 100 movements.
async fn answer_ledger(
    state: &AppState,
    account: AccountId,
    balance: Credits,
    page: i64,
    accept: Accept,
) -> Result<Response, Error> {
    // One line more than a page says whether there is another.
    let mut lines = state.store.ledger(account, LEDGER_LINES + 1, (page - 1) * LEDGER_LINES).await?;
    let more = lines.len() as i64 > LEDGER_LINES;
    lines.truncate(LEDGER_LINES as usize);
    let ledger = lines
        .into_iter()
        .map(|line| LedgerLineDto {
            date: format_paris(line.at),
            kind: line.kind,
            amount: line.amount.as_f64(),
            campaign: line.campaign,
        })
        .collect();
    Ok(accept.ok(&LedgerResponse {
        status: 1,
        message: "OK".into(),
        credits: balance.as_f64(),
        ledger,
        page,
        more: i64::from(more),
    }))
}

/// `POST /operator/account/:id/suspend`: its calls refused, its messages held, its
/// sub-accounts' too, on every node within a second.
#[utoipa::path(post, path = "/operator/account/{id}/suspend", tag = "operator",
    params(("id" = i64, Path, description = "The account's id")),
    responses((status = 200, description = "Suspended", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn suspend(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    set_standing(&state, &caller, &id, true).await?;
    Ok(accept.ok(&StatusResponse::ok()))
}

/// `POST /operator/account/:id/restore`: a suspended account works again.
#[utoipa::path(post, path = "/operator/account/{id}/restore", tag = "operator",
    params(("id" = i64, Path, description = "The account's id")),
    responses((status = 200, description = "Restored", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn restore(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    set_standing(&state, &caller, &id, false).await?;
    Ok(accept.ok(&StatusResponse::ok()))
}

/// Suspends or restores the account `id`, and logs it.
async fn set_standing(state: &AppState, caller: &OperatorCaller, id: &str, suspended: bool) -> Result<(), Error> {
    let account = account(state, id).await?;
    state.store.set_suspended(account.id, suspended.then(Utc::now)).await?;
    let (action, done) = if suspended { ("account.suspend", "suspended") } else { ("account.restore", "restored") };
    if !suspended {
        state.dispatch.notify_one();
    }
    let summary = format!("account {} {done}", account.name);
    caller.record(state, Some(account.id), action, format!("account {}", account.id), summary);
    Ok(())
}
