//! `PUT /list/contact/:id` (edit a contact), `PUT /list/deduplicate/:id` (take out duplicate
//! numbers) and `PUT /list/:id/npai/clear` (take out the NPAI numbers).

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::put,
};
use texto_core::{
    FieldError, PlainText, parse_international,
    wire::{ContactUpdateRequest, RemovedResponse, StatusResponse},
};

use crate::{
    Error,
    audience::lists::{list_path_id, not_found},
    http::{Accept, auth::Caller, body::WireBody, inputs::path_id},
    state::AppState,
    store::{ContactChange, ContactUpdate},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/list/contact/{contact_id}", put(update_contact))
        .route("/list/deduplicate/{id}", put(deduplicate))
        .route("/list/{id}/npai/clear", put(clear_npai))
}

/// The change a body asks for, or -7 naming each field that is wrong.
fn change(request: ContactUpdateRequest) -> Result<ContactChange, Error> {
    let card = match request.contact.as_ref().and_then(|entry| entry.contact.clone()) {
        None => None,
        Some(card) => Some(crate::audience::contacts::change_of(*card, chrono::Utc::now()).map_err(|error| {
            match error {
                Error::Invalid(errors) => Error::Invalid(
                    errors
                        .into_iter()
                        .map(|e| FieldError::new(e.path.replacen("contact.", "contact.contact.", 1), e.message))
                        .collect(),
                ),
                other => other,
            }
        })?),
    };
    let (value, info) = request.change();
    let mut problems = Vec::new();
    let number = value.and_then(|value| match parse_international(&value) {
        Ok(number) => Some(number.as_u64()),
        Err(why) => {
            problems.push(FieldError::new("value", format!("{}: {why}", texto_core::excerpt(&value))));
            None
        }
    });
    for (n, field) in info.iter().enumerate() {
        if let Some(Err(why)) = field.as_deref().map(PlainText::parse) {
            problems.push(FieldError::new(format!("info{}", n + 1), why));
        }
    }
    if problems.is_empty() { Ok(ContactChange { number, info, card }) } else { Err(Error::Invalid(problems)) }
}

#[utoipa::path(
    put,
    path = "/list/contact/{contact_id}",
    tag = "lists",
    request_body = texto_core::wire::ContactUpdateRequest,
    params(("contact_id" = i64, Path, description = "The contact's id, as GET /list/:id gives it")),
    responses((status = 200, description = "Changed", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn update_contact(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("contact {id}"));
    let contact = path_id(&id).ok_or_else(not_found)?;
    let change = change(body.decode()?)?;
    match state.store.update_contact(caller.account, contact, change).await? {
        ContactUpdate::Updated => Ok(accept.ok(&StatusResponse { status: 1, message: "OK".into() })),
        ContactUpdate::NotFound => Err(not_found()),
        ContactUpdate::NumberTaken => {
            Err(Error::Invalid(vec![FieldError::new("value", "the list already has a contact with this number")]))
        }
    }
}

fn removed(accept: Accept, removed: i64) -> Response {
    accept.ok(&RemovedResponse { status: 1, message: "OK".into(), removed })
}

#[utoipa::path(
    put,
    path = "/list/deduplicate/{id}",
    tag = "lists",
    params(("id" = i64, Path, description = "The list's id")),
    responses((status = 200, description = "How many contacts repeated a number and went", body = texto_core::wire::RemovedResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn deduplicate(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let list = list_path_id(&id)?;
    let gone = state.store.deduplicate_list(caller.account, list).await?.ok_or_else(|| not_found(&id))?;
    Ok(removed(accept, gone))
}

#[utoipa::path(
    put,
    path = "/list/{id}/npai/clear",
    tag = "lists",
    params(("id" = i64, Path, description = "The list's id")),
    responses((status = 200, description = "How many contacts were on the NPAI list and went", body = texto_core::wire::RemovedResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn clear_npai(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let list = list_path_id(&id)?;
    let gone = state.store.clear_list_npai(caller.account, list).await?.ok_or_else(|| not_found(&id))?;
    tracing::info!(list, removed = gone, "a list's NPAI numbers taken out");
    Ok(removed(accept, gone))
}
