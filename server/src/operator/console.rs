//! The operator's API: `/operator/…`, for the people who run texto for every
//! account, with an operator token (`texto operator create`). An account's token or session is
//! refused with 403 (-12); no valid credentials, 401.

use axum::{
    Router,
    extract::{Query, State, rejection::QueryRejection},
    response::Response,
    routing::get,
};
use chrono::{TimeDelta, Utc};
use texto_core::wire::{
    ConnectorDto, ConnectorStatusDto, OperatorAccountDto, OperatorAccountsResponse, OperatorConnectorsResponse,
    OperatorRoutesResponse, RouteDto, TrafficDto, TrafficResponse,
};

use crate::{
    Error,
    account::{audit::AuditQuery, audit_log::PLATFORM_LOG},
    http::Accept,
    operator::routing::{ConnectorName, DEFAULT_CONNECTOR},
    state::AppState,
    store::{ConnectorStatus, plans::SHIPPED},
};

/// A status older than this is not from a running node.
const LIVE_FOR: TimeDelta = TimeDelta::seconds(5);

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/operator/accounts", get(accounts))
        .route("/operator/connectors", get(connectors))
        .route("/operator/routes", get(routes))
        .route("/operator/traffic", get(traffic))
        .route("/operator/audit", get(audit))
}

/// `GET /operator/audit`: what operators did, newest first (the filters of `GET /audit`).
#[utoipa::path(get, path = "/operator/audit", tag = "operator",
    params(("start" = Option<i64>, Query), ("length" = Option<i64>, Query), ("actor" = Option<String>, Query, description = "`operator NAME`"),
        ("action" = Option<String>, Query, description = "An action (connector.save) or its family (connector)"),
        ("date_start" = Option<String>, Query), ("date_end" = Option<String>, Query)),
    responses((status = 200, description = "The operators' log", body = texto_core::wire::AuditResponse), (status = "default", description = "Error envelope (403 -12 for an account's token)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn audit(
    State(state): State<AppState>,
    accept: Accept,
    asked: Result<Query<AuditQuery>, QueryRejection>,
) -> Result<Response, Error> {
    crate::account::audit::page_of(&state, PLATFORM_LOG, accept, asked).await
}

/// `GET /operator/accounts`: every account with its balance, plan, parent and webhook backlog.
#[utoipa::path(get, path = "/operator/accounts", tag = "operator",
    responses((status = 200, description = "Every account", body = texto_core::wire::OperatorAccountsResponse), (status = "default", description = "Error envelope (403 -12 for an account's token)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn accounts(State(state): State<AppState>, accept: Accept) -> Result<Response, Error> {
    let backlog: std::collections::HashMap<_, _> = state.store.webhook_backlog().await?.into_iter().collect();
    let accounts = state
        .store
        .account_overviews()
        .await?
        .into_iter()
        .map(|a| OperatorAccountDto {
            id: a.id,
            name: a.name,
            credits: a.balance.as_f64(),
            plan: a.plan.unwrap_or_else(|| SHIPPED.to_owned()),
            parent: a.parent,
            webhook_backlog: backlog.get(&a.id).copied().unwrap_or(0),
            moderated: i64::from(a.moderated),
            per_second: a.per_second,
            suspended: i64::from(a.suspended),
        })
        .collect();
    Ok(accept.ok(&OperatorAccountsResponse { status: 1, message: "OK".into(), accounts }))
}

/// `GET /operator/connectors`: every connector with the live status each node reports.
#[utoipa::path(get, path = "/operator/connectors", tag = "operator",
    responses((status = 200, description = "The connectors", body = texto_core::wire::OperatorConnectorsResponse), (status = "default", description = "Error envelope (403 -12 for an account's token)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn connectors(State(state): State<AppState>, accept: Accept) -> Result<Response, Error> {
    let statuses = state.store.connector_statuses(Utc::now() - LIVE_FOR).await?;
    let nodes = |name: &ConnectorName| statuses.iter().filter(|s| s.name == *name).map(status_dto).collect();
    let default = ConnectorName::default_connector();
    let mut connectors = vec![ConnectorDto {
        name: DEFAULT_CONNECTOR.into(),
        smsc: "--smsc".into(),
        enabled: 1,
        nodes: nodes(&default),
    }];
    for config in state.store.connectors().await? {
        connectors.push(ConnectorDto {
            name: config.name.to_string(),
            smsc: config.target.shown(),
            enabled: i64::from(config.enabled),
            nodes: nodes(&config.name),
        });
    }
    Ok(accept.ok(&OperatorConnectorsResponse { status: 1, message: "OK".into(), connectors }))
}

fn status_dto(status: &ConnectorStatus) -> ConnectorStatusDto {
    let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    ConnectorStatusDto {
        node: status.node.clone(),
        binds_up: count(status.binds_up),
        binds: count(status.binds),
        in_flight: count(status.in_flight),
        per_second: status.per_second,
        handed: count(status.handed),
        errors: count(status.errors),
        last_error: status.last_error.clone(),
        receipts_outstanding: count(status.receipts_outstanding),
    }
}

/// `GET /operator/traffic`: messages handed to each connector per minute over the last hour.
#[utoipa::path(get, path = "/operator/traffic", tag = "operator",
    responses((status = 200, description = "The last hour", body = texto_core::wire::TrafficResponse), (status = "default", description = "Error envelope (403 -12 for an account's token)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn traffic(State(state): State<AppState>, accept: Accept) -> Result<Response, Error> {
    let since = Utc::now() - TimeDelta::hours(1);
    let traffic = state
        .store
        .traffic(since)
        .await?
        .into_iter()
        .map(|(minute, connector, handed)| TrafficDto { minute, connector, handed, per_second: handed as f64 / 60.0 })
        .collect();
    Ok(accept.ok(&TrafficResponse { status: 1, message: "OK".into(), traffic }))
}

/// `GET /operator/routes`: the routes in the order they are tried.
#[utoipa::path(get, path = "/operator/routes", tag = "operator",
    responses((status = 200, description = "The routes", body = texto_core::wire::OperatorRoutesResponse), (status = "default", description = "Error envelope (403 -12 for an account's token)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn routes(State(state): State<AppState>, accept: Accept) -> Result<Response, Error> {
    let routes = state
        .store
        .routes()
        .await?
        .into_iter()
        .map(|record| RouteDto {
            id: record.route.id,
            priority: record.route.priority,
            destination: record.route.destination.as_ref().map(ToString::to_string),
            account: record.account_name,
            pushtype: record.route.pushtype.map(|p| p.as_str().to_owned()),
            plan: record.route.plan,
            connectors: record.route.connectors.iter().map(ToString::to_string).collect(),
        })
        .collect();
    Ok(accept.ok(&OperatorRoutesResponse { status: 1, message: "OK".into(), routes }))
}
