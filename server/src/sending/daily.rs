//! `GET /metrics/daily` (texto's addition): an account's figures per Paris day, from
//! the counts kept as things happen (`store::daily`), for Home.

use axum::{
    Router,
    extract::{Query, State, rejection::QueryRejection},
    response::Response,
    routing::get,
};
use chrono::{Duration, NaiveDate, Utc};
use texto_core::{
    Credits, FieldError,
    wire::{DailyMetricsResponse, DayMetricsDto},
};

use crate::{
    Error,
    http::{Accept, auth::Caller, inputs::query},
    state::AppState,
    store::{DayCounts, daily::paris_day},
};

/// The longest period asked at once, in days.
const MOST_DAYS: i64 = 400;

/// The days shown when none are asked: the last 30, today included.
const DEFAULT_DAYS: i64 = 30;

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/metrics/daily", get(daily))
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub(crate) struct DailyQuery {
    date_start: Option<String>,
    date_end: Option<String>,
}

/// The day `text` names (`Y-m-d`, or the day of `Y-m-d H:i:s`).
fn day_of(name: &str, text: Option<&str>) -> Result<Option<NaiveDate>, FieldError> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else { return Ok(None) };
    let day = text.get(..10).and_then(|day| NaiveDate::parse_from_str(day, "%Y-%m-%d").ok());
    match day {
        Some(day) if text.len() == 10 || text.len() == 19 => Ok(Some(day)),
        _ => Err(FieldError::new(name, format!("{text:?} is not a day: Y-m-d"))),
    }
}

#[utoipa::path(
    get,
    path = "/metrics/daily",
    tag = "account",
    params(
        ("date_start" = Option<String>, Query, description = "From this day (Y-m-d, Paris); default 29 days before date_end"),
        ("date_end" = Option<String>, Query, description = "To this day, included; default today")
    ),
    responses((status = 200, description = "Every day of the period with its figures", body = texto_core::wire::DailyMetricsResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn daily(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    asked: Result<Query<DailyQuery>, QueryRejection>,
) -> Result<Response, Error> {
    let asked = query(asked)?;
    let today = NaiveDate::parse_from_str(&paris_day(Utc::now()), "%Y-%m-%d").unwrap_or_default();
    let (start, end) =
        (day_of("date_start", asked.date_start.as_deref()), day_of("date_end", asked.date_end.as_deref()));
    let errors: Vec<FieldError> = [&start, &end].into_iter().filter_map(|r| r.clone().err()).collect();
    if !errors.is_empty() {
        return Err(Error::Invalid(errors));
    }
    let last = end.ok().flatten().unwrap_or(today);
    let first = start.ok().flatten().unwrap_or(last - Duration::days(DEFAULT_DAYS - 1));
    let length = (last - first).num_days() + 1;
    if !(1..=MOST_DAYS).contains(&length) {
        return Err(Error::Invalid(vec![FieldError::new(
            "date_end",
            format!("the period is 1 to {MOST_DAYS} days, date_start first"),
        )]));
    }
    let counted = state.store.daily_counts(caller.account, first, last).await?;
    let mut counted = counted.into_iter().peekable();
    let days = first
        .iter_days()
        .take(length as usize)
        .map(|day| {
            let counts = match counted.peek() {
                Some((at, _)) if *at == day => counted.next().map(|(_, c)| c).unwrap_or_default(),
                _ => DayCounts::default(),
            };
            DayMetricsDto {
                date: day.to_string(),
                sent: counts.sent,
                delivered: counts.delivered,
                clicks: counts.clicks,
                replies: counts.replies,
                stops: counts.stops,
                cost: Credits::from_hundredths(counts.cost).as_f64(),
            }
        })
        .collect();
    Ok(accept.ok(&DailyMetricsResponse { status: 1, message: "OK".into(), days }))
}
