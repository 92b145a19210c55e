//! Field deserializers that accept what the public service's samples put on the wire:
//! numbers written as strings and strings written as numbers, `null` as JSON null or as the
//! XML text `null`, and `0`/`1` flags. XML has no types, so its texts always arrive as strings.
//!
//! Some readings only make sense in XML (the text `null` as null, an empty element as an empty
//! list), and would lose data if applied to JSON (the JSON string `"null"` is a text). `decode`
//! marks an XML decoding with [`XmlScope`], and these deserializers ask [`in_xml`].

use std::{cell::Cell, fmt};

use serde::de::{self, Deserializer, Visitor};

use super::hint;
pub use super::objects::{object, object_or_null, objects};

mod lists;
pub use lists::{list, opt_list, recipients};

thread_local! {
    /// True while an XML document is being decoded on this thread.
    static IN_XML: Cell<bool> = const { Cell::new(false) };
    /// Room the next JSON recipient list reserves (see [`RecipientRoom`]).
    static RECIPIENT_ROOM: Cell<usize> = const { Cell::new(0) };
}

/// Until dropped, the next JSON recipient list read on this thread reserves room for `items`
/// entries at once. JSON does not say how long an array is: a million recipients would
/// otherwise be copied through twenty doublings of their vector.
pub(crate) struct RecipientRoom {
    previous: usize,
}

impl RecipientRoom {
    /// Reserves `items` for the next recipient list.
    pub(crate) fn reserve(items: usize) -> RecipientRoom {
        RecipientRoom { previous: RECIPIENT_ROOM.with(|room| room.replace(items)) }
    }
}

impl Drop for RecipientRoom {
    fn drop(&mut self) {
        RECIPIENT_ROOM.with(|room| room.set(self.previous));
    }
}

/// Marks the current thread as decoding XML until dropped (restores the previous state, so
/// nesting and panics are safe).
pub(crate) struct XmlScope {
    previous: bool,
}

impl XmlScope {
    /// Starts an XML decoding on this thread.
    pub(crate) fn enter() -> XmlScope {
        XmlScope { previous: IN_XML.with(|flag| flag.replace(true)) }
    }
}

impl Drop for XmlScope {
    fn drop(&mut self) {
        IN_XML.with(|flag| flag.set(self.previous));
    }
}

/// The error refusing an array as a whole.
fn rejected_sequence<E: de::Error>(expected: &dyn de::Expected) -> E {
    hint::note_rejected_sequence();
    de::Error::invalid_type(de::Unexpected::Seq, expected)
}

/// The error of a field reader refusing the scalar it read.
fn refused<E: de::Error>(message: impl fmt::Display) -> E {
    hint::note_refused_value();
    E::custom(message)
}

/// Whether the value being deserialized comes from an XML document.
pub(crate) fn in_xml() -> bool {
    IN_XML.with(Cell::get)
}

