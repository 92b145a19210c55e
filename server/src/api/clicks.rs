//! Clicks on a campaign's short links (texto's addition): `GET /campaign/:ticket/clicks`
//! (per link) and `GET /campaign/:ticket/clickers` (who clicked, paged, for the CSV export).

use axum::{
    Router,
    extract::{Path, Query, State, rejection::QueryRejection},
    response::Response,
    routing::get,
};
use texto_core::{
    format_paris,
    wire::{CampaignClicksResponse, ClickerDto, ClickersResponse, LinkClicksDto},
};

use super::{Accept, auth::Caller, number_lists::query, path_id};
use crate::{Error, app::AppState, store::Page};

pub(super) fn router() -> Router<AppState> {
    Router::new().route("/campaign/{ticket}/clicks", get(clicks)).route("/campaign/{ticket}/clickers", get(clickers))
}

#[utoipa::path(
    get,
    path = "/campaign/{ticket}/clicks",
    tag = "campaigns",
    params(("ticket" = String, Path, description = "The campaign ticket")),
    responses((status = 200, description = "Clicks per short link, in the order of the text", body = texto_core::wire::CampaignClicksResponse), (status = "default", description = "Error envelope: negative status, message, details (REFERENCE §1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(super) async fn clicks(State(state): State<AppState>, caller: Caller, accept: Accept, Path(ticket): Path<String>) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("campaign {ticket}"));
    let id = path_id(&ticket).ok_or_else(not_found)?;
    let links = state.store.link_clicks(caller.account, id).await?.ok_or_else(not_found)?;
    Ok(accept.ok(&CampaignClicksResponse {
        status: 1,
        message: "OK".into(),
        links: links.into_iter().map(|l| LinkClicksDto { url: l.url, clicks: l.clicks, clickers: l.clickers }).collect(),
    }))
}

#[utoipa::path(
    get,
    path = "/campaign/{ticket}/clickers",
    tag = "campaigns",
    params(("ticket" = String, Path, description = "The campaign ticket"), ("start" = Option<i64>, Query, description = "First row (default 0)"), ("length" = Option<i64>, Query, description = "Rows per page (default 100, at most 1000)")),
    responses((status = 200, description = "Who clicked which link, by first click", body = texto_core::wire::ClickersResponse), (status = "default", description = "Error envelope: negative status, message, details (REFERENCE §1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(super) async fn clickers(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(ticket): Path<String>,
    page: Result<Query<Page>, QueryRejection>,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("campaign {ticket}"));
    let id = path_id(&ticket).ok_or_else(not_found)?;
    let (rows, total) = state.store.clickers(caller.account, id, query(page)?).await?.ok_or_else(not_found)?;
    let clickers = rows
        .into_iter()
        .map(|c| {
            let [brand, model, os] = c.device;
            let [info1, info2, info3, info4] = c.info;
            ClickerDto { destination: c.number.to_string(), url: c.url, clicks: c.clicks, last_click: format_paris(c.last_click), brand, model, os, info1, info2, info3, info4 }
        })
        .collect();
    Ok(accept.ok(&ClickersResponse { status: 1, message: "OK".into(), clickers, total_records: total }))
}
