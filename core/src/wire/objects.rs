//! A DTO is read from an object only. serde's derived `Deserialize` also reads a struct from
//! a sequence, its fields by position (`["Hello", "alert"]` as a message), and serde_json
//! offers it the sequence whenever a body has `[` where an object belongs. No client writes
//! that, and each DTO paid for it: its positional reader was a second copy of its field
//! readers in the npm package's `.wasm` (11.6 KB gzipped over the package's documents,
//! docs/performance.md). Every DTO is read through [`ObjectOnly`] instead, which asks the
//! format for a map where the struct asks for a struct: `[` is then refused as
//! `invalid type: sequence, expected struct …`, as any other wrong type is.
//!
//! The readers: the documents' top level (`decode`, the npm package's codec), [`Object`] for
//! items and seeds, and [`object`] and [`object_or_null`] for struct fields.

use serde::de::{Deserialize, Deserializer, Visitor};

/// A deserializer that reads structs as maps and forwards everything else unchanged.
pub(crate) struct ObjectOnly<D>(pub(crate) D);

/// Forwards each named `deserialize_*` method to the wrapped deserializer.
macro_rules! forward {
    ($($method:ident),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method(visitor)
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ObjectOnly<D> {
    type Error = D::Error;

    forward! {
        deserialize_any, deserialize_bool, deserialize_i8, deserialize_i16, deserialize_i32,
        deserialize_i64, deserialize_i128, deserialize_u8, deserialize_u16, deserialize_u32,
        deserialize_u64, deserialize_u128, deserialize_f32, deserialize_f64, deserialize_char,
        deserialize_str, deserialize_string, deserialize_bytes, deserialize_byte_buf,
        deserialize_option, deserialize_unit, deserialize_seq, deserialize_map,
        deserialize_identifier, deserialize_ignored_any,
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, visitor)
    }

    /// The one change: a struct is asked for as a map.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// A `T` read from an object only: for list items and seeds, where a field attribute cannot
/// name a reader.
pub(crate) struct Object<T>(pub(crate) T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(ObjectOnly(d)).map(Object)
    }
}

/// A DTO field holding another DTO (`#[serde(deserialize_with = "lenient::object")]`).
pub fn object<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    T::deserialize(ObjectOnly(d))
}

/// A DTO field holding another DTO or `null` (with `#[serde(default)]`, absent is `None` too).
pub fn object_or_null<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    Option::<Object<T>>::deserialize(d).map(|found| found.map(|Object(value)| value))
}

/// A DTO field holding a sequence of DTOs (JSON only; XML lists are `lenient::list`).
pub fn objects<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    Vec::<Object<T>>::deserialize(d).map(|items| items.into_iter().map(|Object(item)| item).collect())
}
