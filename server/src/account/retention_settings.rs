//! `GET` and `PUT /retention`: how long the account keeps its data (the retention pass,
//! `crate::account::retention`, removes what is older).

use axum::{Router, extract::State, response::Response, routing::get};
use texto_core::{
    FieldError, RetentionPeriod,
    wire::{RetentionDto, RetentionPeriodsDto, RetentionRequest, RetentionResponse},
};

use crate::{
    Error,
    http::{Accept, auth::Caller, body::WireBody},
    state::AppState,
    store::RetentionSettings,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/retention", get(show).put(save))
}

/// The wire's names of the six periods, in the order of `RetentionSettings::periods`.
const KEYS: [&str; 6] = ["message", "list", "survey", "campaign", "mo", "lookup"];

fn answer(accept: Accept, settings: &RetentionSettings) -> Response {
    let periods = RetentionPeriodsDto::of(settings.periods().map(|p| p.map(|p| p.to_string()).unwrap_or_default()));
    accept.ok(&RetentionResponse {
        status: 1,
        message: "OK".into(),
        data_retention: periods.clone(),
        retention: periods,
    })
}

/// `current` changed by `asked`: a field left out keeps its period, an empty one (or `0`)
/// keeps that data for good; -7 names each period that does not read.
fn changed(current: RetentionSettings, asked: RetentionDto) -> Result<RetentionSettings, Error> {
    let RetentionDto { message, list, survey, campaign, mo, lookup } = asked;
    let mut periods = current.periods();
    let mut problems = Vec::new();
    for (i, value) in [message, list, survey, campaign, mo, lookup].into_iter().enumerate() {
        let Some(value) = value else { continue };
        periods[i] = match value.trim() {
            "" | "0" => None,
            text => match text.parse::<RetentionPeriod>() {
                Ok(period) => Some(period),
                Err(why) => {
                    problems.push(FieldError::new(format!("retention.{}", KEYS[i]), why));
                    continue;
                }
            },
        };
    }
    if problems.is_empty() { Ok(RetentionSettings::from_periods(periods)) } else { Err(Error::Invalid(problems)) }
}

#[utoipa::path(
    get,
    path = "/retention",
    tag = "account",
    responses((status = 200, description = "How long each kind of data is kept (empty: for good)", body = texto_core::wire::RetentionResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn show(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    Ok(answer(accept, &state.store.retention(caller.account).await?))
}

#[utoipa::path(
    put,
    path = "/retention",
    tag = "account",
    request_body = texto_core::wire::RetentionRequest,
    responses((status = 200, description = "The periods as stored", body = texto_core::wire::RetentionResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn save(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let RetentionRequest { retention } = body.decode()?;
    let settings = changed(state.store.retention(caller.account).await?, retention)?;
    state.store.set_retention(caller.account, settings).await?;
    tracing::info!(?settings, "retention periods changed");
    Ok(answer(accept, &settings))
}
