//! Decoding and encoding documents in JSON and XML.

use serde::{Deserialize, Serialize, de::IgnoredAny};

use serde_json::Value;

#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
use super::json_path;
use super::{
    Limits,
    json_read::{failing_path, prefixed, read_json, without_bom},
    lenient,
    limits::{LimitScope, take_data_error},
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
            let braces = super::occurrences(body.as_bytes(), b'{');
            let _room = super::lenient::RecipientRoom::reserve(braces.min(body.len() / 13));
            decode_json_body(body, |text| {
                super::SmsRequest::deserialize(&mut serde_json::Deserializer::from_str(text)).map(drop)
            })
        }
    }
}

/// The error for a body over [`MAX_BODY_BYTES`].
fn too_large(format: Format) -> Error {
    let message = format!("the body is over {MAX_BODY_BYTES} bytes");
    match format {
        Format::Json => Error::Json { message, path: None, line: 1, column: 1 },
        Format::Xml => Error::Xml { message, path: None },
    }
}

/// Encodes `value` in `format`.
pub fn encode<T: Document>(value: &T, format: Format) -> String {
    match format {
        Format::Json => json_text(value, T::JSON_ROOT)
            .unwrap_or_else(|e| format!("{{\"status\":-99,\"message\":\"encoding failed: {e}\"}}")),
        Format::Xml => {
            let fields = match serde_json::to_value(value) {
                Ok(serde_json::Value::Object(fields)) => fields,
                _ => serde_json::Map::new(),
            };
            xml_writer::write_document(T::XML_ROOTS[0], &fields)
        }
    }
}

/// `value` as JSON text, under `root` when it has one.
#[cfg(not(all(target_arch = "wasm32", feature = "js")))]
fn json_text<T: Serialize>(value: &T, root: Option<&'static str>) -> serde_json::Result<String> {
    match root {
        Some(root) => serde_json::to_string(&Rooted(root, value)),
        None => serde_json::to_string(value),
    }
}

/// `value` as JSON text, under `root` when it has one. The npm package writes every document
/// through its JSON value (the same text), so that each DTO is serialized one way only.
#[cfg(all(target_arch = "wasm32", feature = "js"))]
fn json_text<T: Serialize>(value: &T, root: Option<&'static str>) -> serde_json::Result<String> {
    let inner = serde_json::to_value(value)?;
    Ok(match root {
        Some(root) => Value::Object(serde_json::Map::from_iter([(root.to_owned(), inner)])),
        None => inner,
    }
    .to_string())
}

