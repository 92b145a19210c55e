//! Sub-accounts, in SMSFactor's shapes: `POST /account` with `isChild: 1`, `GET /sub-accounts`,
//! `GET /sub-accounts/:id`, `GET /account/:id/unlock`, `POST /token/account/:id`; and texto's
//! `POST /sub-accounts/:id/credits`, which moves credits between the caller and a sub-account.

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::{get, post},
};
use chrono::{DateTime, Utc};
use texto_core::{
    Credits, FieldError, PeriodBound, format_paris, parse_period_bound,
    wire::{
        AccountCreatedResponse, CreditsTransferRequest, CreditsTransferResponse, NewAccountRequest, SubAccountDto,
        SubAccountResponse, SubAccountsResponse, UnlockResponse,
    },
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody, inputs::path_id},
    operator::moderation,
    state::AppState,
    store::{AccountId, NewSubAccount, SubAccountRecord},
    team::{
        names::{Email, PersonName},
        passwords::{self, Password},
        tokens,
    },
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/sub-accounts", get(list))
        .route("/sub-accounts/{id}", get(one))
        .route("/sub-accounts/{id}/credits", post(transfer))
        .route("/account/{id}/unlock", get(unlock))
        .route("/token/account/{id}", post(token))
}

/// The caller's sub-account `id`, or -5.
async fn own_sub_account(state: &AppState, caller: &Caller, id: &str) -> Result<SubAccountRecord, Error> {
    let not_found = || Error::NotFound(format!("sub-account {id}"));
    let id = path_id(id).ok_or_else(not_found)?;
    state.store.sub_account(caller.account, id).await?.ok_or_else(not_found)
}

/// The periods of the consumption columns: this month so far and last month (Paris).
struct Months {
    /// The end of this month so far.
    now: DateTime<Utc>,
    /// The start of last month.
    last: DateTime<Utc>,
    /// The start of this month.
    this: DateTime<Utc>,
}

impl Months {
    /// The months around `now`.
    fn at(now: DateTime<Utc>) -> Result<Months, Error> {
        let today = format_paris(now);
        let (year, month) = (today[..4].parse::<i32>().unwrap_or(1970), today[5..7].parse::<u32>().unwrap_or(1));
        let (last_year, last_month) = if month == 1 { (year - 1, 12) } else { (year, month - 1) };
        let start = |y: i32, m: u32| {
            parse_period_bound(&format!("{y:04}-{m:02}-01"), PeriodBound::Start)
                .map_err(|_| Error::Unavailable("the calendar could not place this month"))
        };
        Ok(Months { now, last: start(last_year, last_month)?, this: start(year, month)? })
    }
}

/// Messages `account` handed to the carrier between the two times.
async fn messages_between(
    state: &AppState,
    account: AccountId,
    from: DateTime<Utc>,
    until: DateTime<Utc>,
) -> Result<i64, Error> {
    Ok(state.store.consumption(account, from, until, &[]).await?.iter().map(|row| row.messages).sum())
}

/// The first and last names of a sub-account's owner, from the one name texto keeps: what
/// `firstname` and `lastname` were joined into at its creation, split at the first space.
pub(crate) fn owner_names(name: &str) -> (&str, &str) {
    name.split_once(' ').unwrap_or((name, ""))
}

/// The wire form of a sub-account, with this month's and last month's consumption.
async fn dto(
    state: &AppState,
    parent: AccountId,
    months: &Months,
    record: SubAccountRecord,
) -> Result<SubAccountDto, Error> {
    let just_before = months.this - chrono::Duration::seconds(1);
    let (current, previous) = futures_util::future::try_join(
        messages_between(state, record.id, months.this, months.now),
        messages_between(state, record.id, months.last, just_before),
    )
    .await?;
    let (first, last) = owner_names(&record.owner_name);
    Ok(SubAccountDto {
        client_id: record.id.to_string(),
        parent_client_id: parent.to_string(),
        email: record.owner_email.clone(),
        firstname: first.to_owned(),
        lastname: last.to_owned(),
        company: record.name.clone(),
        credits: record.balance.to_string(),
        unlimited: i64::from(record.unlimited),
        status: 1,
        created_at: format_paris(record.created_at),
        current_month_consumption: current,
        previous_month_consumption: previous,
    })
}

