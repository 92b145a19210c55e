//! Segments (texto's additions): `GET /segments`, `POST /segment`, `GET`, `PUT` and
//! `DELETE /segment/:id`, and `POST /segment/count`, which counts rules as they are edited. A
//! campaign goes to a segment through `sms.segments` on `/send/lists` (see `send`).

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::{get, post},
};
use texto_core::{
    FieldError, MOST_SEGMENT_CHARS, SegmentFilter, SegmentRule, format_paris,
    wire::{SegmentDto, SegmentRequest, SegmentResponse, SegmentsResponse, StatusResponse},
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody, inputs::path_id},
    state::AppState,
    store::{AccountId, Page, segments::SavedSegment},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/segments", get(all))
        .route("/segment", post(create))
        .route("/segment/count", post(count))
        .route("/segment/{id}", get(show).put(update).delete(remove))
}

/// `segment` with `filter`'s match and rules as the wire shows them.
fn with_filter(segment: SegmentDto, filter: &SegmentFilter) -> SegmentDto {
    SegmentDto {
        matching: Some(filter.matching.as_str().to_owned()),
        rules: filter.rules.iter().map(SegmentRule::to_wire).collect(),
        ..segment
    }
}

/// A segment as the wire shows it.
fn dto(segment: &SavedSegment, count: Option<i64>) -> SegmentDto {
    let shown = SegmentDto {
        id: Some(segment.id.to_string()),
        name: Some(segment.name.clone()),
        count,
        updated_at: Some(format_paris(segment.updated_at)),
        ..SegmentDto::default()
    };
    with_filter(shown, &segment.filter)
}

/// The match and rules a request gives, checked: each rule, and the lists they name, which must
/// be the account's.
async fn filter_of(state: &AppState, account: AccountId, asked: &SegmentDto) -> Result<SegmentFilter, Error> {
    let filter = SegmentFilter::parse(asked.matching.as_deref(), &asked.rules).map_err(Error::Invalid)?;
    let mut errors = Vec::new();
    for (i, rule) in filter.rules.iter().enumerate() {
        if let SegmentRule::List(list) = rule
            && state.store.list(account, *list, None, Page { start: 0, length: 0 }).await?.is_none()
        {
            errors.push(FieldError::new(format!("segment.rules[{i}].list"), "the account has no such list"));
        }
    }
    if errors.is_empty() { Ok(filter) } else { Err(Error::Invalid(errors)) }
}

/// The name a request gives, checked.
fn name_of(asked: &SegmentDto) -> Result<String, Error> {
    let name = asked.name.as_deref().unwrap_or("").trim();
    if name.is_empty() || name.chars().count() > MOST_SEGMENT_CHARS {
        let why = format!("a segment's name is 1 to {MOST_SEGMENT_CHARS} characters");
        return Err(Error::Invalid(vec![FieldError::new("segment.name", why)]));
    }
    Ok(name.to_owned())
}

/// The answer to a saved segment, with its count.
async fn saved(
    state: &AppState,
    caller: &Caller,
    accept: Accept,
    segment: SavedSegment,
    verb: &str,
) -> Result<Response, Error> {
    let count = state.store.count_segment(caller.account, segment.filter.clone()).await?;
    let summary = format!("segment {} {verb} ({count} contacts)", segment.name);
    let answer = accept.ok(&SegmentResponse { status: 1, message: "OK".into(), segment: dto(&segment, Some(count)) });
    Ok(noted(answer, format!("segment {}", segment.id), summary))
}

/// `GET /segments`: the account's segments by name (without their counts).
#[utoipa::path(get, path = "/segments", tag = "segments",
    responses((status = 200, description = "The segments", body = texto_core::wire::SegmentsResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn all(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let segments = state.store.segments(caller.account).await?;
    let segments = segments.iter().map(|segment| dto(segment, None)).collect();
    Ok(accept.ok(&SegmentsResponse { status: 1, message: "OK".into(), segments }))
}

/// `GET /segment/:id`: the segment with how many contacts it holds now.
#[utoipa::path(get, path = "/segment/{id}", tag = "segments",
    params(("id" = String, Path, description = "The segment's id")),
    responses((status = 200, description = "The segment and its count", body = texto_core::wire::SegmentResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn show(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let unknown = || Error::NotFound(format!("segment {id}"));
    let number = path_id(&id).ok_or_else(unknown)?;
    let segment = state.store.segment(caller.account, number).await?.ok_or_else(unknown)?;
    let count = state.store.count_segment(caller.account, segment.filter.clone()).await?;
    Ok(accept.ok(&SegmentResponse { status: 1, message: "OK".into(), segment: dto(&segment, Some(count)) }))
}

/// `POST /segment/count` (`{"segment": {"match": "any", "rules": [...]}}`): how many contacts
/// rules being edited hold, without saving them.
#[utoipa::path(post, path = "/segment/count", tag = "segments", request_body = texto_core::wire::SegmentRequest,
    responses((status = 200, description = "The rules and their count", body = texto_core::wire::SegmentResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn count(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let SegmentRequest { segment } = body.decode()?;
    let filter = filter_of(&state, caller.account, &segment).await?;
    let segment = with_filter(segment, &filter);
    let count = state.store.count_segment(caller.account, filter).await?;
    let segment = SegmentDto { count: Some(count), ..segment };
    Ok(accept.ok(&SegmentResponse { status: 1, message: "OK".into(), segment }))
}

/// `POST /segment` (`{"segment": {"name", "match", "rules": [...]}}`).
#[utoipa::path(post, path = "/segment", tag = "segments", request_body = texto_core::wire::SegmentRequest,
    responses((status = 200, description = "The segment as saved, with its count", body = texto_core::wire::SegmentResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let SegmentRequest { segment } = body.decode()?;
    let (name, filter) = (name_of(&segment)?, filter_of(&state, caller.account, &segment).await?);
    let segment = state.store.save_segment(caller.account, None, name, filter).await?;
    let segment = segment.ok_or(Error::Unavailable("a segment just created cannot be read"))?;
    saved(&state, &caller, accept, segment, "created").await
}

/// `PUT /segment/:id`: replaces the segment's name, match and rules.
#[utoipa::path(put, path = "/segment/{id}", tag = "segments", request_body = texto_core::wire::SegmentRequest,
    params(("id" = String, Path, description = "The segment's id")),
    responses((status = 200, description = "The segment as saved, with its count", body = texto_core::wire::SegmentResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn update(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let unknown = || Error::NotFound(format!("segment {id}"));
    let number = path_id(&id).ok_or_else(unknown)?;
    let SegmentRequest { segment } = body.decode()?;
    let (name, filter) = (name_of(&segment)?, filter_of(&state, caller.account, &segment).await?);
    let segment = state.store.save_segment(caller.account, Some(number), name, filter).await?.ok_or_else(unknown)?;
    saved(&state, &caller, accept, segment, "changed").await
}

/// `DELETE /segment/:id`.
#[utoipa::path(delete, path = "/segment/{id}", tag = "segments",
    params(("id" = String, Path, description = "The segment's id")),
    responses((status = 200, description = "Deleted", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let unknown = || Error::NotFound(format!("segment {id}"));
    let number = path_id(&id).ok_or_else(unknown)?;
    if !state.store.delete_segment(caller.account, number).await? {
        return Err(unknown());
    }
    Ok(noted(accept.ok(&StatusResponse::ok()), format!("segment {number}"), format!("segment {number} deleted")))
}
