//! The price plans: `GET /operator/plans` lists them with their prices, and
//! `PUT /operator/plan/:name` creates one or replaces its prices, as `texto plan set` does;
//! every node prices with the change within a second. Each change is in the operators' log.

use axum::{
    Extension, Router,
    extract::{Path, State},
    response::Response,
    routing::{get, put},
};
use texto_core::{
    PriceTable,
    wire::{PlanPricesDto, PlanRequest, PlansResponse, StatusResponse},
};

use crate::{
    Error,
    http::{Accept, body::WireBody},
    operator::{
        caller::OperatorCaller,
        plan_commands::{plan_name, plan_saved, wire_prices},
    },
    state::AppState,
    store::plans::SHIPPED,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/operator/plans", get(plans)).route("/operator/plan/{name}", put(save))
}

/// `GET /operator/plans`: the plans an account may be put on, with their prices.
#[utoipa::path(get, path = "/operator/plans", tag = "operator",
    responses((status = 200, description = "The plans, `shipped` first", body = texto_core::wire::PlansResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn plans(State(state): State<AppState>, accept: Accept) -> Result<Response, Error> {
    let mut tables = vec![(SHIPPED.to_owned(), PriceTable::default())];
    tables.extend(state.store.plans().await?);
    let plans = tables.iter().map(|(name, _)| name.clone()).collect();
    let prices = tables.iter().map(|(name, table)| PlanPricesDto::new(name, table)).collect();
    Ok(accept.ok(&PlansResponse { status: 1, message: "OK".into(), plans, prices }))
}

/// `PUT /operator/plan/:name` with `{"countries": [{"country": "FR", "price": 0.5}], "other": 3}`.
#[utoipa::path(put, path = "/operator/plan/{name}", tag = "operator",
    request_body = texto_core::wire::PlanRequest,
    params(("name" = String, Path, description = "1 to 64 characters, not `shipped`")),
    responses((status = 200, description = "Saved: every node prices with it within a second", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn save(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(name): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let asked: PlanRequest = body.decode()?;
    plan_name(&name).map_err(|why| Error::invalid("name", why))?;
    let table = wire_prices(&asked.countries, asked.other).map_err(Error::Invalid)?;
    state.store.save_plan(&name, &table).await?;
    caller.record(&state, None, "plan.save", format!("plan {name}"), plan_saved(&name, &table));
    Ok(accept.ok(&StatusResponse::ok()))
}
