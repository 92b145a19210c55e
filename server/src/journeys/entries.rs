//! `POST /journey/:id/enter` (an application puts a number in a journey, with fields for its
//! contact), `GET /journey/:id/contacts` (who is where) and `GET /journey/:id/report` (each
//! step's counts, for the current version).

use std::collections::BTreeMap;

use axum::{
    Router,
    extract::{Path, Query, State, rejection::QueryRejection},
    response::Response,
    routing::{get, post},
};
use texto_core::{
    FieldError, MOST_SEGMENT_CHARS, Program, format_paris, is_custom_field_name,
    wire::{
        JourneyContactDto, JourneyContactsResponse, JourneyEnterRequest, JourneyReportResponse, JourneyStepReportDto,
    },
};

use super::api::owned;
use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody, inputs::query},
    state::AppState,
    store::{
        AccountId, Page,
        account_contacts::ContactChange,
        journeys::{Entering, JourneyEntry},
    },
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/journey/{id}/enter", post(enter))
        .route("/journey/{id}/contacts", get(contacts))
        .route("/journey/{id}/report", get(report))
}

/// The most fields one entry writes on its contact.
const MOST_FIELDS: usize = 50;

fn shown(entry: &JourneyEntry, program: Option<&Program>) -> JourneyContactDto {
    let node = usize::try_from(entry.node).ok();
    let step = node.and_then(|n| program?.nodes.get(n)).map_or_else(|| entry.node.to_string(), |n| n.path.clone());
    let active = entry.state == crate::store::journeys::EntryState::Active;
    JourneyContactDto {
        number: entry.number.to_string(),
        version: entry.version,
        step,
        state: entry.state.shown().to_owned(),
        due_at: active.then(|| format_paris(entry.due_at)),
        note: entry.note.clone(),
        entered_at: format_paris(entry.entered_at),
    }
}

/// Writes `fields` on the number's contact (names and custom fields; the others it has stay).
async fn write_fields(
    state: &AppState,
    account: AccountId,
    number: i64,
    fields: BTreeMap<String, String>,
) -> Result<(), Error> {
    let mut change = ContactChange::default();
    let mut custom: BTreeMap<String, serde_json::Value> = BTreeMap::new();
    if fields.len() > MOST_FIELDS {
        return Err(Error::Invalid(vec![FieldError::new("fields", format!("at most {MOST_FIELDS} fields"))]));
    }
    let mut errors = Vec::new();
    for (name, value) in fields {
        let value = value.trim().to_owned();
        if value.chars().count() > MOST_SEGMENT_CHARS {
            errors.push(FieldError::new(format!("fields.{name}"), format!("at most {MOST_SEGMENT_CHARS} characters")));
            continue;
        }
        match name.as_str() {
            "firstname" => change.firstname = Some(value),
            "lastname" => change.lastname = Some(value),
            custom_name if is_custom_field_name(custom_name) => {
                custom.insert(name, serde_json::Value::from(value));
            }
            _ => errors.push(FieldError::new(
                format!("fields.{name}"),
                "a field's name is lower-case letters, digits and _, from a letter",
            )),
        }
    }
    if !errors.is_empty() {
        return Err(Error::Invalid(errors));
    }
    if !custom.is_empty() {
        let card = state.store.contact(account, number).await?;
        let mut stored: BTreeMap<String, serde_json::Value> =
            card.and_then(|c| serde_json::from_str(&c.fields).ok()).unwrap_or_default();
        stored.extend(custom);
        change.fields = Some(serde_json::to_string(&stored).unwrap_or_else(|_| "{}".to_owned()));
    }
    if change != ContactChange::default() {
        state.store.save_contact(account, number, change).await?;
    }
    Ok(())
}

