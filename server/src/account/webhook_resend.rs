//! `POST /webhook/:id/log/:attempt/resend`: sends the event of a logged attempt again now, as
//! a new attempt with the same delivery id, whatever the event's state.

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::post,
};
use texto_core::{
    format_paris,
    wire::{WebhookLogEntryDto, WebhookLogResponse},
};

use crate::{
    Error,
    http::{Accept, auth::Caller, inputs::path_id},
    state::AppState,
    store::Attempt,
};

pub(crate) fn router() -> Router<AppState> {
    Router::new().route("/webhook/{id}/log/{attempt}/resend", post(resend))
}

#[utoipa::path(
    post,
    path = "/webhook/{id}/log/{attempt}/resend",
    tag = "webhooks",
    params(("id" = String, Path, description = "Webhook id"), ("attempt" = String, Path, description = "The id of a logged attempt")),
    responses((status = 200, description = "The new attempt", body = texto_core::wire::WebhookLogResponse), (status = "default", description = "Error envelope: negative status, message, details (docs/interface.md §1.1)", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = []))
)]
pub(crate) async fn resend(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path((id, attempt)): Path<(String, String)>,
) -> Result<Response, Error> {
    let not_found = || Error::NotFound(format!("attempt {attempt} of webhook {id}"));
    let (webhook, attempt_id) = path_id(&id).zip(path_id(&attempt)).ok_or_else(not_found)?;
    let event = state.store.event_of_attempt(caller.account, webhook, attempt_id).await?.ok_or_else(not_found)?;
    let Attempt { result, at, .. } = state.webhooks.resend(&event).await?;
    tracing::info!(webhook, delivery = %event.delivery_id, http_code = ?result.http_code, "webhook event resent");
    let entry = WebhookLogEntryDto {
        delivery_id: event.delivery_id.clone(),
        date: format_paris(at),
        event: event.event.clone(),
        attempt: event.attempts + 1,
        http_code: result.http_code,
        latency_ms: Some(result.latency_ms),
        error: result.error,
        body: event.body.clone(),
        id: None,
        state: None,
    };
    Ok(accept.ok(&WebhookLogResponse {
        status: 1,
        message: "OK".into(),
        log: vec![entry],
        total_records: 1,
        total_display_records: 1,
    }))
}
