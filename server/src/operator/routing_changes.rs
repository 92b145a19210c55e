//! The operator's changes to connectors and routes, as `texto connector …` and
//! `texto route …` make them: every node picks them up within a second. Each change is written
//! in the operators' log.

use axum::{
    Extension, Router,
    extract::{Path, State},
    response::Response,
    routing::{delete, post, put},
};
use texto_core::{
    PushType,
    wire::{ConnectorRequest, CreatedResponse, NewRouteRequest, StatusResponse},
};

use crate::{
    Error,
    http::{
        Accept,
        body::WireBody,
        inputs::{flag, path_id},
    },
    operator::{
        caller::OperatorCaller,
        routing::{ConnectorName, Destination, Route},
        routing_commands::{connector_target, known_plan, still_routed, unknown_connector},
    },
    state::AppState,
    store::ConnectorConfig,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/operator/connector/{name}", put(save_connector).delete(remove_connector))
        .route("/operator/connector/{name}/enable", post(enable))
        .route("/operator/connector/{name}/disable", post(disable))
        .route("/operator/routes", post(add_route))
        .route("/operator/route/{id}", delete(remove_route))
}

/// The connector `name` names, other than `default`: -5 otherwise.
fn stored_name(name: &str) -> Result<ConnectorName, Error> {
    let not_found = || Error::NotFound(format!("connector {name}"));
    name.parse::<ConnectorName>().ok().filter(|n| !n.is_default()).ok_or_else(not_found)
}

