//! The NPAI list and the blacklist: `GET`, `POST` and `DELETE /{number}` on `/npai` and
//! `/blacklist` (docs/interface.md §2). Both have the same entries; sends leave their numbers out.

use axum::{
    Router,
    extract::{Path, Query, State, rejection::QueryRejection},
    response::Response,
    routing::{delete, get},
};
use chrono::Utc;
use serde::Deserialize;
use texto_core::{
    FieldError, format_paris, parse_international,
    wire::{
        AddedContactsResponse, BlacklistAddRequest, ContactDto, NpaiAddRequest, NumberEntryDto, NumberListResponse,
        StatusResponse, UserInformation,
    },
};

use crate::{
    Error,
    audience::request_contacts::contacts,
    http::{
        Accept,
        auth::Caller,
        body::WireBody,
        inputs::{digits_of, path_id, query},
    },
    state::AppState,
    store::{EntryRef, NumberEntry, NumberFilter, NumberList, Page},
};

/// The routes of both number lists.
pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/npai", get(list_npai).post(add_npai))
        .route("/npai/{number}", delete(remove_npai))
        .route("/blacklist", get(list_blacklist).post(add_blacklist))
        .route("/blacklist/{number}", delete(remove_blacklist))
        .route("/blacklist/contact/{id}", delete(remove_blacklist_entry))
}

/// The optional filters of `GET /npai` and `GET /blacklist`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Filter {
    /// Only this number (international digits).
    destination: Option<String>,
    /// Only numbers containing these digits.
    search: Option<String>,
}

/// An entry as the interface shows it (docs/interface.md §2, the NPAI sample).
fn entry(entry: NumberEntry) -> NumberEntryDto {
    let [info1, info2, info3, info4] = entry.info;
    NumberEntryDto {
        id: entry.id.to_string(),
        destination: entry.number.to_string(),
        date: format_paris(entry.created_at),
        info1,
        info2,
        info3,
        info4,
        user_information: UserInformation,
        campaign_id: entry.campaign_id,
        batch_id: None,
        source: Some(entry.source),
    }
}