/// `POST /journey/:id/enter` (`{"number": "33612345678", "fields": {"firstname": "Ana"}}`): puts
/// the number at the start of a live journey, whatever its trigger, unless it is in it already
/// or entered it too recently; the fields are written on its contact first.
#[utoipa::path(post, path = "/journey/{id}/enter", tag = "journeys", request_body = texto_core::wire::JourneyEnterRequest,
    params(("id" = String, Path, description = "The journey's id")),
    responses((status = 200, description = "Where the number is now", body = texto_core::wire::JourneyContactsResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn enter(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let journey = owned(&state, caller.account, &id).await?;
    let request: JourneyEnterRequest = body.decode()?;
    let number = super::number_of(&request.number)?;
    write_fields(&state, caller.account, number, request.fields).await?;
    match state.store.enter_journey(caller.account, journey.id, number).await? {
        Entering::Entered => {}
        Entering::AlreadyIn => {
            let why = "the number is in the journey already, or went through it too recently to enter again";
            return Err(Error::Invalid(vec![FieldError::new("number", why)]));
        }
        Entering::NotLive => {
            return Err(Error::Invalid(vec![FieldError::new("journey.status", "the journey is not live")]));
        }
        Entering::NotFound => return Err(Error::NotFound(format!("journey {id}"))),
    }
    let entries = state.store.journey_entries(caller.account, journey.id, Page { start: 0, length: 50 }).await?;
    // Woken once the answer is read, so that it shows the number where it entered.
    state.journeys.notify_one();
    let program = Program::of(&journey.journey);
    let contacts = entries.iter().filter(|e| e.number == number).take(1).map(|e| shown(e, Some(&program))).collect();
    let answer = accept.ok(&JourneyContactsResponse { status: 1, message: "OK".into(), contacts });
    Ok(noted(answer, format!("journey {}", journey.id), format!("{number} entered journey {}", journey.journey.name)))
}

/// `GET /journey/:id/contacts?start=0&length=100`: where its contacts are, the latest entered
/// first.
#[utoipa::path(get, path = "/journey/{id}/contacts", tag = "journeys",
    params(("id" = String, Path, description = "The journey's id"), ("start" = Option<i64>, Query, description = "First record (default 0)"), ("length" = Option<i64>, Query, description = "Records per page (default 100, at most 1000)")),
    responses((status = 200, description = "Its contacts", body = texto_core::wire::JourneyContactsResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn contacts(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    page: Result<Query<Page>, QueryRejection>,
) -> Result<Response, Error> {
    let journey = owned(&state, caller.account, &id).await?;
    let entries = state.store.journey_entries(caller.account, journey.id, query(page)?).await?;
    let mut programs = BTreeMap::new();
    let mut contacts = Vec::with_capacity(entries.len());
    for entry in &entries {
        if let std::collections::btree_map::Entry::Vacant(vacant) = programs.entry(entry.version) {
            let version = state.store.journey_version(journey.id, entry.version).await?;
            vacant.insert(version.map(|v| Program::of(&v)));
        }
        contacts.push(shown(entry, programs.get(&entry.version).and_then(Option::as_ref)));
    }
    Ok(accept.ok(&JourneyContactsResponse { status: 1, message: "OK".into(), contacts }))
}

/// `GET /journey/:id/report`: for the current version, how many entered, and for each step how
/// many reached it, wait there now and went past it.
#[utoipa::path(get, path = "/journey/{id}/report", tag = "journeys",
    params(("id" = String, Path, description = "The journey's id")),
    responses((status = 200, description = "Each step's counts", body = texto_core::wire::JourneyReportResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn report(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let journey = owned(&state, caller.account, &id).await?;
    let (entered, counts) = state.store.journey_counts(caller.account, journey.id, journey.version).await?;
    let program = Program::of(&journey.journey);
    let steps = program
        .nodes
        .iter()
        .enumerate()
        .map(|(index, node)| {
            let count = counts.iter().find(|c| c.node == index as i64);
            let (reached, left) = count.map_or((0, 0), |c| (c.entered, c.left));
            JourneyStepReportDto {
                step: node.path.clone(),
                kind: node.type_name().to_owned(),
                entered: reached,
                waiting: reached - left,
                done: left,
            }
        })
        .collect();
    Ok(accept.ok(&JourneyReportResponse { status: 1, message: "OK".into(), version: journey.version, entered, steps }))
}
