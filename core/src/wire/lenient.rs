//! Field deserializers that accept what the public service's samples put on the wire:
//! numbers written as strings and strings written as numbers, `null` as JSON null or as the
//! XML text `null`, and `0`/`1` flags. XML has no types, so its texts always arrive as strings.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};

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
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Scalar, E> {
        Ok(if v == "null" { Scalar::Null } else { Scalar::Text(v.to_owned()) })
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Scalar, E> {
        Ok(if v == "null" { Scalar::Null } else { Scalar::Text(v) })
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
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
        // An XML element with attributes or children where a scalar belongs: take its text.
        let mut text = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "$text" || key == "$value" {
                text = Some(map.next_value::<String>()?);
            } else {
                map.next_value::<de::IgnoredAny>()?;
            }
        }
        Ok(match text {
            Some(text) if text == "null" => Scalar::Null,
            Some(text) => Scalar::Text(text),
            None => Scalar::Text(String::new()),
        })
    }
}

fn scalar<'de, D: Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
    d.deserialize_any(ScalarVisitor)
}

/// Text, or a number written in its place (list ids are `45190` in one sample, strings in another).
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    opt_string(d)?.ok_or_else(|| de::Error::custom("expected a string, found null"))
}

/// Like [`string`], with null (JSON `null`, XML text `null`) as `None`.
pub fn opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match scalar(d)? {
        Scalar::Text(s) => Some(s),
        Scalar::Int(i) => Some(i.to_string()),
        Scalar::Float(f) => Some(f.to_string()),
        Scalar::Bool(b) => Some(b.to_string()),
        Scalar::Null => None,
    })
}

/// A whole number, written as a number or as digits.
pub fn int<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    opt_int(d)?.ok_or_else(|| de::Error::custom("expected a whole number, found null"))
}

/// Like [`int`], with null (or an empty XML element) as `None`.
pub fn opt_int<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    match scalar(d)? {
        Scalar::Int(i) => Ok(Some(i)),
        Scalar::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(Some(f as i64)),
        Scalar::Text(s) if s.trim().is_empty() => Ok(None),
        Scalar::Text(s) => s
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| de::Error::custom(format!("expected a whole number, found {s:?}"))),
        Scalar::Null => Ok(None),
        Scalar::Float(f) => Err(de::Error::custom(format!("expected a whole number, found {f}"))),
        Scalar::Bool(b) => Err(de::Error::custom(format!("expected a whole number, found {b}"))),
    }
}

/// A decimal amount (credits), written as a number or as text.
pub fn decimal<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    opt_decimal(d)?.ok_or_else(|| de::Error::custom("expected a number, found null"))
}

/// Like [`decimal`], with null as `None`.
pub fn opt_decimal<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    match scalar(d)? {
        Scalar::Int(i) => Ok(Some(i as f64)),
        Scalar::Float(f) => Ok(Some(f)),
        Scalar::Text(s) if s.trim().is_empty() => Ok(None),
        Scalar::Text(s) => s
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| de::Error::custom(format!("expected a number, found {s:?}"))),
        Scalar::Null => Ok(None),
        Scalar::Bool(b) => Err(de::Error::custom(format!("expected a number, found {b}"))),
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
            "" => Ok(None),
            other => Err(de::Error::custom(format!("expected 0 or 1, found {other:?}"))),
        },
        Scalar::Null => Ok(None),
        Scalar::Int(i) => Err(de::Error::custom(format!("expected 0 or 1, found {i}"))),
        Scalar::Float(f) => Err(de::Error::custom(format!("expected 0 or 1, found {f}"))),
    }
}

/// A repeated element: an empty XML element (`<list></list>`, the XML form of `[]`) reads as
/// one all-default item, which is dropped here.
pub fn list<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::Deserialize<'de> + Default + PartialEq,
{
    let items: Vec<T> = serde::Deserialize::deserialize(d)?;
    Ok(items.into_iter().filter(|item| *item != T::default()).collect())
}

/// A field that may be absent (`None`, via `#[serde(default)]`), null (`Some(None)`) or set.
pub fn present_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    opt_string(d).map(Some)
}

/// Like [`present_string`] for whole numbers.
pub fn present_int<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<i64>>, D::Error> {
    opt_int(d).map(Some)
}