/// A scalar as it arrived: text, number, bool or nothing.
enum Scalar {
    Text(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Null,
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string, a number or null")
    }
    // The text `null` stays a text here: only the optional readers below take it as null, and
    // only in XML (in JSON `"null"` is a string; null is written `null`).
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Scalar, E> {
        Ok(Scalar::Text(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Scalar, E> {
        Ok(Scalar::Text(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Scalar, E> {
        Ok(Scalar::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scalar, E> {
        i64::try_from(v).map(Scalar::Int).map_err(|_| E::custom("number too large"))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Scalar, E> {
        Ok(Scalar::Float(v))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Scalar, E> {
        Ok(Scalar::Bool(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, _seq: A) -> Result<Scalar, A::Error> {
        Err(rejected_sequence(&self))
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
        // An XML element with attributes or children where a scalar belongs: take its text.
        let mut keys = hint::FINGERPRINT_START;
        let mut text = None;
        while let Some(key) = map.next_key::<String>()? {
            keys = hint::fingerprint(keys, &key);
            if key == "$text" || key == "$value" {
                text = Some(map.next_value::<String>()?);
            } else {
                map.next_value::<de::IgnoredAny>()?;
            }
        }
        hint::note_scalar_from_map(Some(keys));
        Ok(Scalar::Text(text.unwrap_or_default()))
    }
}

fn scalar<'de, D: Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
    hint::note_scalar_from_map(None);
    d.deserialize_any(ScalarVisitor)
}

/// The XML text `null` is how the public samples write null (XML has no null).
fn is_xml_null(text: &str) -> bool {
    text == "null" && in_xml()
}

/// Text, or a number written in its place (list ids are `45190` in one sample, strings in another).
/// JSON `null` is refused; the XML text `null` is the text `null` (the field cannot be null).
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    text_of(scalar(d)?).ok_or_else(|| refused("expected a string, found null"))
}

/// Like [`string`], with null (JSON `null`, XML text `null`) as `None`.
pub fn opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match scalar(d)? {
        Scalar::Text(s) if is_xml_null(&s) => None,
        other => text_of(other),
    })
}

/// A scalar as text; `None` for null.
fn text_of(scalar: Scalar) -> Option<String> {
    match scalar {
        Scalar::Text(s) => Some(s),
        Scalar::Int(i) => Some(i.to_string()),
        Scalar::Float(f) => Some(f.to_string()),
        Scalar::Bool(b) => Some(b.to_string()),
        Scalar::Null => None,
    }
}

/// A whole number, written as a number or as digits.
pub fn int<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    opt_int(d)?.ok_or_else(|| refused("expected a whole number, found null"))
}

/// Like [`int`], with null (or an empty XML element) as `None`.
pub fn opt_int<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    match scalar(d)? {
        Scalar::Int(i) => Ok(Some(i)),
        Scalar::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(Some(f as i64)),
        Scalar::Text(s) if s.trim().is_empty() || s == "null" => Ok(None),
        Scalar::Text(s) => s
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| refused(format!("expected a whole number, found {}", crate::excerpt(&s)))),
        Scalar::Null => Ok(None),
        Scalar::Float(f) => Err(refused(format!("expected a whole number, found {f}"))),
        Scalar::Bool(b) => Err(refused(format!("expected a whole number, found {b}"))),
    }
}

/// A decimal amount (credits), written as a number or as text.
pub fn decimal<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    opt_decimal(d)?.ok_or_else(|| refused("expected a number, found null"))
}

/// Like [`decimal`], with null as `None`.
pub fn opt_decimal<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    match scalar(d)? {
        Scalar::Int(i) => Ok(Some(i as f64)),
        Scalar::Float(f) => Ok(Some(f)),
        Scalar::Text(s) if s.trim().is_empty() || s == "null" => Ok(None),
        // Text is read with the JSON number grammar (the same reader as a JSON body, so one
        // float parser in the wasm module): `12.5`, `-3`, `1e-7`, but neither `NaN` nor `inf`.
        Scalar::Text(s) => serde_json::from_str::<f64>(s.trim())
            .map(Some)
            .map_err(|_| refused(format!("expected a number, found {}", crate::excerpt(&s)))),
        Scalar::Null => Ok(None),
        Scalar::Bool(b) => Err(refused(format!("expected a number, found {b}"))),
    }
}

/// A yes/no flag: `1`/`0`, `"1"`/`"0"`, `true`/`false`.
pub fn opt_flag<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    match scalar(d)? {
        Scalar::Bool(b) => Ok(Some(b)),
        Scalar::Int(0) => Ok(Some(false)),
        Scalar::Int(1) => Ok(Some(true)),
        Scalar::Text(s) => match s.trim() {
            "0" | "false" => Ok(Some(false)),
            "1" | "true" => Ok(Some(true)),
            "" | "null" => Ok(None),
            other => Err(refused(format!("expected 0 or 1, found {}", crate::excerpt(other)))),
        },
        Scalar::Null => Ok(None),
        Scalar::Int(i) => Err(refused(format!("expected 0 or 1, found {i}"))),
        Scalar::Float(f) => Err(refused(format!("expected 0 or 1, found {f}"))),
    }
}

/// A field that may be `null`: absent is `None`, `null` is `Some(None)`, a value `Some(Some(…))`
/// (with `#[serde(default)]`).
pub fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    object_or_null(d).map(Some)
}

/// An object, or nothing: anything else (a string, a number, a list) is left out, as a client
/// that never sent the field would have it (for texto's additions inside SMSFactor's documents).
/// An object is read as `T`, and refused as `T` refuses it.
pub fn opt_object<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    d.deserialize_any(ObjectOrNothing(std::marker::PhantomData))
}

/// [`opt_object`]'s reader: the map handed to `T` itself (no buffered copy of the value).
struct ObjectOrNothing<T>(std::marker::PhantomData<T>);

impl<'de, T: serde::Deserialize<'de>> Visitor<'de> for ObjectOrNothing<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Option<T>, A::Error> {
        T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Some)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Option<T>, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_none<E: de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }
}

/// A field that may be absent (`None`, via `#[serde(default)]`), null (`Some(None)`) or set.
pub fn present_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    opt_string(d).map(Some)
}

/// Like [`present_string`] for whole numbers.
pub fn present_int<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<i64>>, D::Error> {
    opt_int(d).map(Some)
}

#[cfg(test)]
mod tests {
    use crate::wire::*;

    /// A campaign result in XML whose cost is the text `cost`.
    fn xml_cost(cost: &str) -> Result<f64, crate::Error> {
        let body = format!(
            "<response><status>1</status><message>OK</message><cost>{cost}</cost><credits>10</credits><total>1</total>\
             <sent>1</sent><blacklisted>0</blacklisted><duplicated>0</duplicated><invalid>0</invalid><npai>0</npai></response>"
        );
        decode::<CampaignResultDto>(&body, Format::Xml).map(|result| result.cost)
    }

    #[test]
    fn decimals_in_text_follow_the_json_number_grammar() {
        assert_eq!(xml_cost("12.5").unwrap(), 12.5);
        assert_eq!(xml_cost(" -3 ").unwrap(), -3.0);
        assert_eq!(xml_cost("1e-7").unwrap(), 1e-7);
        assert_eq!(xml_cost("0.30000000000000004").unwrap(), 0.1 + 0.2, "read exactly, not to the nearest hundredth");
        for refused in ["NaN", "inf", "1e400", "12,5", "twelve"] {
            let error = xml_cost(refused).expect_err(refused).to_string();
            assert!(error.contains(&format!("expected a number, found {refused:?}")), "{refused}: {error}");
            assert!(error.contains("response.cost"), "{refused}: {error}");
        }
    }
}
