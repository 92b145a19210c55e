//! The moderation queue (issue 25): `GET /operator/moderation` lists the campaigns held for an
//! operator; `POST /operator/campaign/:ticket/release` lets one go (at the time it asked for,
//! or at once) and `…/refuse` cancels it with a reason, its credits given back. Either is told
//! to whoever sent it (by email, when texto has SMTP) and written in the account's audit log.

use axum::{
    Extension, Router,
    extract::{Path, State},
    response::Response,
    routing::{get, post},
};
use chrono::Utc;
use texto_core::{
    format_paris,
    wire::{HeldCampaignDto, ModerationResponse, StatusResponse},
};

use super::{
    Accept,
    approval::{required_reason, tell_author},
    body::WireBody,
    operator::OperatorCaller,
    path_id,
};
use crate::{Error, state::AppState, store::HeldCampaign};

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/operator/moderation", get(queue))
        .route("/operator/campaign/{ticket}/release", post(release))
        .route("/operator/campaign/{ticket}/refuse", post(refuse))
}

/// `GET /operator/moderation`: the held campaigns, oldest first.
#[utoipa::path(get, path = "/operator/moderation", tag = "operator",
    responses((status = 200, description = "The held campaigns", body = texto_core::wire::ModerationResponse), (status = "default", description = "Error envelope (403 -12 for an account's token)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(super) async fn queue(State(state): State<AppState>, accept: Accept) -> Result<Response, Error> {
    let campaigns = state
        .store
        .held_campaigns()
        .await?
        .into_iter()
        .map(|held| HeldCampaignDto {
            ticket: held.ticket.to_string(),
            account: held.account_name,
            text: held.text,
            recipients: held.sent,
            reason: held.reason,
            date: format_paris(held.created_at),
        })
        .collect();
    let new_accounts_moderated = i64::from(state.store.new_accounts_moderated().await?);
    Ok(accept.ok(&ModerationResponse { status: 1, message: "OK".into(), campaigns, new_accounts_moderated }))
}

/// The held campaign `ticket`: -5 when there is no campaign held under it.
async fn held(state: &AppState, ticket: &str) -> Result<HeldCampaign, Error> {
    let not_found = || Error::NotFound(format!("held campaign {ticket}"));
    let id = path_id(ticket).ok_or_else(not_found)?;
    state.store.held_campaign(id).await?.ok_or_else(not_found)
}

/// Records what the operator did in the operators' log and the campaign's account's.
fn audit(state: &AppState, caller: &OperatorCaller, held: &HeldCampaign, action: &str, summary: String) {
    caller.record(state, Some(held.account), action, format!("campaign {}", held.ticket), summary);
}

/// `POST /operator/campaign/:ticket/release`.
#[utoipa::path(post, path = "/operator/campaign/{ticket}/release", tag = "operator",
    params(("ticket" = i64, Path, description = "The held campaign's ticket")),
    responses((status = 200, description = "Released: it goes at the time it asked for, or now", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(super) async fn release(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(ticket): Path<String>,
) -> Result<Response, Error> {
    let held = held(&state, &ticket).await?;
    if !state.store.release_held(held.account, held.ticket, Utc::now()).await? {
        return Err(Error::Contended(format!("campaign {} changed while it was being released", held.ticket)));
    }
    state.dispatch.notify_one();
    let author = state.store.campaign_author(held.account, held.ticket).await?;
    let body = format!("texto's moderation released your campaign {}: it is on its way.", held.ticket);
    tell_author(&state, &author, "Your campaign was released", body).await;
    audit(&state, &caller, &held, "campaign.release", format!("campaign {} released by moderation", held.ticket));
    Ok(accept.ok(&StatusResponse::ok()))
}

/// `POST /operator/campaign/:ticket/refuse` with `{"reason": "…"}`.
#[utoipa::path(post, path = "/operator/campaign/{ticket}/refuse", tag = "operator",
    request_body = texto_core::wire::RejectRequest,
    params(("ticket" = i64, Path, description = "The held campaign's ticket")),
    responses((status = 200, description = "Refused: cancelled and its credits given back", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(super) async fn refuse(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(ticket): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let reason = required_reason(&body)?;
    let held = held(&state, &ticket).await?;
    state.store.cancel_campaign(held.account, held.ticket).await?;
    state.store.note_rejection(held.account, held.ticket, &reason).await?;
    let author = state.store.campaign_author(held.account, held.ticket).await?;
    let body =
        format!("texto's moderation refused your campaign {}, and its credits were given back: {reason}", held.ticket);
    tell_author(&state, &author, "Your campaign was refused", body).await;
    audit(
        &state,
        &caller,
        &held,
        "campaign.refuse",
        format!("campaign {} refused by moderation: {reason}", held.ticket),
    );
    Ok(accept.ok(&StatusResponse::ok()))
}
