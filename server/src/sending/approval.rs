//! `POST /campaign/:id/approve` and `POST /campaign/:id/reject`: a campaign an author sent
//! waits until someone who may send approves it (it then goes, or is scheduled) or rejects
//! it with a reason (it is cancelled and its credits are given back).

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::post,
};
use chrono::Utc;
use texto_core::{
    FieldError, format_paris,
    wire::{RejectRequest, StatusResponse},
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody, inputs::path_id},
    state::AppState,
    store::{CampaignRecord, CampaignStatus, approval::awaiting, moderation::held},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/campaign/{ticket}/approve", post(approve)).route("/campaign/{ticket}/reject", post(reject))
}

/// Whether `record` waits for approval.
pub(crate) fn is_awaiting(record: &CampaignRecord) -> bool {
    record.status == CampaignStatus::Scheduled && record.send_at == awaiting()
}

/// Whether `record` is held for an operator's moderation.
pub(crate) fn is_held(record: &CampaignRecord) -> bool {
    record.status == CampaignStatus::Scheduled && record.send_at == held()
}

/// The status the wire shows: `awaiting approval`, `awaiting moderation`, or the stored one's label.
pub(crate) fn status_label(record: &CampaignRecord) -> &'static str {
    match () {
        () if is_awaiting(record) => "awaiting approval",
        () if is_held(record) => "awaiting moderation",
        () if record.paused && record.status == CampaignStatus::Sending => "Paused",
        () => record.status.label(),
    }
}

/// The date the wire shows: when it goes (went), or its creation while it waits.
pub(crate) fn shown_date(record: &CampaignRecord) -> String {
    format_paris(if is_awaiting(record) || is_held(record) { record.created_at } else { record.send_at })
}

/// The account's campaign `ticket`, if it awaits approval (-5 if it is not the account's,
/// -7 if it does not wait).
async fn awaiting_campaign(state: &AppState, caller: &Caller, ticket: &str) -> Result<i64, Error> {
    let not_found = || Error::NotFound(format!("campaign {ticket}"));
    let id = path_id(ticket).ok_or_else(not_found)?;
    let record = state.store.campaign(caller.account, id).await?.ok_or_else(not_found)?;
    if !is_awaiting(&record) {
        let why = format!("campaign {id} does not await approval (it is {})", record.status.label().to_lowercase());
        return Err(Error::Invalid(vec![FieldError::new("ticket", why)]));
    }
    Ok(id)
}

/// The `reason` of a rejection or a refusal: required, one line (-7 otherwise).
pub(crate) fn required_reason(body: &WireBody) -> Result<String, Error> {
    let RejectRequest { reason } = body.decode()?;
    let reason = reason.map(|r| r.trim().to_owned()).filter(|r| !r.is_empty());
    let reason = reason.ok_or_else(|| Error::Invalid(vec![FieldError::new("reason", "a reason is required")]))?;
    texto_core::LineText::parse(&reason).map_err(|why| Error::Invalid(vec![FieldError::new("reason", why)]))?;
    Ok(reason)
}

/// Tells the person who answers for a campaign (`author`, their email) by email, when there is
/// one and an email can go.
pub(crate) async fn tell_author(state: &AppState, author: Option<&str>, subject: &str, body: String) {
    let (Some(mailer), Some(author)) = (&state.mailer, author) else { return };
    if let Err(error) = mailer.send(author, subject, &body).await {
        tracing::warn!(%error, to = author, "the author of a campaign could not be told");
    }
}

/// `POST /campaign/:ticket/approve`: the campaign goes at the time its author asked for (or
/// at once).
#[utoipa::path(post, path = "/campaign/{ticket}/approve", tag = "campaigns",
    params(("ticket" = i64, Path, description = "The campaign's ticket")),
    responses((status = 200, description = "Approved", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn approve(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(ticket): Path<String>,
) -> Result<Response, Error> {
    let id = awaiting_campaign(&state, &caller, &ticket).await?;
    // Four eyes: whoever sent a campaign that waits (under the team's rule) does not approve
    // it, in person nor through a token they made; they may still withdraw it with a rejection.
    let sender = state.store.campaign_sender(caller.account, id).await?;
    if sender.hand.is(caller.hand()) {
        return Err(Error::OwnCampaign);
    }
    if !state.store.approve(caller.account, id, Utc::now()).await? {
        return Err(Error::Contended(format!("campaign {id} changed while it was being approved: send again")));
    }
    state.dispatch.notify_one();
    let body = format!("{} approved your campaign {id}: it is on its way.", caller.actor);
    tell_author(&state, sender.email.as_deref(), "Your campaign was approved", body).await;
    let summary = format!("campaign {id} approved");
    Ok(noted(accept.ok(&StatusResponse::ok()), format!("campaign {id}"), summary))
}

/// `POST /campaign/:ticket/reject` (`{"reason": …}`, required): the campaign is cancelled and
/// its credits given back; the author is told why.
#[utoipa::path(post, path = "/campaign/{ticket}/reject", tag = "campaigns",
    request_body = texto_core::wire::RejectRequest,
    params(("ticket" = i64, Path, description = "The campaign's ticket")),
    responses((status = 200, description = "Rejected and refunded", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn reject(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(ticket): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let reason = required_reason(&body)?;
    let id = awaiting_campaign(&state, &caller, &ticket).await?;
    state.store.cancel_campaign(caller.account, id).await?;
    state.store.note_rejection(caller.account, id, &reason).await?;
    let sender = state.store.campaign_sender(caller.account, id).await?;
    let body = format!("{} rejected your campaign {id}, and its credits were given back: {reason}", caller.actor);
    tell_author(&state, sender.email.as_deref(), "Your campaign was rejected", body).await;
    let summary = format!("campaign {id} rejected: {reason}");
    Ok(noted(accept.ok(&StatusResponse::ok()), format!("campaign {id}"), summary))
}