fn decode_json<'de, T: Document + Deserialize<'de>>(
    body: &'de str,
    failing_path: impl FnOnce(&'de str) -> Option<String>,
) -> Result<T, Error> {
    #[cfg(all(target_arch = "wasm32", feature = "js"))]
    lenient::take_hint();
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
    Err(match refused {
        // A well-formed value refused (a list over its limit): a data error, not a syntax one.
        Some(message) => Error::Invalid(vec![FieldError::new(path.unwrap_or_default(), message)]),
        None => Error::Json {
            message: strip_position(&error.to_string()),
            path,
            line: error.line(),
            column: error.column(),
        },
    })
}

/// Deserializes JSON text as one document type, to say where it fails (see [`decode_json_body`]).
type Reread = fn(&str) -> Result<(), serde_json::Error>;

/// [`decode`] of a JSON body. `reread` deserializes text as `T` does: the npm package names
/// the failing field with it instead of a second deserializer per DTO (see [`reread_path`]).
#[cfg_attr(not(all(target_arch = "wasm32", feature = "js")), allow(unused_variables))]
fn decode_json_body<'de, T: Document + Deserialize<'de>>(body: &'de str, reread: Reread) -> Result<T, Error> {
    if body.len() > MAX_BODY_BYTES {
        return Err(too_large(Format::Json));
    }
    #[cfg(not(all(target_arch = "wasm32", feature = "js")))]
    let path = failing_path::<T>;
    #[cfg(all(target_arch = "wasm32", feature = "js"))]
    let path = |body| reread_path(body, T::JSON_ROOT, &reread);
    decode_json(body, path)
}

/// The failing field of a JSON body, as [`failing_path`] finds it, without a second
/// deserializer: the document (its root value) is written again as JSON text, so that
/// duplicate keys resolve as in a JSON value, and `reread` reads that text; the field is told
/// from where it stops (see [`json_path`]).
#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
fn reread_path(
    body: &str,
    root: Option<&str>,
    reread: &dyn Fn(&str) -> Result<(), serde_json::Error>,
) -> Option<String> {
    let value = serde_json::from_str::<Value>(body).ok()?;
    let text = match root {
        Some(root) => value.get(root)?.to_string(),
        None => value.to_string(),
    };
    lenient::take_hint();
    let error = reread(&text).err()?;
    // `text` is well-formed: a syntax error is an array with more items than its reader took.
    let trailing = error.classify() == serde_json::error::Category::Syntax;
    let path = json_path::path_at(&text, error.line(), error.column(), lenient::take_hint(), trailing);
    Some(prefixed(root, &json_path::display(&path)))
}

/// An XML error at `path`, or the data error (a list over its limit) that stopped the reading.
fn xml_error(message: String, path: String) -> Error {
    match take_data_error() {
        Some(refused) => Error::Invalid(vec![FieldError::new(path, refused)]),
        None => Error::Xml { message, path: Some(path).filter(|p| !p.is_empty()) },
    }
}

/// The root element of an XML body, one of `roots`, and the document's JSON form.
fn xml_document(body: &str, roots: &[&str]) -> Result<(String, Value), Error> {
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
    serde_path_to_error::deserialize::<_, T>(value)
        .map_err(|e| xml_error(e.inner().to_string(), prefixed(Some(root.as_str()), &e.path().to_string())))
}

/// An XML body of a document with the root elements `roots` as `(root, its JSON form as
/// text)`, for [`Codec`].
///
/// The npm package decodes XML this way: every DTO is then deserialized from JSON text only,
/// as JSON bodies are, instead of a second time from a JSON value.
#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
fn xml_json_text(body: &str, roots: &[&str]) -> Result<(String, String), Error> {
    if body.len() > MAX_BODY_BYTES {
        return Err(too_large(Format::Xml));
    }
    let (root, value) = xml_document(body, roots)?;
    Ok((root, value.to_string()))
}

/// The error of reading the JSON form `text` of an XML document whose root element is `root`:
/// the message and field path the server's reading gives.
#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
fn xml_read_error(root: &str, text: &str, error: &serde_json::Error) -> Error {
    // `text` is well-formed: a syntax error is an array with more items than its reader took,
    // which the server words as its JSON value reader does.
    let trailing = error.classify() == serde_json::error::Category::Syntax;
    let path = json_path::path_at(text, error.line(), error.column(), lenient::take_hint(), trailing);
    let message = match trailing {
        true => {
            let items = json_path::trailing_array_len(text, error.line(), error.column());
            format!("invalid length {items}, expected fewer elements in array")
        }
        false => without_position(error),
    };
    xml_error(message, prefixed(Some(root), &json_path::display(&path)))
}

/// Reads JSON text as one DTO and gives its JSON form (the inner error: serializing it).
#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
pub(crate) type ReadJson = fn(&str) -> Result<serde_json::Result<Value>, serde_json::Error>;

/// One document type as the npm package handles it: the generic code is in its two readers,
/// everything else is shared by all the types, instead of instantiated for each.
#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
#[derive(Clone, Copy)]
pub(crate) struct Codec {
    /// Reads a JSON body (a request under its root key, see [`read_body`]).
    pub(crate) body: ReadJson,
    /// Reads the document without its root key (see [`read_plain`]).
    pub(crate) plain: ReadJson,
    /// [`Document::JSON_ROOT`].
    pub(crate) root: Option<&'static str>,
    /// [`Document::XML_ROOTS`].
    pub(crate) xml_roots: &'static [&'static str],
}

