//! `GET /s/{code}`: a short link. Answers 302 to its long URL, counts the click and raises
//! CLICKER with the phone's brand, model and OS; an unknown code is a plain 404 page. No token:
//! recipients click these.

use axum::{
    Router,
    extract::{Path, State},
    http::{HeaderMap, StatusCode, header},
    response::{Html, IntoResponse, Response},
    routing::get,
};
use chrono::Utc;

use crate::{state::AppState, store::Click};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/s/{code}", get(follow))
}

/// The page of a code that leads nowhere.
const UNKNOWN: &str = "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Link not found</title>\
<h1>Link not found</h1><p>This short link does not exist or has expired.</p></html>";

async fn follow(State(state): State<AppState>, Path(code): Path<String>, headers: HeaderMap) -> Response {
    let Some((message_id, link)) = state.codes.decode(&code) else { return not_found() };
    let user_agent = headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let device = match state.devices.remembered(&user_agent) {
        Some(device) => device,
        None => {
            let devices = std::sync::Arc::clone(&state.devices);
            tokio::task::spawn_blocking(move || devices.device(&user_agent)).await.unwrap_or_default()
        }
    };
    let click = Click { message_id, link, device, short_url: state.message.short_url(&code) };
    match state.store.click(click, Utc::now()).await {
        Ok(Some(followed)) => (
            StatusCode::FOUND,
            [(header::LOCATION, followed.target(&code)), (header::CACHE_CONTROL, "no-store".to_owned())],
        )
            .into_response(),
        Ok(None) => not_found(),
        Err(error) => {
            tracing::error!(%error, "a click could not be stored");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, "1")],
                Html("<!doctype html><title>Try again</title><p>Please try again in a moment.</p>"),
            )
                .into_response()
        }
    }
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, Html(UNKNOWN)).into_response()
}