/// `PUT /operator/connector/:name`: adds the connector or replaces its SMSC.
#[utoipa::path(put, path = "/operator/connector/{name}", tag = "operator",
    request_body = texto_core::wire::ConnectorRequest,
    params(("name" = String, Path, description = "1 to 32 letters, digits, - or _; not `default`")),
    responses((status = 200, description = "Saved: every node binds to it within a second", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn save_connector(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(name): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let asked: ConnectorRequest = body.decode()?;
    let name = name.parse::<ConnectorName>().map_err(|why| Error::invalid("name", why))?;
    let url = asked.smsc.map(|u| u.trim().to_owned()).filter(|u| !u.is_empty());
    let url = url.ok_or_else(|| Error::invalid("smsc", "required"))?;
    let target =
        connector_target(&name, &url, state.config.ca_dir.as_ref()).map_err(|why| Error::invalid("smsc", why))?;
    let enabled = flag("enabled", asked.enabled)?.unwrap_or(true);
    let shown = target.shown();
    state.store.save_connector(&ConnectorConfig { name: name.clone(), target, enabled }).await?;
    let summary = format!("connector {name} saved: {shown}{}", if enabled { "" } else { " (disabled)" });
    caller.record(&state, None, "connector.save", format!("connector {name}"), summary);
    Ok(accept.ok(&StatusResponse::ok()))
}

/// Enables or disables the connector `name`.
async fn switch(state: &AppState, caller: &OperatorCaller, name: &str, on: bool) -> Result<(), Error> {
    let name = stored_name(name)?;
    if !state.store.enable_connector(&name, on).await? {
        return Err(Error::NotFound(format!("connector {name}")));
    }
    let (action, summary) = match on {
        true => ("connector.enable", format!("connector {name} enabled")),
        false => ("connector.disable", format!("connector {name} disabled: its routes go to their next connector")),
    };
    caller.record(state, None, action, format!("connector {name}"), summary);
    Ok(())
}

/// `POST /operator/connector/:name/enable`.
#[utoipa::path(post, path = "/operator/connector/{name}/enable", tag = "operator",
    params(("name" = String, Path, description = "The connector's name")),
    responses((status = 200, description = "Enabled", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn enable(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(name): Path<String>,
) -> Result<Response, Error> {
    switch(&state, &caller, &name, true).await?;
    Ok(accept.ok(&StatusResponse::ok()))
}

/// `POST /operator/connector/:name/disable`.
#[utoipa::path(post, path = "/operator/connector/{name}/disable", tag = "operator",
    params(("name" = String, Path, description = "The connector's name")),
    responses((status = 200, description = "Disabled: unbound within a second", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn disable(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(name): Path<String>,
) -> Result<Response, Error> {
    switch(&state, &caller, &name, false).await?;
    Ok(accept.ok(&StatusResponse::ok()))
}

/// `DELETE /operator/connector/:name`: only once no route names it.
#[utoipa::path(delete, path = "/operator/connector/{name}", tag = "operator",
    params(("name" = String, Path, description = "The connector's name")),
    responses((status = 200, description = "Removed", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope (-7 while a route names it)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn remove_connector(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(name): Path<String>,
) -> Result<Response, Error> {
    let name = stored_name(&name)?;
    if let Some(why) = still_routed(state.store.as_ref(), &name).await? {
        return Err(Error::invalid("name", why));
    }
    if !state.store.remove_connector(&name).await? {
        return Err(Error::NotFound(format!("connector {name}")));
    }
    caller.record(&state, None, "connector.remove", format!("connector {name}"), format!("connector {name} removed"));
    Ok(accept.ok(&StatusResponse::ok()))
}

/// `POST /operator/routes`: a new route.
#[utoipa::path(post, path = "/operator/routes", tag = "operator",
    request_body = texto_core::wire::NewRouteRequest,
    responses((status = 200, description = "Added: its id", body = texto_core::wire::CreatedResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn add_route(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let asked: NewRouteRequest = body.decode()?;
    let connectors = asked
        .connectors
        .iter()
        .map(|name| name.trim().parse::<ConnectorName>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|why| Error::invalid("connectors", why))?;
    if let Some(why) = unknown_connector(state.store.as_ref(), &connectors).await? {
        return Err(Error::invalid("connectors", why));
    }
    let present = |field: Option<String>| field.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let destination = present(asked.destination)
        .map(|d| Destination::parse(&d))
        .transpose()
        .map_err(|why| Error::invalid("destination", why))?;
    let account = match present(asked.account) {
        Some(name) => Some(
            state
                .store
                .account_by_name(&name)
                .await?
                .ok_or_else(|| Error::invalid("account", format!("no account called {name:?}")))?,
        ),
        None => None,
    };
    let pushtype = present(asked.pushtype)
        .map(|p| PushType::parse(&p).ok_or_else(|| Error::invalid("pushtype", "alert or marketing")))
        .transpose()?;
    let plan = match present(asked.plan) {
        Some(plan) => Some(known_plan(state.store.as_ref(), &plan).await?.map_err(|why| Error::invalid("plan", why))?),
        None => None,
    };
    let priority = asked.priority.unwrap_or(0);
    let route = Route { id: 0, priority, destination, account, pushtype, plan, connectors };
    let id = state.store.add_route(&route).await?;
    let names: Vec<&str> = route.connectors.iter().map(ConnectorName::as_str).collect();
    let to = route.destination.as_ref().map_or("any destination".to_owned(), ToString::to_string);
    let summary = format!("route {id} added: {to} → {}", names.join(", "));
    caller.record(&state, None, "route.add", format!("route {id}"), summary);
    Ok(accept.ok(&CreatedResponse { status: 1, message: "OK".into(), id }))
}

/// `DELETE /operator/route/:id`.
#[utoipa::path(delete, path = "/operator/route/{id}", tag = "operator",
    params(("id" = i64, Path, description = "The route's id")),
    responses((status = 200, description = "Removed", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn remove_route(
    State(state): State<AppState>,
    Extension(caller): Extension<OperatorCaller>,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("route {id}"));
    let id = path_id(&id).ok_or_else(not_found)?;
    if !state.store.remove_route(id).await? {
        return Err(not_found());
    }
    caller.record(&state, None, "route.remove", format!("route {id}"), format!("route {id} removed"));
    Ok(accept.ok(&StatusResponse::ok()))
}
