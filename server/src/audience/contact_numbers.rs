//! `GET /contacts/numbers` (texto's addition): the numbers of the contacts that
//! `GET /contacts`' filters keep, without their cards, for pages that need no more.

use axum::{
    Router,
    extract::{Query, State, rejection::QueryRejection},
    response::Response,
    routing::get,
};
use texto_core::wire::ContactNumbersResponse;

use crate::{
    Error,
    audience::contacts::ContactsQuery,
    http::{Accept, auth::Caller, inputs::query},
    state::AppState,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/contacts/numbers", get(numbers))
}

/// `GET /contacts/numbers`: the same query as `GET /contacts`.
#[utoipa::path(get, path = "/contacts/numbers", tag = "contacts",
    params(
        ("start" = Option<i64>, Query, description = "First record (default 0)"),
        ("length" = Option<i64>, Query, description = "Records per page (default 100, at most 1000)"),
        ("segment" = Option<String>, Query, description = "Only those in this saved segment (and every filter of GET /contacts)")
    ),
    responses((status = 200, description = "The numbers", body = texto_core::wire::ContactNumbersResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn numbers(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    asked: Result<Query<ContactsQuery>, QueryRejection>,
) -> Result<Response, Error> {
    let filter = query(asked)?.filter(&state, caller.account).await?;
    let (cards, total) = state.store.contacts(caller.account, filter).await?;
    Ok(accept.ok(&ContactNumbersResponse {
        status: 1,
        message: "OK".into(),
        numbers: cards.iter().map(|card| card.number.to_string()).collect(),
        total_records: total,
    }))
}
