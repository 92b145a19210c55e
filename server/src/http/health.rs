//! `GET /health`: is the service up and its database answering?

use axum::{Json, Router, extract::State, http::StatusCode, routing::get};
use serde_json::{Value, json};

use crate::{Error, state::AppState};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/health", get(health))
}

/// 200 with `status: 1` when the database answers and takes a write; 503 with `status: -11`
/// and the cause (`"database": "full"`, `"cannot write"`, `"unreachable"`) when it does not.
async fn health(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    let error = match state.store.ping().await {
        Ok(()) => return (StatusCode::OK, Json(json!({"status": 1, "message": "OK", "database": "ok"}))),
        Err(error) => error,
    };
    tracing::error!(%error, "health check: the database cannot serve");
    let (message, database) = match &error {
        Error::DatabaseDown(fault) => (fault.to_string(), fault.short_name()),
        _ => ("the database is unavailable".to_owned(), "error"),
    };
    (StatusCode::SERVICE_UNAVAILABLE, Json(json!({"status": -11, "message": message, "database": database})))
}
