//! `PUT /campaign/:ticket/winner` (`{"ab": {"winner": 2}}`): sends a chosen text of an A/B test
//! to its rest now, without waiting for the test's end. Answers the campaign's report.

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::put,
};
use chrono::Utc;
use texto_core::{
    FieldError,
    wire::{ReportResponse, WinnerRequest},
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody, inputs::path_id},
    sending::{
        ab_tests::{AbDecider, Choice},
        report,
    },
    state::AppState,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/campaign/{ticket}/winner", put(choose))
}

#[utoipa::path(put, path = "/campaign/{ticket}/winner", tag = "campaigns",
    params(("ticket" = String, Path, description = "The campaign ticket")),
    request_body = texto_core::wire::WinnerRequest,
    responses((status = 200, description = "The text goes to the rest: the campaign's report", body = texto_core::wire::ReportResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn choose(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(ticket): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("campaign {ticket} with an A/B test"));
    let id = path_id(&ticket).ok_or_else(not_found)?;
    let WinnerRequest { ab } = body.decode()?;
    let test = state.store.ab_test(caller.account, id).await?.ok_or_else(not_found)?;
    let texts = test.test.texts();
    let winner = match ab.winner {
        Some(n) if (1..=texts as i64).contains(&n) => (n - 1) as u8,
        other => {
            let found = other.map_or_else(|| "nothing".to_owned(), |n| n.to_string());
            return Err(Error::Invalid(vec![FieldError::new(
                "ab.winner",
                format!("must be a text of the test, 1 to {texts}, not {found}"),
            )]));
        }
    };
    let decider = AbDecider::new(state.store.clone(), state.audit.clone(), state.dispatch.clone());
    let decided = decider.decide(&test, winner, Choice::ByHand, Utc::now()).await?;
    if decided.is_none() {
        return Err(Error::Invalid(vec![FieldError::new(
            "ab.winner",
            format!("campaign {id}'s test has ended: its winner went to the rest already, or it is not sending"),
        )]));
    }
    let report = report::read(&state, &caller, &ticket).await?;
    let answer = accept.ok(&ReportResponse { status: 1, message: "OK".into(), report });
    let text = winner + 1;
    Ok(noted(answer, format!("campaign {id}"), format!("campaign {id}: text {text} goes to the rest (chosen by hand)")))
}
