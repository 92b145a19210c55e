//! `PUT /campaign/:ticket/pause` and `…/resume`: no new wave of a paused campaign starts
//! (messages already handed over finish and their receipts are kept); resuming lets the next
//! wave take the rest, marketing only inside its window. Both answer the campaign as
//! `GET /campaign/:ticket` does.

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::put,
};
use chrono::Utc;

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, inputs::path_id},
    sending::campaigns::detail_response,
    state::AppState,
    store::Pausing,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/campaign/{ticket}/pause", put(pause)).route("/campaign/{ticket}/resume", put(resume))
}

#[utoipa::path(put, path = "/campaign/{ticket}/pause", tag = "campaigns",
    params(("ticket" = String, Path, description = "The campaign ticket")),
    responses((status = 200, description = "Paused: the campaign, status `Paused`", body = texto_core::wire::CampaignDetailResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn pause(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(ticket): Path<String>,
) -> Result<Response, Error> {
    change(state, caller, accept, &ticket, Pausing::Pause).await
}

#[utoipa::path(put, path = "/campaign/{ticket}/resume", tag = "campaigns",
    params(("ticket" = String, Path, description = "The campaign ticket")),
    responses((status = 200, description = "Resumed: the campaign, sending again", body = texto_core::wire::CampaignDetailResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn resume(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(ticket): Path<String>,
) -> Result<Response, Error> {
    change(state, caller, accept, &ticket, Pausing::Resume).await
}

/// Pauses or resumes the caller's campaign `ticket` (-5 when it is not theirs).
async fn change(
    state: AppState,
    caller: Caller,
    accept: Accept,
    ticket: &str,
    pausing: Pausing,
) -> Result<Response, Error> {
    let id = path_id(ticket).ok_or_else(|| Error::NotFound(format!("campaign {ticket}")))?;
    let record = state.store.pause_campaign(caller.account, id, pausing, Utc::now()).await?;
    tracing::info!(ticket = id, ?pausing, "campaign paused or resumed");
    if pausing == Pausing::Resume {
        state.dispatch.notify_one();
    }
    let verb = if pausing == Pausing::Pause { "paused" } else { "resumed" };
    let answer = accept.ok(&detail_response(&state, &caller, record).await?);
    Ok(noted(answer, format!("campaign {id}"), format!("campaign {id} {verb}")))
}
