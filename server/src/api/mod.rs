//! The HTTP interface: one module per resource, errors written in the client's format.

mod auth;
mod body;
mod campaigns;
mod format;
mod health;
mod lists;
mod number_lists;
mod send;

use axum::{Router, extract::Request, middleware::Next, response::Response};
use texto_core::wire::Format;

pub(crate) use auth::{rate_limiter, token_hash};
pub(crate) use format::Accept;

use crate::{Error, app::AppState, error::Failure};

/// Every endpoint of the interface (REFERENCE §2).
pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .merge(health::router())
        .merge(send::router())
        .merge(campaigns::router())
        .merge(lists::router())
        .merge(number_lists::router())
}

/// Writes error envelopes in the format the request accepts (XML when it accepts neither,
/// which is also the answer to an unacceptable `Accept`). Wraps the whole app, so extractor
/// rejections and unknown paths get the envelope too.
pub(crate) async fn render_errors(request: Request, next: Next) -> Response {
    let accept = Accept::from_headers(request.headers()).unwrap_or(Accept(Format::Xml));
    let mut response = next.run(request).await;
    match response.extensions_mut().remove::<Failure>() {
        Some(Failure(envelope)) => accept.reply(response.status(), &envelope),
        None => response,
    }
}

/// Paths that match no endpoint: the envelope with -5.
pub(crate) async fn not_found(request: Request) -> Error {
    Error::NotFound(format!("{} {}", request.method(), request.uri().path()))
}
