//! Request bodies: the text and the format it is written in, read within the body limit and
//! time-out, and at most a few large ones decoded at once.

use std::time::Duration;

use axum::{
    body::Bytes,
    extract::{FromRequest, Request},
    http::{HeaderMap, header},
};
use http_body_util::LengthLimitError;
use texto_core::{
    FieldError,
    wire::{Document, Format, Limits, decode_sms_with, decode_with},
};
use tokio::sync::OwnedSemaphorePermit;
use tower_http::timeout::TimeoutError;

use crate::{Error, http::access::PublicRoute, state::AppState};

/// A request body as text, with its format (docs/interface.md §1.2): `Content-Type` JSON or XML, the
/// legacy form post `data=<json>`, or sniffed when the type is missing.
pub(crate) struct WireBody {
    /// JSON or XML.
    pub(crate) format: Format,
    /// The document.
    pub(crate) text: String,
    /// The count limits of the server (`--max-recipients`), enforced while decoding.
    limits: Limits,
    /// A share of the large-body cap, held while the body is decoded (`None` for small bodies).
    _large: Option<OwnedSemaphorePermit>,
}

/// Bodies over this size count against the cap on large bodies decoded at once.
const LARGE_BODY_BYTES: usize = 1024 * 1024;
/// The most a route without credentials reads (signing in, a one-time link, asking for a
/// reset): its documents are a few hundred bytes, and anyone may send them.
pub(crate) const PUBLIC_BODY_BYTES: usize = 16 * 1024;
/// How long a large body waits for its turn before the client is told to retry (503).
const LARGE_BODY_WAIT: Duration = Duration::from_secs(1);

impl WireBody {
    /// Decodes the body as a send request (the fast reader for large XML ones).
    pub(crate) fn decode_sms(&self) -> Result<texto_core::wire::SmsRequest<'_>, Error> {
        Ok(decode_sms_with(&self.text, self.format, self.limits)?)
    }

    /// Decodes the body as `T`.
    pub(crate) fn decode<'a, T: Document + serde::Deserialize<'a>>(&'a self) -> Result<T, Error> {
        Ok(decode_with(&self.text, self.format, self.limits)?)
    }
}

impl FromRequest<AppState> for WireBody {
    type Rejection = Error;

    async fn from_request(request: Request, state: &AppState) -> Result<WireBody, Error> {
        let content_type = content_type(request.headers());
        let limit = body_limit(&request, state);
        // A body announced over the limit is refused before a byte of it is read; one sent in
        // chunks is cut off once the limit is passed.
        if declared_length(request.headers()).is_some_and(|length| length > limit as u64) {
            return Err(Error::TooLarge(limit));
        }
        // The time-out bounds the whole body's arrival; the layer in `app` bounds each wait for
        // a piece too, so a client that stops sending is cut off as soon as one that trickles.
        let whole_body = Duration::from_secs(state.config.body_read_timeout_secs);
        let bytes = tokio::time::timeout(whole_body, axum::body::to_bytes(request.into_body(), limit))
            .await
            .map_err(|_| Error::BodyTimeout(state.config.body_read_timeout_secs))?
            .map_err(|e| read_error(&e, state, limit))?;
        // Read first (the body limit bounds it), so the 503 is an answer to a whole request
        // rather than a reset of a connection whose body was left unread.
        let large = large_body_permit(state, bytes.len()).await?;
        let text = utf8(bytes)?;
        let limits = Limits::items(state.config.max_recipients);
        let (format, text) = match content_type.as_deref() {
            Some("application/json") => (Format::Json, text),
            Some("application/xml" | "text/xml") => (Format::Xml, text),
            // `curl -d '{...}'` labels a raw document as a form: a body that is a document is read as one.
            Some("application/x-www-form-urlencoded")
                if !text.trim_start_matches('\u{feff}').trim_start().starts_with(['{', '<']) =>
            {
                (Format::Json, form_data(&text)?)
            }
            _ => (Format::sniff(&text), text),
        };
        Ok(WireBody { format, text, limits, _large: large })
    }
}