/// `POST /account` with `isChild: 1`: a sub-account of the caller, its first owner signing in
/// with the email and password given.
#[utoipa::path(post, path = "/account", tag = "account", request_body = texto_core::wire::NewAccountRequest,
    responses((status = 200, description = "The sub-account's id", body = texto_core::wire::AccountCreatedResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let NewAccountRequest { account } = body.decode()?;
    if account.is_child != Some(1) {
        return Err(Error::Invalid(vec![FieldError::new(
            "account.isChild",
            "texto creates sub-accounts only (isChild 1): other accounts are the operator's (texto account create)",
        )]));
    }
    if state.store.family(caller.account).await?.parent.is_some() {
        return Err(Error::Invalid(vec![FieldError::new(
            "account.isChild",
            "a sub-account has no sub-accounts of its own: create it from the parent account",
        )]));
    }
    let email = Email::parse(account.email.as_deref().unwrap_or_default());
    let password = Password::parse(account.password.as_deref().unwrap_or_default());
    let full_name = [account.firstname.as_deref(), account.lastname.as_deref()]
        .into_iter()
        .flatten()
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let fallback = email.as_ref().map(|e| e.as_str().split('@').next().unwrap_or_default().to_owned());
    let name = PersonName::parse(if full_name.is_empty() { fallback.as_deref().unwrap_or("") } else { &full_name });
    let company = account.company.as_deref().map(str::trim).filter(|c| !c.is_empty()).map(str::to_owned);
    let problems: Vec<FieldError> = [
        email.as_ref().err().map(|why| FieldError::new("account.email", why.clone())),
        password.as_ref().err().map(|why| FieldError::new("account.password", why.clone())),
        name.as_ref().err().map(|why| FieldError::new("account.firstname", why.clone())),
        company
            .as_ref()
            .filter(|c| c.chars().count() > 100)
            .map(|_| FieldError::new("account.company", "at most 100 characters")),
    ]
    .into_iter()
    .flatten()
    .collect();
    let (Ok(email), Ok(password), Ok(name), true) = (email, password, name, problems.is_empty()) else {
        return Err(Error::Invalid(problems));
    };
    let new = NewSubAccount {
        parent: caller.account,
        name: company.unwrap_or_else(|| email.as_str().to_owned()),
        unlimited: account.unlimited == Some(1),
        moderated: moderation::sub_account_moderated(
            state.moderation.is_moderated(caller.account),
            state.store.new_accounts_moderated().await?,
        ),
        owner_email: email,
        owner_name: name,
        password_hash: passwords::hash(password).await?,
        now: Utc::now(),
    };
    let id = state.store.create_sub_account(&new).await?;
    tracing::info!(account = id, parent = caller.account, "sub-account created");
    let summary = format!("sub-account {id} ({}) created, owned by {}", new.name, new.owner_email.as_str());
    let answer = AccountCreatedResponse { status: 1, message: "OK".into(), id, active: 1 };
    Ok(noted(accept.ok(&answer), format!("account {id}"), summary))
}

/// `GET /sub-accounts`: the caller's sub-accounts with this month's and last month's consumption.
#[utoipa::path(get, path = "/sub-accounts", tag = "account",
    responses((status = 200, description = "The caller's sub-accounts", body = texto_core::wire::SubAccountsResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn list(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let months = Months::at(Utc::now())?;
    let mut sub_accounts = Vec::new();
    for record in state.store.sub_accounts(caller.account).await? {
        sub_accounts.push(dto(&state, caller.account, &months, record).await?);
    }
    Ok(accept.ok(&SubAccountsResponse { status: 1, message: "OK".into(), sub_accounts }))
}

/// `GET /sub-accounts/:id`: one of the caller's sub-accounts.
#[utoipa::path(get, path = "/sub-accounts/{id}", tag = "account",
    params(("id" = i64, Path, description = "The sub-account's id")),
    responses((status = 200, description = "The sub-account", body = texto_core::wire::SubAccountResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn one(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let record = own_sub_account(&state, &caller, &id).await?;
    let sub_account = dto(&state, caller.account, &Months::at(Utc::now())?, record).await?;
    Ok(accept.ok(&SubAccountResponse { status: 1, message: "OK".into(), sub_account }))
}

/// `GET /account/:id/unlock`: lifts the sign-in slow-down of the sub-account's people (on this
/// node), as after their failed attempts.
#[utoipa::path(get, path = "/account/{id}/unlock", tag = "account",
    params(("id" = i64, Path, description = "The sub-account's id")),
    responses((status = 200, description = "Unlocked", body = texto_core::wire::UnlockResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn unlock(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let record = own_sub_account(&state, &caller, &id).await?;
    for user in state.store.users(record.id).await? {
        state.sign_ins.unlock(&user.email);
    }
    let answer = UnlockResponse { status: 1, message: "OK".into(), state: "unlocked".into() };
    Ok(noted(accept.ok(&answer), format!("account {}", record.id), format!("sub-account {} unlocked", record.id)))
}

/// `POST /token/account/:id`: a token of one of the caller's sub-accounts, as `POST /token`.
#[utoipa::path(post, path = "/token/account/{id}", tag = "tokens", request_body = texto_core::wire::NewTokenRequest,
    params(("id" = i64, Path, description = "The sub-account's id")),
    responses((status = 200, description = "The token, shown once, and its id", body = texto_core::wire::TokenCreatedResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn token(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let record = own_sub_account(&state, &caller, &id).await?;
    tokens::create_in(&state, &caller, record.id, accept, body).await
}

/// `POST /sub-accounts/:id/credits` (texto's): moves `credits` from the caller to the
/// sub-account, or back when negative; a `transfer` row in both ledgers.
#[utoipa::path(post, path = "/sub-accounts/{id}/credits", tag = "account", request_body = texto_core::wire::CreditsTransferRequest,
    params(("id" = i64, Path, description = "The sub-account's id")),
    responses((status = 200, description = "Both balances after", body = texto_core::wire::CreditsTransferResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn transfer(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let record = own_sub_account(&state, &caller, &id).await?;
    let CreditsTransferRequest { credits } = body.decode()?;
    let amount = credits.and_then(Credits::from_f64).filter(|c| *c != Credits::ZERO).ok_or_else(|| {
        Error::Invalid(vec![FieldError::new("credits", "a number of credits other than 0 (negative takes them back)")])
    })?;
    let (parent, child) = if amount > Credits::ZERO {
        state.store.transfer(caller.account, record.id, amount).await?
    } else {
        let back = Credits::from_hundredths(-amount.hundredths());
        let (child, parent) = state.store.transfer(record.id, caller.account, back).await?;
        (parent, child)
    };
    let summary = format!("{amount} credits moved to sub-account {}", record.id);
    let answer = CreditsTransferResponse {
        status: 1,
        message: "OK".into(),
        credits: child.to_string(),
        parent_credits: parent.to_string(),
    };
    Ok(noted(accept.ok(&answer), format!("account {}", record.id), summary))
}
