//! The HTTP interface: one module per resource, errors written in the client's format.

mod auth;
mod body;
mod campaigns;
mod format;
mod health;
mod notification;
mod openapi;
mod lists;
mod number_lists;
mod send;
mod webhooks;

use axum::{Router, extract::Request, middleware::Next, response::Response};
use texto_core::{
    FieldError,
    wire::{ErrorResponse, Format},
};

pub(crate) use auth::{rate_limiter, token_hash};
pub(crate) use format::Accept;

use crate::{Error, app::AppState, error::Failure};

/// Every endpoint of the interface (REFERENCE §2).
pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .merge(health::router())
        .merge(openapi::router())
        .merge(send::router())
        .merge(campaigns::router())
        .merge(webhooks::router())
        .merge(notification::router())
        .merge(lists::router())
        .merge(number_lists::router())
}

/// Writes error envelopes in the format the request accepts (XML when it accepts neither,
/// which is also the answer to an unacceptable `Accept`). Wraps the whole app, so extractor
/// rejections and unknown paths get the envelope too.
pub(crate) async fn render_errors(request: Request, next: Next) -> Response {
    let accept = Accept::from_headers(request.headers()).unwrap_or(Accept(Format::Xml));
    let web_app = request.uri().path().starts_with("/app");
    let mut response = next.run(request).await;
    if let Some(Failure(envelope)) = response.extensions_mut().remove::<Failure>() {
        return accept.reply(response.status(), &envelope);
    }
    // axum's own rejections (a query that does not parse, a method the path does not take)
    // come as plain text: give them the envelope too.
    if response.status().is_client_error() && !web_app {
        let status = response.status();
        let body = axum::body::to_bytes(std::mem::take(response.body_mut()), 64 * 1024).await.unwrap_or_default();
        let problem = FieldError::new("", String::from_utf8_lossy(&body).into_owned());
        return accept.reply(status, &ErrorResponse::new(-7, "Invalid request", &[problem]));
    }
    response
}

/// Paths that match no endpoint: the envelope with -5.
pub(crate) async fn not_found(request: Request) -> Error {
    Error::NotFound(format!("{} {}", request.method(), request.uri().path()))
}
