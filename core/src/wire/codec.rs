//! Decoding and encoding documents in JSON and XML.

use std::{fmt, marker::PhantomData};

use serde::{
    Deserialize, Deserializer, Serialize, Serializer,
    de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor},
    ser::SerializeMap,
};

use serde_json::Value;

use super::{lenient, xml_guard, xml_value, xml_writer};
use crate::Error;

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
    if body.len() > MAX_BODY_BYTES {
        let message = format!("the body is over {MAX_BODY_BYTES} bytes");
        return Err(match format {
            Format::Json => Error::Json { message, path: None, line: 1, column: 1 },
            Format::Xml => Error::Xml { message, path: None },
        });
    }
    match format {
        Format::Json => decode_json(body),
        Format::Xml => decode_xml(body),
    }
}

/// Decodes a send request: like [`decode`], with a faster XML reader for the one document
/// that can hold a million recipients.
pub fn decode_sms(body: &str, format: Format) -> Result<super::SmsRequest<'_>, Error> {
    match format {
        Format::Xml if body.len() <= MAX_BODY_BYTES => super::sms_xml::decode(body),
        Format::Xml => decode(body, format),
        Format::Json => {
            // Each recipient is an object: count the braces (the document's few others only make
            // the room a little larger), but never more than fit: `{"value":""},` is 13 bytes.
            let braces = memchr::memchr_iter(b'{', body.as_bytes()).count();
            let _room = super::lenient::RecipientRoom::reserve(braces.min(body.len() / 13));
            decode(body, format)
        }
    }
}

/// Encodes `value` in `format`.
pub fn encode<T: Document>(value: &T, format: Format) -> String {
    match format {
        Format::Json => match T::JSON_ROOT {
            Some(root) => serde_json::to_string(&Rooted(root, value)),
            None => serde_json::to_string(value),
        }
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

fn decode_json<'de, T: Document + Deserialize<'de>>(body: &'de str) -> Result<T, Error> {
    let fast = match T::JSON_ROOT {
        Some(root) => RootSeed::<T>::new(root).deserialize(&mut serde_json::Deserializer::from_str(body)),
        None => T::deserialize(&mut serde_json::Deserializer::from_str(body)),
    };
    let error = match fast {
        Ok(value) => return Ok(value),
        Err(error) => error,
    };
    // Only on failure: read the document again as a JSON value to name the failing field.
    let path = serde_json::from_str::<Value>(body).ok().and_then(|value| {
        let value = match T::JSON_ROOT {
            Some(root) => value.get(root).cloned()?,
            None => value,
        };
        match serde_path_to_error::deserialize::<_, T>(value) {
            Err(tracked) => Some(prefixed(T::JSON_ROOT, tracked.path())),
            Ok(_) => None,
        }
    });
    Err(Error::Json {
        message: strip_position(&error.to_string()),
        path: path.filter(|p| !p.is_empty()),
        line: error.line(),
        column: error.column(),
    })
}

fn decode_xml<'de, T: Document + Deserialize<'de>>(body: &'de str) -> Result<T, Error> {
    let xml_error = |message: String, path: String| Error::Xml { message, path: Some(path).filter(|p| !p.is_empty()) };
    // A DOCTYPE in the prolog is refused before anything is read.
    xml_guard::root_element(body).map_err(|m| xml_error(m, String::new()))?;
    let (root, value) = xml_value::parse(body).map_err(|(message, path)| xml_error(message, path))?;
    if !T::XML_ROOTS.contains(&root.as_str()) {
        let message = format!("the root element must be <{}>, found <{root}>", T::XML_ROOTS[0]);
        return Err(xml_error(message, String::new()));
    }
    // Lets the lenient field readers apply the XML-only readings (text `null`, one item or many).
    let _xml = lenient::XmlScope::enter();
    serde_path_to_error::deserialize::<_, T>(value)
        .map_err(|e| xml_error(e.inner().to_string(), prefixed(Some(root.as_str()), e.path())))
}

/// `root.path`, or the path alone without a root; empty for the whole document.
fn prefixed(root: Option<&str>, path: &serde_path_to_error::Path) -> String {
    let path = path.to_string();
    match (root, path.as_str()) {
        (None, ".") => String::new(),
        (None, _) => path,
        (Some(root), ".") => root.to_owned(),
        (Some(root), _) => format!("{root}.{path}"),
    }
}

/// serde_json appends " at line L column C"; the error carries those separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}

/// `{root: value}` when serializing a request.
struct Rooted<'a, T>(&'static str, &'a T);

impl<T: Serialize> Serialize for Rooted<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(self.0, self.1)?;
        map.end()
    }
}

/// Reads `{root: value}` and yields the value; other top-level keys are ignored.
struct RootSeed<T> {
    root: &'static str,
    target: PhantomData<T>,
}

impl<T> RootSeed<T> {
    fn new(root: &'static str) -> Self {
        RootSeed { root, target: PhantomData }
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for RootSeed<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for RootSeed<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an object with the key {:?}", self.root)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == self.root && found.is_none() {
                found = Some(map.next_value::<T>()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        found.ok_or_else(|| de::Error::missing_field(self.root))
    }
}
