//! `GET /journeys`, `POST /journey`, `GET`, `PUT` and `DELETE /journey/:id`, and
//! `PUT /journey/:id/status`. Anyone who may compose writes drafts; a journey sends on its own
//! once live, so putting it live is an approval: it takes a role that may approve, and when
//! the team asks for approval, someone other than who changed it last. Changing a journey
//! that has been live needs a role that may approve too, and under the team's approval puts it
//! back to paused, for another to put live.

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::{get, post, put},
};
use texto_core::{
    Action, Condition, FieldError, Journey, JourneyStatus, ListChange, NodeKind, Program, Trigger,
    wire::{JourneyRequest, JourneyResponse, JourneysResponse, StatusResponse},
};

use super::{dto, wire_path};
use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody, inputs::path_id},
    state::AppState,
    store::{
        AccountId, Page,
        journeys::{JourneySaved, SavedJourney},
    },
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/journeys", get(all))
        .route("/journey", post(create))
        .route("/journey/{id}", get(show).put(update).delete(remove))
        .route("/journey/{id}/status", put(status))
}

/// One of the caller's journeys, or 404.
pub(super) async fn owned(state: &AppState, account: AccountId, id: &str) -> Result<SavedJourney, Error> {
    let unknown = || Error::NotFound(format!("journey {id}"));
    let number = path_id(id).ok_or_else(unknown)?;
    state.store.journey(account, number).await?.ok_or_else(unknown)
}

/// Something of the account's that a journey names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Named {
    List(i64),
    Segment(i64),
    Campaign(i64),
}

/// What `journey` names (its trigger, its `list` steps, its branches' and exit's tests), each
/// with its path in the request.
fn named_in(journey: &Journey) -> Vec<(String, Named)> {
    let tested = |condition: &Condition, path: &str| match condition {
        Condition::List(list) => Some((format!("{path}.list"), Named::List(*list))),
        Condition::Segment(segment) => Some((format!("{path}.segment"), Named::Segment(*segment))),
        _ => None,
    };
    let mut named = Vec::new();
    match &journey.trigger {
        Trigger::List(list) => named.push(("journey.trigger.list".to_owned(), Named::List(*list))),
        Trigger::Schedule { segment, .. } | Trigger::Segment(segment) => {
            named.push(("journey.trigger.segment".to_owned(), Named::Segment(*segment)))
        }
        Trigger::Click(ticket) => named.push(("journey.trigger.campaign".to_owned(), Named::Campaign(*ticket))),
        _ => {}
    }
    for node in &Program::of(journey).nodes {
        let at = wire_path(&node.path);
        match &node.kind {
            NodeKind::List(ListChange::Add(list)) => named.push((format!("{at}.add"), Named::List(*list))),
            NodeKind::List(ListChange::Remove(list)) => named.push((format!("{at}.remove"), Named::List(*list))),
            NodeKind::Branch { condition, .. } => named.extend(tested(condition, &format!("{at}.if"))),
            _ => {}
        }
    }
    named.extend(journey.exit.as_ref().and_then(|exit| tested(exit, "journey.exit")));
    named
}

/// The journey a request gives, checked: its steps, the lists, segments and campaign it names,
/// which must be the account's, and the addresses it posts to (the `JOURNEY` webhooks it
/// needs are added once every check passed).
async fn journey_of(state: &AppState, caller: &Caller, request: JourneyRequest) -> Result<Journey, Error> {
    let account = caller.account;
    let journey = Journey::parse(&request.journey).map_err(Error::Invalid)?;
    let mut errors = Vec::new();
    let new_webhooks = super::webhooks::missing(state, caller, &journey, &mut errors).await?;
    for (path, named) in named_in(&journey) {
        let (found, what, id) = match named {
            Named::List(id) => {
                (state.store.list(account, id, None, Page { start: 0, length: 0 }).await?.is_some(), "list", id)
            }
            Named::Segment(id) => (state.store.segment(account, id).await?.is_some(), "segment", id),
            Named::Campaign(id) => (state.store.campaign(account, id).await?.is_some(), "campaign", id),
        };
        if !found {
            errors.push(FieldError::new(path, format!("the account has no {what} {id}")));
        }
    }
    if !errors.is_empty() {
        return Err(Error::Invalid(errors));
    }
    super::webhooks::add(state, caller, new_webhooks).await?;
    Ok(journey)
}

fn answer(accept: Accept, saved: &SavedJourney, verb: &str) -> Response {
    let answer = accept.ok(&JourneyResponse { status: 1, message: "OK".into(), journey: dto(saved) });
    let summary =
        format!("journey {} {verb} (version {}, {})", saved.journey.name, saved.version, saved.status.as_str());
    noted(answer, format!("journey {}", saved.id), summary)
}

