//! `GET /prices` (texto's addition): the caller's price plan, which its sends and
//! simulations are charged by; the web app loads it once for its in-page simulation.

use axum::{Router, extract::State, response::Response, routing::get};
use texto_core::wire::PricesResponse;

use crate::{
    Error,
    http::{Accept, auth::Caller},
    state::AppState,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/prices", get(prices))
}

/// `GET /prices`: credits per SMS part by country, and for the others.
#[utoipa::path(get, path = "/prices", tag = "account",
    responses((status = 200, description = "The account's price plan", body = texto_core::wire::PricesResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn prices(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let (plan, table) = state.plans.for_account(caller.account);
    Ok(accept.ok(&PricesResponse::new(&plan, &table)))
}
