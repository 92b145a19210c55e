//! Documents read by a [`Codec`], the npm package's way: one deserializer and one serializer
//! per DTO, picked at run time by [`super::Kind`], and everything else shared by all the types
//! instead of instantiated for each. The failing field is told from where serde_json stopped
//! ([`json_path`], with the readers' [`hint`]s) rather than by a second, path-tracking
//! deserializer. A unit test in `any.rs` checks that it says exactly what the server's
//! [`super::decode`] says.

use serde::Deserialize;
use serde_json::Value;

use super::{
    Document, Format, MAX_BODY_BYTES,
    codec::{json_error, too_large, xml_document, xml_error},
    flavour, hint, json_path,
    json_read::{prefixed, read_json, without_bom},
    lenient,
    limits::take_data_error,
    objects, xml_writer,
};
use crate::{Error, FieldError};

/// An XML body of a document with the root elements `roots` as `(root, its JSON form as
/// text)`, for [`Codec`].
///
/// The npm package decodes XML this way: every DTO is then deserialized from JSON text only,
/// as JSON bodies are, instead of a second time from a JSON value.
fn xml_json_text(body: &str, roots: &[&str]) -> Result<(String, String), Error> {
    if body.len() > MAX_BODY_BYTES {
        return Err(too_large(Format::Xml));
    }
    let (root, value) = xml_document(body, roots)?;
    Ok((root, value.to_string()))
}

/// The error of reading the JSON form `text` of an XML document whose root element is `root`:
/// the message and field path the server's reading gives.
fn xml_read_error(root: &str, text: &str, error: &serde_json::Error) -> Error {
    // `text` is well-formed: a syntax error is an array with more items than its reader took,
    // which the server words as its JSON value reader does.
    let trailing = error.classify() == serde_json::error::Category::Syntax;
    let path = json_path::path_at(text, error.line(), error.column(), hint::take_hint(), trailing);
    let message = match trailing {
        true => {
            let items = json_path::trailing_array_len(text, error.line(), error.column());
            format!("invalid length {items}, expected fewer elements in array")
        }
        false => without_position(error),
    };
    xml_error(message, prefixed(Some(root), &json_path::display(&path)))
}

/// How a [`ReadJson`] reads its text.
#[derive(Clone, Copy)]
pub(crate) enum Reading {
    /// A JSON body: a request under its root key, nothing after the document.
    Body,
    /// The document without its root key (an XML document's JSON form, or a re-reading).
    Plain,
}

/// Reads JSON text as one DTO and gives its JSON form (the inner error: serializing it).
pub(crate) type ReadJson = fn(&str, Reading) -> Result<serde_json::Result<Value>, serde_json::Error>;

/// One document type as the npm package handles it: the generic code is in its one reader,
/// everything else is shared by all the types, instead of instantiated for each.
#[derive(Clone, Copy)]
pub(crate) struct Codec {
    /// Reads the document as a body or plain (see [`read`]).
    pub(crate) read: ReadJson,
    /// [`Document::JSON_ROOT`].
    pub(crate) root: Option<&'static str>,
    /// [`Document::XML_ROOTS`].
    pub(crate) xml_roots: &'static [&'static str],
}

/// JSON text as `T` reads it, and its JSON form: as a body (under its root key for requests)
/// or plain (without a root key). One function for both keeps one copy of `T`'s code.
pub(crate) fn read<'x, T: Document + Deserialize<'x>>(
    text: &'x str,
    reading: Reading,
) -> Result<serde_json::Result<Value>, serde_json::Error> {
    let value = match reading {
        Reading::Body => read_json::<T>(without_bom(text))?,
        Reading::Plain => objects::object(&mut serde_json::Deserializer::from_str(text))?,
    };
    Ok(flavour::json_value(&value))
}

impl Codec {
    /// [`decode`], as the document's JSON form (without its root key).
    fn decode(self, body: &str, format: Format) -> Result<serde_json::Result<Value>, Error> {
        match format {
            Format::Json => {
                if body.len() > MAX_BODY_BYTES {
                    return Err(too_large(Format::Json));
                }
                (self.read)(body, Reading::Body).map_err(|error| {
                    let refused = take_data_error();
                    // Clears the hints itself before reading again.
                    let path =
                        json_path::reread_path(body, self.root, &|text| (self.read)(text, Reading::Plain).map(drop))
                            .filter(|p| !p.is_empty());
                    take_data_error();
                    json_error(&error, path, refused)
                })
            }
            Format::Xml => {
                let (root, text) = xml_json_text(body, self.xml_roots)?;
                // Lets the lenient field readers apply the XML-only readings.
                let _xml = lenient::XmlScope::enter();
                hint::take_hint();
                (self.read)(&text, Reading::Plain).map_err(|error| xml_read_error(&root, &text, &error))
            }
        }
    }

    /// Decodes `body` and gives its JSON wire form (requests under their root key).
    pub(crate) fn to_json(self, body: &str, format: Format) -> Result<Value, Error> {
        let inner = self.decode(body, format)?.map_err(|e| Error::Invalid(vec![FieldError::new("", e.to_string())]))?;
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
fn without_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    match message.strip_suffix(&position) {
        Some(bare) if error.line() != 0 => bare.to_owned(),
        _ => message,
    }
}
