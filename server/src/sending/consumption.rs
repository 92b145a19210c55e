//! `GET /metrics/consumption`: the messages an account had handed to the carrier over a period,
//! by country.

use axum::{
    Router,
    extract::{Query, State, rejection::QueryRejection},
    response::Response,
    routing::get,
};
use texto_core::{
    Country, PeriodBound,
    wire::{AccountConsumptionDto, ConsumptionDto, ConsumptionResponse, CountryConsumptionDto},
};

use crate::{
    Error,
    http::{
        Accept,
        auth::Caller,
        inputs::{QueryFields, query},
    },
    state::AppState,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/metrics/consumption", get(consumption))
}

/// The query: the period (both bounds required), countries (comma-separated ISO codes) and a
/// sub-account of the caller's (another id is -5).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub(crate) struct ConsumptionQuery {
    date_start: Option<String>,
    date_end: Option<String>,
    country: Option<String>,
    sub_account_id: Option<String>,
}

#[utoipa::path(
    get,
    path = "/metrics/consumption",
    tag = "account",
    params(
        ("date_start" = String, Query, description = "From this day (Y-m-d, or Y-m-d H:i:s; Paris); required"),
        ("date_end" = String, Query, description = "To this day, included; required"),
        ("country" = Option<String>, Query, description = "Only these countries: ISO codes, comma-separated (FR,BE)"),
        ("sub_account_id" = Option<String>, Query, description = "One of the caller's sub-accounts: its figures instead")
    ),
    responses((status = 200, description = "Messages handed to the carrier in the period, by country", body = texto_core::wire::ConsumptionResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn consumption(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    asked: Result<Query<ConsumptionQuery>, QueryRejection>,
) -> Result<Response, Error> {
    let asked = query(asked)?;
    // `sub_account_id`: the figures of one of the caller's sub-accounts instead.
    let account = match asked.sub_account_id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(id) => {
            let not_found = || Error::NotFound(format!("sub-account {id}"));
            let id = crate::http::inputs::path_id(id).ok_or_else(not_found)?;
            state.store.sub_account(caller.account, id).await?.ok_or_else(not_found)?.id
        }
        None => caller.account,
    };
    let mut fields = QueryFields::default();
    let from = fields.period_bound_of("date_start", asked.date_start.as_deref(), PeriodBound::Start, true);
    let until = fields.period_bound_of("date_end", asked.date_end.as_deref(), PeriodBound::End, true);
    let mut countries = Vec::new();
    for code in asked.country.as_deref().unwrap_or_default().split(',').map(str::trim).filter(|c| !c.is_empty()) {
        match Country::from_iso2(&code.to_ascii_uppercase()) {
            Some(country) => countries.push(country),
            None => fields.refuse("country", code, "an ISO 3166 country code such as FR"),
        }
    }
    let (from, until) = fields.finish((from.unwrap_or_default(), until.unwrap_or_default()))?;
    let rows = state.store.consumption(account, from, until, &countries).await?;
    let total = rows.iter().map(|row| row.messages).sum();
    let company = state.store.account_name(account).await?;
    let mut by_sub_accounts = Vec::new();
    for sub_account in state.store.sub_accounts(account).await? {
        let rows = state.store.consumption(sub_account.id, from, until, &countries).await?;
        let conso = rows.iter().map(|row| row.messages).sum();
        by_sub_accounts.push(AccountConsumptionDto { account_id: sub_account.id, company: sub_account.name, conso });
    }
    Ok(accept.ok(&ConsumptionResponse {
        status: 1,
        message: "OK".into(),
        data: ConsumptionDto {
            total,
            by_country: rows
                .into_iter()
                .map(|row| CountryConsumptionDto { country: row.country, total: row.messages, cost: row.cost.as_f64() })
                .collect(),
            my_account: AccountConsumptionDto { account_id: account, company, conso: total },
            by_sub_accounts,
        },
    }))
}
