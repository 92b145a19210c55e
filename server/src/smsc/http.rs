//! The simulator's HTTP face: `GET /messages`, `POST /mo`, `POST /outage`, `GET /status` (plain JSON, no auth).

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::Shared;
use super::outage::Mode;
use super::session::{MoError, deliver_mo};

/// The listing when `limit` is not given.
const DEFAULT_LIMIT: usize = 100;

/// The routes, on the simulator's shared state.
pub(super) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/messages", get(messages))
        .route("/mo", post(mo))
        .route("/outage", post(outage))
        .route("/status", get(status))
        .with_state(shared)
}

#[derive(Debug, Deserialize)]
struct MessagesQuery {
    destination: Option<String>,
    limit: Option<usize>,
}

/// What the simulator received, newest first.
async fn messages(State(shared): State<Arc<Shared>>, Query(query): Query<MessagesQuery>) -> Json<Value> {
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    let messages = shared.store().list(query.destination.as_deref(), limit);
    Json(json!({ "messages": messages }))
}

#[derive(Debug, Deserialize)]
struct MoRequest {
    from: String,
    text: String,
}

/// A reply from a handset: 200 when handed to a bind, 409 when no ESME is bound.
async fn mo(State(shared): State<Arc<Shared>>, Json(request): Json<MoRequest>) -> (StatusCode, Json<Value>) {
    match deliver_mo(&shared, &request.from, &request.text) {
        Ok(()) => (StatusCode::OK, Json(json!({ "delivered": true }))),
        Err(MoError::NotBound) => (StatusCode::CONFLICT, Json(json!({ "error": "no ESME is bound" }))),
        Err(MoError::TooLong) => (
            StatusCode::BAD_REQUEST,
            Json(json!({ "error": "from does not fit in a deliver_sm, or text in 255 parts" })),
        ),
    }
}

#[derive(Debug, Deserialize)]
struct OutageRequest {
    seconds: u64,
    mode: Mode,
}

/// Starts an outage.
async fn outage(State(shared): State<Arc<Shared>>, Json(request): Json<OutageRequest>) -> Json<Value> {
    shared.outage.start(request.mode, request.seconds);
    Json(json!({ "mode": request.mode, "seconds": request.seconds }))
}

/// `GET /status`: binds up, deliver_sm not yet answered (or waiting for a bind), and
/// messages received.
async fn status(State(shared): State<Arc<Shared>>) -> Json<Value> {
    let binds = shared.binds().len();
    Json(json!({ "binds": binds, "undelivered": shared.undelivered(), "received": shared.store().received() }))
}