/// `GET /journeys`: the account's journeys, by name.
#[utoipa::path(get, path = "/journeys", tag = "journeys",
    responses((status = 200, description = "The journeys", body = texto_core::wire::JourneysResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn all(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let journeys = state.store.journeys(caller.account).await?.iter().map(dto).collect();
    Ok(accept.ok(&JourneysResponse { status: 1, message: "OK".into(), journeys }))
}

/// `GET /journey/:id`.
#[utoipa::path(get, path = "/journey/{id}", tag = "journeys",
    params(("id" = String, Path, description = "The journey's id")),
    responses((status = 200, description = "The journey", body = texto_core::wire::JourneyResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn show(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let saved = owned(&state, caller.account, &id).await?;
    Ok(accept.ok(&JourneyResponse { status: 1, message: "OK".into(), journey: dto(&saved) }))
}

/// `POST /journey` (`{"journey": {"name", "trigger", "steps", "reentry"}}`): a draft.
#[utoipa::path(post, path = "/journey", tag = "journeys", request_body = texto_core::wire::JourneyRequest,
    responses((status = 200, description = "The draft as saved", body = texto_core::wire::JourneyResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let journey = journey_of(&state, &caller, body.decode()?).await?;
    match state.store.save_journey(caller.account, None, journey, caller.hand()).await? {
        JourneySaved::Saved(saved) => Ok(answer(accept, &saved, "created")),
        _ => Err(Error::Unavailable("a journey just created cannot be read")),
    }
}

/// `PUT /journey/:id`: replaces a draft, or makes a new version of a journey that has been live
/// (its contacts finish the version they entered).
#[utoipa::path(put, path = "/journey/{id}", tag = "journeys", request_body = texto_core::wire::JourneyRequest,
    params(("id" = String, Path, description = "The journey's id")),
    responses((status = 200, description = "The journey as saved", body = texto_core::wire::JourneyResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn update(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let before = owned(&state, caller.account, &id).await?;
    if before.status != JourneyStatus::Draft && !caller.role.may(Action::Approve) {
        return Err(Error::Forbidden { role: caller.role, action: "change a journey that has been live".into() });
    }
    let journey = journey_of(&state, &caller, body.decode()?).await?;
    let saved = match state.store.save_journey(caller.account, Some(before.id), journey, caller.hand()).await? {
        JourneySaved::Saved(saved) => *saved,
        JourneySaved::NotFound => return Err(Error::NotFound(format!("journey {id}"))),
        JourneySaved::Archived => {
            return Err(Error::Invalid(vec![FieldError::new("journey.status", "an archived journey changes no more")]));
        }
    };
    // Under the team's approval, a live journey someone changed waits for another to put it live.
    let four_eyes = state.store.team_rules(caller.account).await?.approval_over.is_some();
    let saved = match (saved.status, four_eyes) {
        (JourneyStatus::Live, true) => state
            .store
            .set_journey_status(caller.account, saved.id, JourneyStatus::Paused)
            .await?
            .ok_or_else(|| Error::NotFound(format!("journey {id}")))?,
        _ => saved,
    };
    Ok(answer(accept, &saved, "changed"))
}

/// `DELETE /journey/:id`: a draft or an archived journey, with where its contacts were.
#[utoipa::path(delete, path = "/journey/{id}", tag = "journeys",
    params(("id" = String, Path, description = "The journey's id")),
    responses((status = 200, description = "Deleted", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let saved = owned(&state, caller.account, &id).await?;
    match state.store.delete_journey(caller.account, saved.id).await? {
        None => Err(Error::NotFound(format!("journey {id}"))),
        Some(JourneyStatus::Draft | JourneyStatus::Archived) => {
            let summary = format!("journey {} deleted", saved.journey.name);
            Ok(noted(accept.ok(&StatusResponse::ok()), format!("journey {}", saved.id), summary))
        }
        Some(_) => Err(Error::Invalid(vec![FieldError::new(
            "journey.status",
            "a live or paused journey is archived before it is deleted",
        )])),
    }
}

/// `PUT /journey/:id/status` (`{"journey": {"status": "live" | "paused" | "archived"}}`).
#[utoipa::path(put, path = "/journey/{id}/status", tag = "journeys", request_body = texto_core::wire::JourneyRequest,
    params(("id" = String, Path, description = "The journey's id")),
    responses((status = 200, description = "The journey in its new status", body = texto_core::wire::JourneyResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn status(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let JourneyRequest { journey: asked } = body.decode()?;
    let wanted = asked.status.as_deref().and_then(JourneyStatus::parse).filter(|s| *s != JourneyStatus::Draft);
    let Some(wanted) = wanted else {
        return Err(Error::Invalid(vec![FieldError::new("journey.status", "live, paused or archived")]));
    };
    let before = owned(&state, caller.account, &id).await?;
    if wanted == JourneyStatus::Live
        && state.store.team_rules(caller.account).await?.approval_over.is_some()
        && before.edited_by.is(caller.hand())
    {
        return Err(Error::OwnJourney);
    }
    if !before.status.may_become(wanted) {
        let why = format!("a {} journey cannot become {}", before.status.as_str(), wanted.as_str());
        return Err(Error::Invalid(vec![FieldError::new("journey.status", why)]));
    }
    let saved = state
        .store
        .set_journey_status(caller.account, before.id, wanted)
        .await?
        .ok_or_else(|| Error::NotFound(format!("journey {id}")))?;
    if saved.status != wanted {
        return Err(Error::Contended(format!("journey {id} changed meanwhile: send again")));
    }
    Ok(answer(accept, &saved, wanted.as_str()))
}
