//! Reading one JSON document: a leading BOM, nothing after the document, the root key once;
//! and, on failure, the path of the failing field found by streaming the body again.

use std::{fmt, marker::PhantomData};

use serde::{
    Deserialize, Deserializer,
    de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor},
};

use super::{
    Document,
    objects::{Object, object},
};

/// A JSON body without the UTF-8 byte order mark it may start with.
pub(super) fn without_bom(body: &str) -> &str {
    body.strip_prefix('\u{feff}').unwrap_or(body)
}

/// Deserializes JSON text as one document type, to say where it fails: how the npm package
/// names a failing field without a second deserializer per DTO (see `json_path::reread_path`).
pub(super) type Reread = fn(&str) -> Result<(), serde_json::Error>;

/// Reads one whole JSON document as `T` (under its root key for requests): anything but
/// blanks after it is an error.
pub(super) fn read_json<'de, T: Document + Deserialize<'de>>(body: &'de str) -> serde_json::Result<T> {
    let mut json = serde_json::Deserializer::from_str(body);
    let value = match T::JSON_ROOT {
        Some(root) => RootSeed::<PhantomData<Object<T>>>::new(root).deserialize(&mut json)?.0,
        None => object(&mut json)?,
    };
    json.end()?;
    Ok(value)
}

/// Only on failure: reads the document again, tracking the field path, to name the failing
/// field. It streams as the first reading did (same limits), building nothing more.
pub(super) fn failing_path<'de, T: Document + Deserialize<'de>>(body: &'de str) -> Option<String> {
    let mut json = serde_json::Deserializer::from_str(body);
    let mut track = serde_path_to_error::Track::new();
    let reached = std::cell::Cell::new(false);
    let seed = Tracked::<T>(&mut track, &reached, PhantomData);
    let failed = match T::JSON_ROOT {
        Some(root) => RootSeed { root, seed }.deserialize(&mut json).is_err(),
        None => seed.deserialize(&mut json).is_err(),
    };
    // Failing outside the document's value (no root key): no field is at fault.
    (failed && reached.get()).then(|| prefixed(T::JSON_ROOT, &track.path().to_string()))
}

/// `root.path`, or the path alone without a root; empty for the whole document. `path` is
/// as `serde_path_to_error` displays it (`.` for the whole document).
pub(super) fn prefixed(root: Option<&str>, path: &str) -> String {
    match (root, path) {
        (None, ".") => String::new(),
        (None, _) => path.to_owned(),
        (Some(root), ".") => root.to_owned(),
        (Some(root), _) => format!("{root}.{path}"),
    }
}

/// Reads `{root: value}` and yields the value as `seed` reads it; other top-level keys are
/// ignored, the root key twice is an error.
pub(super) struct RootSeed<S> {
    root: &'static str,
    seed: S,
}

impl<T> RootSeed<PhantomData<T>> {
    pub(super) fn new(root: &'static str) -> Self {
        RootSeed { root, seed: PhantomData }
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for RootSeed<S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for RootSeed<S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an object with the key {:?}", self.root)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<S::Value, A::Error> {
        let mut seed = Some(self.seed);
        let mut found = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key != self.root {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            match seed.take() {
                Some(seed) => found = Some(map.next_value_seed(seed)?),
                None => return Err(de::Error::custom(format_args!("duplicate key {:?}", self.root))),
            }
        }
        found.ok_or_else(|| de::Error::missing_field(self.root))
    }
}

/// Reads a `T` tracking the path to where it fails (see [`failing_path`]); notes that it
/// was reached.
struct Tracked<'t, T>(&'t mut serde_path_to_error::Track, &'t std::cell::Cell<bool>, PhantomData<T>);

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for Tracked<'_, T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        self.1.set(true);
        object(serde_path_to_error::Deserializer::new(deserializer, self.0))
    }
}
