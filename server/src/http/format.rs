//! Content negotiation: the answer's format from `Accept`, and writing documents in it.

use axum::{
    extract::FromRequestParts,
    http::{HeaderMap, StatusCode, header, request::Parts},
    response::{IntoResponse, Response},
};
use texto_core::wire::{Document, Format, encode};

use crate::Error;

/// The format the client accepts (docs/interface.md §1.3): JSON or XML; missing or `*/*` is XML.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Accept(pub(crate) Format);

impl Accept {
    /// Reads `Accept`; `Err` carries the header when neither format is acceptable.
    pub(crate) fn from_headers(headers: &HeaderMap) -> Result<Accept, Error> {
        let Some(value) = headers.get(header::ACCEPT) else { return Ok(Accept(Format::Xml)) };
        let text = value.to_str().unwrap_or_default();
        for item in text.split(',') {
            let media = item.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
            match media.as_str() {
                "application/json" | "application/*+json" => return Ok(Accept(Format::Json)),
                "application/xml" | "text/xml" | "*/*" | "application/*" | "" => return Ok(Accept(Format::Xml)),
                _ => {}
            }
        }
        Err(Error::NotAcceptable(text.to_owned()))
    }

    /// `document` written in this format, with `status`.
    pub(crate) fn reply<T: Document>(self, status: StatusCode, document: &T) -> Response {
        let content_type = match self.0 {
            Format::Json => "application/json",
            Format::Xml => "application/xml; charset=utf-8",
        };
        (status, [(header::CONTENT_TYPE, content_type)], encode(document, self.0)).into_response()
    }

    /// `document` with 200 OK.
    pub(crate) fn ok<T: Document>(self, document: &T) -> Response {
        self.reply(StatusCode::OK, document)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Accept {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Accept, Error> {
        Accept::from_headers(&parts.headers)
    }
}