/// A JSON body as `T` reads it (under its root key for requests), and its JSON form.
#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
pub(crate) fn read_body<'x, T: Document + Deserialize<'x>>(
    text: &'x str,
) -> Result<serde_json::Result<Value>, serde_json::Error> {
    let value = read_json::<T>(without_bom(text))?;
    Ok(serde_json::to_value(&value))
}

/// JSON text as `T` reads it (without a root key), and its JSON form.
#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
pub(crate) fn read_plain<'x, T: Document + Deserialize<'x>>(
    text: &'x str,
) -> Result<serde_json::Result<Value>, serde_json::Error> {
    let value = T::deserialize(&mut serde_json::Deserializer::from_str(text))?;
    Ok(serde_json::to_value(&value))
}

#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
impl Codec {
    /// [`decode`], as the document's JSON form (without its root key).
    fn decode(self, body: &str, format: Format) -> Result<serde_json::Result<Value>, Error> {
        match format {
            Format::Json => {
                if body.len() > MAX_BODY_BYTES {
                    return Err(too_large(Format::Json));
                }
                lenient::take_hint();
                (self.body)(body).map_err(|error| {
                    let refused = take_data_error();
                    let path =
                        reread_path(body, self.root, &|text| (self.plain)(text).map(drop)).filter(|p| !p.is_empty());
                    take_data_error();
                    match refused {
                        Some(message) => Error::Invalid(vec![FieldError::new(path.unwrap_or_default(), message)]),
                        None => Error::Json {
                            message: strip_position(&error.to_string()),
                            path,
                            line: error.line(),
                            column: error.column(),
                        },
                    }
                })
            }
            Format::Xml => {
                let (root, text) = xml_json_text(body, self.xml_roots)?;
                // Lets the lenient field readers apply the XML-only readings.
                let _xml = lenient::XmlScope::enter();
                lenient::take_hint();
                (self.plain)(&text).map_err(|error| xml_read_error(&root, &text, &error))
            }
        }
    }

    /// Decodes `body` and gives its JSON wire form (requests under their root key).
    pub(crate) fn to_json(self, body: &str, format: Format) -> Result<Value, Error> {
        let inner =
            self.decode(body, format)?.map_err(|e| Error::Invalid(vec![crate::FieldError::new("", e.to_string())]))?;
        Ok(self.rooted(inner))
    }

    /// Reads the JSON form `value` and writes it in `format`, as [`encode`] does.
    pub(crate) fn encode_json(self, value: &Value, format: Format) -> Result<String, Error> {
        let inner = self.decode(&value.to_string(), Format::Json)?;
        Ok(match format {
            Format::Json => match inner {
                Ok(inner) => self.rooted(inner).to_string(),
                Err(e) => format!("{{\"status\":-99,\"message\":\"encoding failed: {e}\"}}"),
            },
            Format::Xml => {
                let fields = match inner {
                    Ok(Value::Object(fields)) => fields,
                    _ => serde_json::Map::new(),
                };
                xml_writer::write_document(self.xml_roots[0], &fields)
            }
        })
    }

    fn rooted(self, inner: Value) -> Value {
        match self.root {
            Some(root) => Value::Object(serde_json::Map::from_iter([(root.to_owned(), inner)])),
            None => inner,
        }
    }
}

/// The message of `error` without the position serde_json appends to it.
#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
fn without_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    match message.strip_suffix(&position) {
        Some(bare) if error.line() != 0 => bare.to_owned(),
        _ => message,
    }
}

/// serde_json appends " at line L column C"; the error carries those separately.
pub(crate) fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}

/// `{root: value}` when serializing a request.
#[cfg(not(all(target_arch = "wasm32", feature = "js")))]
struct Rooted<'a, T>(&'static str, &'a T);

#[cfg(not(all(target_arch = "wasm32", feature = "js")))]
impl<T: Serialize> Serialize for Rooted<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(self.0, self.1)?;
        map.end()
    }
}
