//! What one campaign caused: its replies (`GET /campaign/:id/mo`), its STOPs
//! (`GET /campaign/:id/blacklist`) and its NPAI numbers (`GET /campaign/:id/npai`, and
//! `PUT /campaign/:id/npai` to blacklist them).

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::get,
};
use chrono::Utc;
use texto_core::{
    format_paris,
    wire::{
        AddedContactsResponse, CampaignNpaiResponse, CampaignStopsResponse, NumberEntryDto, RepliesResponse, StopDto,
    },
};

use crate::{
    Error,
    http::{Accept, auth::Caller, inputs::path_id},
    sending::messages::reply_dto,
    state::AppState,
    store::CampaignNumber,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/campaign/{ticket}/mo", get(replies))
        .route("/campaign/{ticket}/blacklist", get(stops))
        .route("/campaign/{ticket}/npai", get(npai).put(blacklist_npai))
}

/// The campaign's ticket, or -5 for one that is not a ticket.
fn ticket(text: &str) -> Result<i64, Error> {
    path_id(text).ok_or_else(|| not_found(text))
}

fn not_found(ticket: &str) -> Error {
    Error::NotFound(format!("campaign {ticket}"))
}

#[utoipa::path(
    get,
    path = "/campaign/{ticket}/mo",
    tag = "campaigns",
    params(("ticket" = String, Path, description = "The campaign ticket")),
    responses((status = 200, description = "The replies to the campaign's messages, oldest first", body = texto_core::wire::RepliesResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn replies(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let records = state.store.campaign_replies(caller.account, ticket(&id)?).await?.ok_or_else(|| not_found(&id))?;
    let total = records.len() as i64;
    Ok(accept.ok(&RepliesResponse {
        status: 1,
        message: "OK".into(),
        replies: records.iter().map(reply_dto).collect(),
        total_records: total,
        total_display_records: total,
    }))
}

#[utoipa::path(
    get,
    path = "/campaign/{ticket}/blacklist",
    tag = "campaigns",
    params(("ticket" = String, Path, description = "The campaign ticket")),
    responses((status = 200, description = "The numbers that replied STOP to the campaign", body = texto_core::wire::CampaignStopsResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn stops(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let numbers = state.store.campaign_stops(caller.account, ticket(&id)?).await?.ok_or_else(|| not_found(&id))?;
    let stops = numbers
        .into_iter()
        .map(|CampaignNumber { number, info: [info1, info2, info3, info4], at, .. }| StopDto {
            destination: number.to_string(),
            info1,
            info2,
            info3,
            info4,
            date: format_paris(at),
        })
        .collect();
    Ok(accept.ok(&CampaignStopsResponse { status: 1, message: "OK".into(), stops }))
}

#[utoipa::path(
    get,
    path = "/campaign/{ticket}/npai",
    tag = "campaigns",
    params(("ticket" = String, Path, description = "The campaign ticket")),
    responses((status = 200, description = "The campaign's numbers the carrier found unknown", body = texto_core::wire::CampaignNpaiResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn npai(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let campaign = ticket(&id)?;
    let numbers = state.store.campaign_npai(caller.account, campaign).await?.ok_or_else(|| not_found(&id))?;
    let npai = numbers
        .into_iter()
        .map(|CampaignNumber { id, number, info: [info1, info2, info3, info4], at }| NumberEntryDto {
            id: id.to_string(),
            destination: number.to_string(),
            date: format_paris(at),
            info1,
            info2,
            info3,
            info4,
            campaign_id: Some(campaign),
            ..NumberEntryDto::default()
        })
        .collect();
    Ok(accept.ok(&CampaignNpaiResponse { status: 1, message: "OK".into(), npai }))
}

#[utoipa::path(
    put,
    path = "/campaign/{ticket}/npai",
    tag = "campaigns",
    params(("ticket" = String, Path, description = "The campaign ticket")),
    responses((status = 200, description = "The campaign's NPAI numbers are on the blacklist; added_contacts counts those that were not", body = texto_core::wire::AddedContactsResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn blacklist_npai(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let added = state
        .store
        .blacklist_campaign_npai(caller.account, ticket(&id)?, Utc::now())
        .await?
        .ok_or_else(|| not_found(&id))?;
    tracing::info!(campaign = %id, added, "a campaign's NPAI numbers blacklisted");
    Ok(accept.ok(&AddedContactsResponse { status: 1, message: "OK".into(), added_contacts: added }))
}
