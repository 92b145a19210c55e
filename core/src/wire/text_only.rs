//! A field only text can fill (`delay`): unlike the [`super::lenient`] readers, a number, an
//! object or an array in its place is refused as a data error (-7) in JSON, rather than read
//! as text (or, for an object, as no value at all).

use std::fmt;

use serde::de::{self, Deserializer, Visitor};

use super::{hint, lenient, limits};

/// Text or null. In XML, as [`lenient::opt_string`] (XML has only text).
pub fn opt_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    if lenient::in_xml() {
        return lenient::opt_string(d);
    }
    d.deserialize_any(TextVisitor)
}

struct TextVisitor;

/// The data error for `found` where text belongs.
fn not_text<E: de::Error>(found: &str) -> E {
    limits::data_error(format!("expected text, found {found}"))
}

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("text or null")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Some(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Some(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(TextVisitor)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Err(not_text("a boolean"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Err(not_text("a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Err(not_text("a number"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Err(not_text("a number"))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        hint::note_rejected_sequence();
        Err(not_text("an array"))
    }
    fn visit_map<A: de::MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(not_text("an object"))
    }
}
