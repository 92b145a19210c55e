//! Stored recipient lists: `POST /list` (create, or add to one with `listId`), `GET /lists`,
//! `GET /list/{id}` (with `search`), `PUT /list/{id}` (rename, add contacts), `DELETE /list/{id}`
//! (docs/interface.md §2) and `DELETE /list/{id}/contact/{contact_id}`. Campaigns go to them with
//! `POST /send/lists`.

use axum::{
    Router,
    extract::{Path, Query, State, rejection::QueryRejection},
    response::Response,
    routing::{delete, get, post},
};
use serde::Deserialize;
use texto_core::{
    FieldError, PlainText, format_paris,
    wire::{
        ListContactDto, ListRequest, ListResponse, ListSavedResponse, ListSummaryDto, ListsResponse, StatusResponse,
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
    store::{Added, ContactSearch, ListContact, Page},
};

/// Longest list name, in characters.
const MAX_NAME_CHARS: usize = 255;

/// The routes of stored lists.
pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/list", post(save))
        .route("/lists", get(lists))
        .route("/list/{id}", get(list).put(update).delete(remove))
        .route("/list/{id}/contact/{contact_id}", delete(remove_contact))
        .route("/list/contact/{contact_id}", delete(remove_contact_by_id))
}

/// The optional search of `GET /list/{id}`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Search {
    /// Text found in the number's digits or in a field.
    search: Option<String>,
}

impl Search {
    /// What to look for; `None` for a missing or blank search.
    fn contacts(&self) -> Option<ContactSearch> {
        let text = self.search.as_deref().map(str::trim).filter(|text| !text.is_empty())?;
        Some(ContactSearch { text: text.to_lowercase(), digits: digits_of(text) })
    }
}

/// -5 for the list `id`.
pub(crate) fn not_found(id: &str) -> Error {
    Error::NotFound(format!("list {id}"))
}

/// The list id of a `listId` in a body; ids are integers, so anything else is an unknown list.
fn list_id(id: &str) -> Result<i64, Error> {
    id.trim().parse::<i64>().map_err(|_| not_found(id))
}

/// The list id of a path: canonical decimal ([`path_id`]), else an unknown list.
pub(crate) fn list_path_id(id: &str) -> Result<i64, Error> {
    path_id(id).ok_or_else(|| not_found(id))
}

/// A list name: trimmed, not empty, at most [`MAX_NAME_CHARS`], no control character but tab.
fn name(name: &str) -> Result<&str, Error> {
    let name = name.trim();
    let problem = if name.is_empty() {
        "the list name is empty"
    } else if name.chars().count() > MAX_NAME_CHARS {
        "the list name is over 255 characters"
    } else {
        return PlainText::parse(name)
            .map(PlainText::as_str)
            .map_err(|why| Error::Invalid(vec![FieldError::new("list.name", format!("the list name {why}"))]));
    };
    Err(Error::Invalid(vec![FieldError::new("list.name", problem)]))
}

/// The list's answer to a creation or an addition. Invalid numbers are left out and counted,
/// as the public service does (`invalid`), unlike NPAI and blacklist additions.
fn saved(id: i64, added: Added, invalid: usize) -> ListSavedResponse {
    ListSavedResponse {
        status: 1,
        message: "OK".into(),
        contacts: added.added,
        invalid: i64::try_from(invalid).unwrap_or(i64::MAX),
        duplicates: added.duplicates,
        id: id.to_string(),
    }
}

/// Refuses more contacts than a send may have recipients.
fn check_size(state: &AppState, request: &ListRequest) -> Result<(), Error> {
    let count = request.contacts.gsm.len();
    if count > state.config.max_recipients {
        return Err(Error::Invalid(vec![FieldError::new(
            "list.contacts.gsm",
            format!("{count} contacts: at most {} per request", state.config.max_recipients),
        )]));
    }
    Ok(())
}