/// A body that is JSON (`Content-Type: application/json`) or empty; any other is refused (415)
/// before it is read. Signing in takes only this, so that no form of another site's page,
/// which can only post a form or plain text, signs a browser in.
pub(crate) struct JsonBody(pub(crate) WireBody);

impl FromRequest<AppState> for JsonBody {
    type Rejection = Error;

    async fn from_request(request: Request, state: &AppState) -> Result<JsonBody, Error> {
        let json = content_type(request.headers()).as_deref() == Some("application/json");
        if !json && !has_no_body(request.headers()) {
            return Err(Error::NotJson);
        }
        WireBody::from_request(request, state).await.map(JsonBody)
    }
}

/// Whether the request comes without a body: HTTP/1.1 sends one only with a `Content-Length`
/// or a `Transfer-Encoding`.
fn has_no_body(headers: &HeaderMap) -> bool {
    !headers.contains_key(header::TRANSFER_ENCODING) && declared_length(headers).unwrap_or(0) == 0
}

/// The media type of `Content-Type`, lowercase and without its parameters.
fn content_type(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or_default().trim().to_ascii_lowercase())
}

/// What the request's route reads at most: [`PUBLIC_BODY_BYTES`] for a route without
/// credentials, `--max-body-bytes` for the others.
fn body_limit(request: &Request, state: &AppState) -> usize {
    if request.extensions().get::<PublicRoute>().is_some() {
        PUBLIC_BODY_BYTES.min(state.config.max_body_bytes)
    } else {
        state.config.max_body_bytes
    }
}

/// The body's `Content-Length`, when it has a readable one.
fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers.get(header::CONTENT_LENGTH)?.to_str().ok()?.trim().parse().ok()
}

/// A permit of the large-body cap when `size` is over [`LARGE_BODY_BYTES`]; 503 (`Busy`)
/// when none frees up within [`LARGE_BODY_WAIT`].
async fn large_body_permit(state: &AppState, size: usize) -> Result<Option<OwnedSemaphorePermit>, Error> {
    if size <= LARGE_BODY_BYTES {
        return Ok(None);
    }
    let wait = tokio::time::timeout(LARGE_BODY_WAIT, state.large_bodies.clone().acquire_owned()).await;
    match wait {
        Ok(Ok(permit)) => Ok(Some(permit)),
        _ => Err(Error::Busy(LARGE_BODY_WAIT.as_secs())),
    }
}

/// What went wrong reading the body, told by the error's type: over `limit` (413), too slow
/// (408), or anything else — broken chunked framing, a body shorter than its length — (400).
fn read_error(error: &axum::Error, state: &AppState, limit: usize) -> Error {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    let mut text = Vec::new();
    while let Some(current) = cause {
        if current.is::<LengthLimitError>() {
            return Error::TooLarge(limit);
        }
        if current.is::<TimeoutError>() {
            return Error::BodyTimeout(state.config.body_read_timeout_secs);
        }
        text.push(current.to_string());
        cause = current.source();
    }
    text.dedup();
    Error::BadBody(text.join(": "))
}

fn utf8(bytes: Bytes) -> Result<String, Error> {
    String::from_utf8(Vec::from(bytes)).map_err(|e| {
        Error::Invalid(vec![FieldError::new(
            "",
            format!("the body is not UTF-8 (byte {})", e.utf8_error().valid_up_to()),
        )])
    })
}

/// The `data` field of a form post, which holds the JSON document.
fn form_data(form: &str) -> Result<String, Error> {
    form_urlencoded::parse(form.as_bytes())
        .find(|(key, _)| key == "data")
        .map(|(_, value)| value.into_owned())
        .ok_or_else(|| {
            Error::Invalid(vec![FieldError::new("data", "a form post carries the JSON document in the field data")])
        })
}
