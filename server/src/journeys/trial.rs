//! `POST /journey/:id/trial`: the way a number would go through a journey, as its contact is
//! now, to try a journey in the page before it goes live. Nothing is sent or written: its sends
//! and waits count as done at once, and what it did since a send (clicked, replied, a keyword,
//! delivered) as not yet.

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::post,
};
use chrono::Utc;
use texto_core::{
    Program,
    wire::{JourneyTrialRequest, JourneyTrialResponse, JourneyTrialStepDto},
};

use super::api::owned;
use crate::{
    Error,
    http::{Accept, auth::Caller, body::WireBody},
    state::AppState,
    store::journey_runs::ClaimedEntry,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/journey/{id}/trial", post(trial))
}

/// `POST /journey/:id/trial` (`{"number": "33612345678"}`): the steps the number would go
/// through, in order, each branch with whether its test holds for it now.
#[utoipa::path(post, path = "/journey/{id}/trial", tag = "journeys", request_body = texto_core::wire::JourneyTrialRequest,
    params(("id" = String, Path, description = "The journey's id")),
    responses((status = 200, description = "The way it would go", body = texto_core::wire::JourneyTrialResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn trial(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let journey = owned(&state, caller.account, &id).await?;
    let request: JourneyTrialRequest = body.decode()?;
    let number = super::number_of(&request.number)?;
    let now = Utc::now();
    // As if it entered now: no send yet, so nothing done since one.
    let entered = ClaimedEntry {
        id: 0,
        journey: journey.id,
        version: journey.version,
        account: caller.account,
        number,
        node: 0,
        arrived: false,
        last_ticket: None,
        last_sent_at: Some(now),
        entered_at: now,
    };
    let program = Program::of(&journey.journey);
    let mut facts = state.store.contact_facts(&entered).await?;
    for segment in program.segments() {
        if !state.store.segment_members(caller.account, segment, vec![number]).await?.is_empty() {
            facts.segments.push(segment);
        }
    }
    let steps = program
        .trial(|test| test.holds(&facts))
        .into_iter()
        .map(|(index, holds)| JourneyTrialStepDto {
            step: program.nodes[index].path.clone(),
            kind: program.nodes[index].type_name().to_owned(),
            holds,
        })
        .collect();
    Ok(accept.ok(&JourneyTrialResponse { status: 1, message: "OK".into(), steps }))
}
