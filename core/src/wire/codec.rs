//! Decoding and encoding documents in JSON and XML.

use serde::{Deserialize, Serialize, de::IgnoredAny};

use serde_json::Value;

use super::{
    Limits, flavour,
    json_read::{Reread, failing_path, prefixed, read_json, without_bom},
    lenient,
    limits::{LimitScope, take_data_error},
    objects::{Object, object},
    xml_guard, xml_value, xml_writer,
};
use crate::{Error, FieldError};

/// Largest body `decode` accepts (the server may set a lower limit of its own).
pub const MAX_BODY_BYTES: usize = 64 * 1024 * 1024;

/// The two wire formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `application/json`
    Json,
    /// `application/xml` / `text/xml`
    Xml,
}

impl Format {
    /// `"json"` or `"xml"`.
    pub fn parse(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "json" => Some(Format::Json),
            "xml" => Some(Format::Xml),
            _ => None,
        }
    }

    /// The format a body is written in, told from its first non-blank character (`<` is XML).
    pub fn sniff(body: &str) -> Format {
        match body.trim_start_matches('\u{feff}').trim_start().starts_with('<') {
            true => Format::Xml,
            false => Format::Json,
        }
    }
}

/// A body of the interface: where it sits in each format.
pub trait Document: Serialize {
    /// Requests are wrapped in one key in JSON (`{"sms": …}`); responses are flat (`None`).
    const JSON_ROOT: Option<&'static str>;
    /// Accepted XML root elements; the first is written. Responses use `response`.
    const XML_ROOTS: &'static [&'static str];
}

/// Decodes `body` as the document `T`. Errors name the field path, and for JSON the line and column.
pub fn decode<'de, T: Document + Deserialize<'de>>(body: &'de str, format: Format) -> Result<T, Error> {
    decode_with(body, format, Limits::UNBOUNDED)
}

/// [`decode`] within `limits`: a list that reaches `limits.max_items + 1` items stops the
/// decoding there (-7, naming the field), so no body builds more than the limit allows.
pub fn decode_with<'de, T: Document + Deserialize<'de>>(
    body: &'de str,
    format: Format,
    limits: Limits,
) -> Result<T, Error> {
    if body.len() > MAX_BODY_BYTES {
        return Err(too_large(format));
    }
    let _limits = LimitScope::enter(limits);
    match format {
        Format::Json => decode_json(body, failing_path::<T>),
        Format::Xml => decode_xml(body),
    }
}

/// Decodes a send request: like [`decode`], with a faster XML reader for the one document
/// that can hold a million recipients.
pub fn decode_sms(body: &str, format: Format) -> Result<super::SmsRequest<'_>, Error> {
    decode_sms_with(body, format, Limits::UNBOUNDED)
}

/// [`decode_sms`] within `limits` (see [`decode_with`]).
pub fn decode_sms_with(body: &str, format: Format, limits: Limits) -> Result<super::SmsRequest<'_>, Error> {
    let _limits = LimitScope::enter(limits);
    match format {
        Format::Xml if body.len() <= MAX_BODY_BYTES => super::sms_xml::decode(body),
        Format::Xml => Err(too_large(format)),
        Format::Json => {
            // Each recipient is an object: count the braces (the document's few others only make
            // the room a little larger), but never more than fit: `{"value":""},` is 13 bytes.
            let room = super::occurrences(body.as_bytes(), b'{').min(body.len() / 13);
            let fast = (super::json_recipients::FAST_FROM..=MAX_BODY_BYTES).contains(&body.len());
            if let Some(request) = fast.then(|| super::json_recipients::decode(body, room)).flatten() {
                return Ok(request);
            }
            let _room = super::lenient::RecipientRoom::reserve(room);
            decode_json_body(body, |text| {
                object::<_, super::SmsRequest>(&mut serde_json::Deserializer::from_str(text)).map(drop)
            })
        }
    }
}

/// The error for a body over [`MAX_BODY_BYTES`].
pub(super) fn too_large(format: Format) -> Error {
    let message = format!("the body is over {MAX_BODY_BYTES} bytes");
    match format {
        Format::Json => Error::Json { message, path: None, line: 1, column: 1 },
        Format::Xml => Error::Xml { message, path: None },
    }
}

