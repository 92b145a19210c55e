//! Request bodies: the text and the format it is written in.

use axum::{
    body::Bytes,
    extract::{FromRequest, Request},
    http::header,
};
use texto_core::{
    FieldError,
    wire::{Document, Format, Limits, decode_sms_with, decode_with},
};

use crate::{Error, app::AppState};

/// A request body as text, with its format (REFERENCE §1): `Content-Type` JSON or XML, the
/// legacy form post `data=<json>`, or sniffed when the type is missing.
pub(crate) struct WireBody {
    /// JSON or XML.
    pub(crate) format: Format,
    /// The document.
    pub(crate) text: String,
    /// The count limits of the server (`--max-recipients`), enforced while decoding.
    limits: Limits,
}

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
        let content_type = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.split(';').next().unwrap_or_default().trim().to_ascii_lowercase());
        let limit = state.config.max_body_bytes;
        let bytes = axum::body::to_bytes(request.into_body(), limit).await.map_err(|_| Error::TooLarge(limit))?;
        let text = utf8(bytes)?;
        let limits = Limits::items(state.config.max_recipients);
        Ok(match content_type.as_deref() {
            Some("application/json") => WireBody { format: Format::Json, text, limits },
            Some("application/xml" | "text/xml") => WireBody { format: Format::Xml, text, limits },
            // `curl -d '{...}'` labels a raw document as a form: a body that is a document is read as one.
            Some("application/x-www-form-urlencoded") if !text.trim_start_matches('\u{feff}').trim_start().starts_with(['{', '<']) => {
                WireBody { format: Format::Json, text: form_data(&text)?, limits }
            }
            _ => WireBody { format: Format::sniff(&text), text, limits },
        })
    }
}

fn utf8(bytes: Bytes) -> Result<String, Error> {
    String::from_utf8(Vec::from(bytes)).map_err(|e| {
        Error::Invalid(vec![FieldError::new("", format!("the body is not UTF-8 (byte {})", e.utf8_error().valid_up_to()))])
    })
}

/// The `data` field of a form post, which holds the JSON document.
fn form_data(form: &str) -> Result<String, Error> {
    form_urlencoded::parse(form.as_bytes())
        .find(|(key, _)| key == "data")
        .map(|(_, value)| value.into_owned())
        .ok_or_else(|| Error::Invalid(vec![FieldError::new("data", "a form post carries the JSON document in the field data")]))
}