/// `GET /npai`.
#[utoipa::path(
    get,
    path = "/npai",
    tag = "npai",
    params(("start" = Option<i64>, Query, description = "First record (default 0)"), ("length" = Option<i64>, Query, description = "Records per page (default 100, at most 1000)"), ("destination" = Option<String>, Query, description = "Only this number"), ("search" = Option<String>, Query, description = "Only numbers containing these digits (e.g. 612); totalDisplayRecords counts them")),
    responses((status = 200, description = "NPAI numbers", body = texto_core::wire::NumberListResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn list_npai(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    page: Result<Query<Page>, QueryRejection>,
    filter: Result<Query<Filter>, QueryRejection>,
) -> Result<Response, Error> {
    entries(&state, caller, accept, NumberList::Npai, query(page)?, query(filter)?).await
}

/// `GET /blacklist`.
#[utoipa::path(
    get,
    path = "/blacklist",
    tag = "blacklist",
    params(("start" = Option<i64>, Query, description = "First record (default 0)"), ("length" = Option<i64>, Query, description = "Records per page (default 100, at most 1000)"), ("destination" = Option<String>, Query, description = "Only this number"), ("search" = Option<String>, Query, description = "Only numbers containing these digits (e.g. 612); totalDisplayRecords counts them")),
    responses((status = 200, description = "Blacklisted numbers", body = texto_core::wire::NumberListResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn list_blacklist(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    page: Result<Query<Page>, QueryRejection>,
    filter: Result<Query<Filter>, QueryRejection>,
) -> Result<Response, Error> {
    entries(&state, caller, accept, NumberList::Blacklist, query(page)?, query(filter)?).await
}

/// `GET /npai`, `GET /blacklist`: a page of entries, oldest first.
async fn entries(
    state: &AppState,
    caller: Caller,
    accept: Accept,
    list: NumberList,
    page: Page,
    filter: Filter,
) -> Result<Response, Error> {
    let present =
        |text: &Option<String>| text.as_deref().map(str::trim).filter(|text| !text.is_empty()).map(str::to_owned);
    let destination = match present(&filter.destination) {
        Some(destination) => Some(
            parse_international(&destination)
                .map_err(|why| {
                    Error::Invalid(vec![FieldError::new(
                        "destination",
                        format!("{}: {why}", texto_core::excerpt(&destination)),
                    )])
                })?
                .as_u64(),
        ),
        None => None,
    };
    let digits = match present(&filter.search) {
        Some(search) => Some(digits_of(&search).ok_or_else(|| {
            Error::Invalid(vec![FieldError::new(
                "search",
                format!("{}: give digits of a number", texto_core::excerpt(&search)),
            )])
        })?),
        None => None,
    };
    let found = state.store.number_entries(caller.account, list, &NumberFilter { destination, digits }, page).await?;
    Ok(accept.ok(&NumberListResponse {
        status: 1,
        message: "OK".into(),
        list: found.entries.into_iter().map(entry).collect(),
        total_records: found.total,
        total_display_records: found.matching,
    }))
}

/// `POST /npai`.
#[utoipa::path(
    post,
    path = "/npai",
    tag = "npai",
    request_body = texto_core::wire::NpaiAddRequest,
    responses((status = 200, description = "Numbers added", body = texto_core::wire::AddedContactsResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn add_npai(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let request: NpaiAddRequest = body.decode()?;
    add(&state, caller, accept, NumberList::Npai, &request.contacts.gsm).await
}

/// `POST /blacklist`.
#[utoipa::path(
    post,
    path = "/blacklist",
    tag = "blacklist",
    request_body = texto_core::wire::BlacklistAddRequest,
    responses((status = 200, description = "Numbers added", body = texto_core::wire::AddedContactsResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn add_blacklist(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let request: BlacklistAddRequest = body.decode()?;
    add(&state, caller, accept, NumberList::Blacklist, &request.contacts.gsm).await
}

/// `POST /npai`, `POST /blacklist`: adds the numbers; any invalid one refuses the whole
/// request (-7, every bad index named), so nothing is half-imported.
async fn add(
    state: &AppState,
    caller: Caller,
    accept: Accept,
    list: NumberList,
    gsm: &[ContactDto],
) -> Result<Response, Error> {
    let prefix = list.name();
    if gsm.is_empty() {
        return Err(Error::Invalid(vec![FieldError::new(
            format!("{prefix}.contacts.gsm"),
            "give at least one number",
        )]));
    }
    if gsm.len() > state.config.max_recipients {
        return Err(Error::Invalid(vec![FieldError::new(
            format!("{prefix}.contacts.gsm"),
            format!("{} numbers: at most {} per request", gsm.len(), state.config.max_recipients),
        )]));
    }
    let (valid, problems) = contacts(prefix, gsm)?;
    if !problems.is_empty() {
        // The answer lists the first problems and counts the others (`ErrorResponse::new`).
        return Err(Error::Invalid(problems));
    }
    let added = state.store.add_numbers(caller.account, list, &valid, None, Utc::now()).await?;
    Ok(accept.ok(&AddedContactsResponse {
        status: 1,
        message: "OK".into(),
        added_contacts: i64::try_from(added).unwrap_or(i64::MAX),
    }))
}

/// `DELETE /npai/{number}`.
#[utoipa::path(
    delete,
    path = "/npai/{number}",
    tag = "npai",
    params(("number" = String, Path, description = "The number, international digits")),
    responses((status = 200, description = "Removed", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn remove_npai(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(number): Path<String>,
) -> Result<Response, Error> {
    remove(&state, caller, accept, NumberList::Npai, &number).await
}

/// `DELETE /blacklist/{number}`.
#[utoipa::path(
    delete,
    path = "/blacklist/{number}",
    tag = "blacklist",
    params(("number" = String, Path, description = "The number, international digits")),
    responses((status = 200, description = "Removed", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn remove_blacklist(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(number): Path<String>,
) -> Result<Response, Error> {
    remove(&state, caller, accept, NumberList::Blacklist, &number).await
}

#[utoipa::path(
    delete,
    path = "/blacklist/contact/{id}",
    tag = "blacklist",
    params(("id" = String, Path, description = "The entry's id, as GET /blacklist shows it")),
    responses((status = 200, description = "Removed", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
/// `DELETE /blacklist/contact/{id}`: the entry by the id `GET /blacklist` gives it, as the
/// SMSFactor SDKs remove one; -5 when the account has no such entry.
pub(crate) async fn remove_blacklist_entry(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("blacklist entry {id}"));
    let entry = path_id(&id).ok_or_else(not_found)?;
    if !state.store.remove_number(caller.account, NumberList::Blacklist, EntryRef::Id(entry)).await? {
        return Err(not_found());
    }
    Ok(accept.ok(&StatusResponse::ok()))
}

/// `DELETE /npai/{number}`, `DELETE /blacklist/{number}`: -5 when the number is not in the
/// account's list (an invalid number never is).
async fn remove(
    state: &AppState,
    caller: Caller,
    accept: Accept,
    list: NumberList,
    number: &str,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("{number} in the {}", list.name()));
    let parsed = parse_international(number).map_err(|_| not_found())?;
    if !state.store.remove_number(caller.account, list, EntryRef::Number(parsed.as_u64())).await? {
        return Err(not_found());
    }
    Ok(accept.ok(&StatusResponse::ok()))
}
