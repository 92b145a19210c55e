//! The HTTP layer: the router of every domain's routes, the access table, bodies and formats,
//! errors written in the client's format, health, the OpenAPI document, the web app and the
//! metrics endpoint.

pub(crate) mod access;
pub(crate) mod auth;
pub(crate) mod body;
mod errors;
pub(crate) mod format;
mod health;
pub(crate) mod inputs;
pub(crate) mod metrics_endpoint;
mod openapi;
pub(crate) mod same_site;
pub(crate) mod web_app;

pub(crate) use crate::http::access::authorize;

use axum::{
    Router,
    extract::{Request, State},
    http::{StatusCode, header},
    middleware::Next,
    response::Response,
};
use texto_core::{
    FieldError,
    wire::{ErrorResponse, Format},
};

pub(crate) use crate::http::auth::rate_limiter;
pub(crate) use crate::http::format::Accept;

use crate::{Error, http::errors::Failure, state::AppState, store::HttpErrors};

/// Every endpoint of the interface (docs/interface.md §2).
pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .merge(health::router())
        .merge(openapi::router())
        .merge(crate::sending::router())
        .merge(crate::audience::router())
        .merge(crate::inbox::router())
        .merge(crate::journeys::router())
        .merge(crate::signup::router())
        .merge(crate::team::router())
        .merge(crate::account::router())
        .merge(crate::operator::router())
}

/// Writes error envelopes in the format the request accepts (XML when it accepts neither,
/// which is also the answer to an unacceptable `Accept`). Wraps the whole app, so extractor
/// rejections and unknown paths get the envelope too.
///
/// With `http_errors` off (the token's setting, or the server's for a request without a valid
/// token) every error envelope comes as HTTP 200, as SMSFactor answers (docs/interface.md §9).
pub(crate) async fn render_errors(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let accept = Accept::from_headers(request.headers()).unwrap_or(Accept(Format::Xml));
    let envelopes = !is_page(request.uri().path());
    let statuses = crate::http::auth::ErrorStatuses::default();
    request.extensions_mut().insert(statuses.clone());
    let authorization = request.headers().get(header::AUTHORIZATION).cloned();
    let response = envelope_of(accept, request, next).await;
    let failed = response.status().is_client_error() || response.status().is_server_error();
    let http_errors = match statuses.0.get().copied() {
        Some(choice) => Some(choice),
        // No handler read the token (an unknown path, a method not allowed): its own setting
        // still decides, so that an SDK reads these errors too.
        None if failed && envelopes => crate::http::auth::token_choice(&state, authorization.as_ref()).await,
        None => None,
    }
    .unwrap_or(state.config.http_errors);
    match http_errors {
        HttpErrors::Off
            if envelopes && (response.status().is_client_error() || response.status().is_server_error()) =>
        {
            let mut response = response;
            *response.status_mut() = StatusCode::OK;
            response
        }
        _ => response,
    }
}

/// The app's answer to `request`, with an error envelope for every error.
async fn envelope_of(accept: Accept, request: Request, next: Next) -> Response {
    let web_app = is_page(request.uri().path());
    let (method, path) = (request.method().clone(), request.uri().path().to_owned());
    let mut response = next.run(request).await;
    if let Some(Failure(envelope)) = response.extensions_mut().remove::<Failure>() {
        return with_headers_of(&response, accept.reply(response.status(), &envelope));
    }
    let status = response.status();
    if status == StatusCode::METHOD_NOT_ALLOWED {
        let problem = FieldError::new("", format!("{method} is not allowed on {path}"));
        return with_headers_of(
            &response,
            accept.reply(status, &ErrorResponse::new(-7, "Method not allowed", &[problem])),
        );
    }
    // axum's other rejections come as plain text: give them the envelope too.
    if status.is_client_error() && !web_app {
        let body = axum::body::to_bytes(std::mem::take(response.body_mut()), 64 * 1024).await.unwrap_or_default();
        let problem = FieldError::new("", String::from_utf8_lossy(&body).into_owned());
        return accept.reply(status, &ErrorResponse::new(-7, "Invalid request", &[problem]));
    }
    response
}

/// The web app and short links answer pages, not envelopes.
fn is_page(path: &str) -> bool {
    path.starts_with("/app") || path.starts_with("/s/") || path.starts_with("/join/")
}

/// `reply` with the headers of `original` that tell the client what to do next (`Allow` of a
/// 405, `Retry-After` of a 503).
fn with_headers_of(original: &Response, mut reply: Response) -> Response {
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(value) = original.headers().get(&name) {
            reply.headers_mut().insert(name, value.clone());
        }
    }
    reply
}

/// Paths that match no endpoint: the envelope with -5.
pub(crate) async fn not_found(request: Request) -> Error {
    Error::NotFound(format!("{} {}", request.method(), request.uri().path()))
}
