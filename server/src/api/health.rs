//! `GET /health`: is the service up and its database answering?

use axum::{Json, Router, extract::State, http::StatusCode, routing::get};
use serde_json::{Value, json};

use crate::app::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new().route("/health", get(health))
}

/// 200 with `status: 1` when the database answers, 503 with `status: -99` when it does not.
async fn health(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    match state.store.ping().await {
        Ok(_) => (StatusCode::OK, Json(json!({"status": 1, "message": "OK", "database": "ok"}))),
        Err(error) => {
            tracing::error!(%error, "health check: database unavailable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({"status": -99, "message": "database unavailable", "database": "error"})),
            )
        }
    }
}