/// `POST /list`: with `name` creates a list, with `listId` adds the contacts to one.
#[utoipa::path(
    post,
    path = "/list",
    tag = "lists",
    request_body = texto_core::wire::ListRequest,
    responses((status = 200, description = "Contacts added, refused and already there; the list id", body = texto_core::wire::ListSavedResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn save(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let request: ListRequest = body.decode()?;
    check_size(&state, &request)?;
    let (valid, invalid) = contacts("list", &request.contacts.gsm)?;
    let (id, added) = match (&request.list_id, &request.name) {
        (Some(id), None) => {
            let id = list_id(id)?;
            (id, state.store.update_list(caller.account, id, None, &valid).await?)
        }
        (None, Some(given)) => state.store.create_list(caller.account, name(given)?, &valid).await?,
        (Some(_), Some(_)) => {
            return Err(Error::Invalid(vec![FieldError::new(
                "list.listId",
                "give either name (to create a list) or listId (to add contacts to one), not both; PUT /list/{id} renames",
            )]));
        }
        (None, None) => {
            return Err(Error::Invalid(vec![FieldError::new(
                "list.name",
                "missing: give name to create a list, or listId to add contacts to one",
            )]));
        }
    };
    Ok(accept.ok(&saved(id, added, invalid.len())))
}

/// `PUT /list/{id}`: renames the list when `name` is given and adds `contacts`.
#[utoipa::path(
    put,
    path = "/list/{id}",
    tag = "lists",
    request_body = texto_core::wire::ListRequest,
    params(("id" = String, Path, description = "List id")),
    responses((status = 200, description = "Contacts added, refused and already there", body = texto_core::wire::ListSavedResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn update(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let list = list_path_id(&id)?;
    let request: ListRequest = body.decode()?;
    if request.list_id.as_deref().is_some_and(|given| given.trim() != list.to_string()) {
        return Err(Error::Invalid(vec![FieldError::new(
            "list.listId",
            format!("the path names list {list}: leave listId out or give the same id"),
        )]));
    }
    check_size(&state, &request)?;
    let new_name = request.name.as_deref().map(name).transpose()?;
    let (valid, invalid) = contacts("list", &request.contacts.gsm)?;
    let added = state.store.update_list(caller.account, list, new_name, &valid).await?;
    Ok(accept.ok(&saved(list, added, invalid.len())))
}

/// `GET /lists`: the account's lists with their sizes, oldest first.
#[utoipa::path(
    get,
    path = "/lists",
    tag = "lists",
    params(("start" = Option<i64>, Query, description = "First record (default 0)"), ("length" = Option<i64>, Query, description = "Records per page (default 100, at most 1000)")),
    responses((status = 200, description = "The account's lists", body = texto_core::wire::ListsResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn lists(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    page: Result<Query<Page>, QueryRejection>,
) -> Result<Response, Error> {
    let (lists, total) = state.store.lists(caller.account, query(page)?).await?;
    Ok(accept.ok(&ListsResponse {
        status: 1,
        message: "OK".into(),
        lists: lists
            .into_iter()
            .map(|l| ListSummaryDto {
                id: l.id.to_string(),
                name: l.name,
                contacts: l.contacts,
                count: l.contacts,
                date: format_paris(l.created_at),
            })
            .collect(),
        total_records: total,
        total_display_records: total,
    }))
}

/// A contact as `GET /list/{id}` shows it: empty fields are left out, as in the sample.
fn contact(contact: ListContact) -> ListContactDto {
    let [info1, info2, info3, info4] = contact.info.map(|info| (!info.is_empty()).then_some(info));
    ListContactDto { id: contact.id.to_string(), destination: contact.number.to_string(), info1, info2, info3, info4 }
}

/// `GET /list/{id}`: the list's name, size and a page of its contacts in the order they were
/// added; with `search`, of the contacts that match it.
#[utoipa::path(
    get,
    path = "/list/{id}",
    tag = "lists",
    params(
        ("id" = String, Path, description = "List id"),
        ("start" = Option<i64>, Query, description = "First record (default 0)"),
        ("length" = Option<i64>, Query, description = "Records per page (default 100, at most 1000)"),
        ("search" = Option<String>, Query, description = "Only contacts whose number contains these digits or whose info1…info4 contains this text, whatever the case; totalDisplayRecords counts them")
    ),
    responses((status = 200, description = "The list and a page of its contacts", body = texto_core::wire::ListResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    page: Result<Query<Page>, QueryRejection>,
    search: Result<Query<Search>, QueryRejection>,
) -> Result<Response, Error> {
    let list = list_path_id(&id)?;
    let (page, search) = (query(page)?, query(search)?.contacts());
    let found = state.store.list(caller.account, list, search.as_ref(), page).await?.ok_or_else(|| not_found(&id))?;
    Ok(accept.ok(&ListResponse {
        status: 1,
        message: "OK".into(),
        list: found.contacts.into_iter().map(contact).collect(),
        name: found.summary.name,
        contacts: found.summary.contacts,
        total_records: found.summary.contacts,
        total_display_records: found.matching,
    }))
}

/// `DELETE /list/{id}`: the list and its contacts.
#[utoipa::path(
    delete,
    path = "/list/{id}",
    tag = "lists",
    params(("id" = String, Path, description = "List id")),
    responses((status = 200, description = "Deleted with its contacts", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    if !state.store.delete_list(caller.account, list_path_id(&id)?).await? {
        return Err(not_found(&id));
    }
    Ok(accept.ok(&StatusResponse::ok()))
}

/// `DELETE /list/{id}/contact/{contact_id}`: one contact of the list.
#[utoipa::path(
    delete,
    path = "/list/{id}/contact/{contact_id}",
    tag = "lists",
    params(("id" = String, Path, description = "List id"), ("contact_id" = String, Path, description = "Contact id (the id of a contact in GET /list/{id})")),
    responses((status = 200, description = "Deleted", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn remove_contact(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path((id, contact_id)): Path<(String, String)>,
) -> Result<Response, Error> {
    let unknown = || Error::NotFound(format!("contact {contact_id} of list {id}"));
    let contact = path_id(&contact_id).ok_or_else(unknown)?;
    if !state.store.delete_contact(caller.account, Some(list_path_id(&id)?), contact).await? {
        return Err(unknown());
    }
    Ok(accept.ok(&StatusResponse::ok()))
}

/// `DELETE /list/contact/{contact_id}`: a contact by its id alone, as the SMSFactor SDKs
/// remove one; -5 when none of the account's lists has it.
#[utoipa::path(
    delete,
    path = "/list/contact/{contact_id}",
    tag = "lists",
    params(("contact_id" = String, Path, description = "Contact id (the id of a contact in GET /list/{id})")),
    responses((status = 200, description = "Deleted", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn remove_contact_by_id(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(contact_id): Path<String>,
) -> Result<Response, Error> {
    let unknown = || Error::NotFound(format!("contact {contact_id}"));
    let contact = path_id(&contact_id).ok_or_else(unknown)?;
    if !state.store.delete_contact(caller.account, None, contact).await? {
        return Err(unknown());
    }
    Ok(accept.ok(&StatusResponse::ok()))
}