/// Encodes `value` in `format`.
pub fn encode<T: Document>(value: &T, format: Format) -> String {
    match format {
        Format::Json => flavour::json_text(value, T::JSON_ROOT)
            .unwrap_or_else(|e| format!("{{\"status\":-99,\"message\":\"encoding failed: {e}\"}}")),
        Format::Xml => {
            let fields = match flavour::json_value(value) {
                Ok(serde_json::Value::Object(fields)) => fields,
                _ => serde_json::Map::new(),
            };
            xml_writer::write_document(T::XML_ROOTS[0], &fields)
        }
    }
}

fn decode_json<'de, T: Document + Deserialize<'de>>(
    body: &'de str,
    failing_path: impl FnOnce(&'de str) -> Option<String>,
) -> Result<T, Error> {
    let body = without_bom(body);
    let error = match read_json::<T>(body) {
        Ok(value) => return Ok(value),
        Err(error) => error,
    };
    let refused = take_data_error();
    // A document that is not well-formed has no field at fault.
    let well_formed = serde_json::from_str::<IgnoredAny>(body).is_ok();
    let path = well_formed.then(|| failing_path(body)).flatten().filter(|p| !p.is_empty());
    take_data_error();
    Err(json_error(&error, path, refused))
}

/// The error of a JSON body that `error` stopped at `path`: a data error when a reader
/// `refused` a well-formed value (a list over its limit), else the syntax or type error.
pub(super) fn json_error(error: &serde_json::Error, path: Option<String>, refused: Option<String>) -> Error {
    match refused {
        Some(message) => Error::Invalid(vec![FieldError::new(path.unwrap_or_default(), message)]),
        None => Error::Json {
            message: strip_position(&error.to_string()),
            path,
            line: error.line(),
            column: error.column(),
        },
    }
}

/// [`decode`] of a JSON body. `reread` deserializes text as `T` does: the npm package names
/// the failing field with it instead of a second deserializer per DTO (see [`flavour`]).
fn decode_json_body<'de, T: Document + Deserialize<'de>>(body: &'de str, reread: Reread) -> Result<T, Error> {
    if body.len() > MAX_BODY_BYTES {
        return Err(too_large(Format::Json));
    }
    decode_json(body, |body| flavour::failing_json_path::<T>(body, reread))
}

/// An XML error at `path`, or the data error (a list over its limit) that stopped the reading.
pub(super) fn xml_error(message: String, path: String) -> Error {
    match take_data_error() {
        Some(refused) => Error::Invalid(vec![FieldError::new(path, refused)]),
        None => Error::Xml { message, path: Some(path).filter(|p| !p.is_empty()) },
    }
}

/// The root element of an XML body, one of `roots`, and the document's JSON form.
pub(super) fn xml_document(body: &str, roots: &[&str]) -> Result<(String, Value), Error> {
    // A DOCTYPE in the prolog is refused before anything is read.
    xml_guard::root_element(body).map_err(|m| xml_error(m, String::new()))?;
    let (root, value) = xml_value::parse(body).map_err(|(message, path)| xml_error(message, path))?;
    if !roots.contains(&root.as_str()) {
        let message = format!("the root element must be <{}>, found <{root}>", roots[0]);
        return Err(xml_error(message, String::new()));
    }
    Ok((root, value))
}

fn decode_xml<'de, T: Document + Deserialize<'de>>(body: &'de str) -> Result<T, Error> {
    let (root, value) = xml_document(body, T::XML_ROOTS)?;
    // Lets the lenient field readers apply the XML-only readings (text `null`, one item or many).
    let _xml = lenient::XmlScope::enter();
    serde_path_to_error::deserialize::<_, Object<T>>(value)
        .map(|Object(value)| value)
        .map_err(|e| xml_error(e.inner().to_string(), prefixed(Some(root.as_str()), &e.path().to_string())))
}

/// serde_json appends " at line L column C"; the error carries those separately.
pub(crate) fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}
