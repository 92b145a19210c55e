//! How the server (and every build but the npm package's) writes a document as JSON and names
//! the field a JSON body fails at: generic code per DTO, the fastest. The npm package builds
//! `flavour_npm.rs` in its place, which trades speed for size (see the design note in
//! `mod.rs`); this is the one place where the two builds differ.

use serde::{Deserialize, Serialize};

use super::{
    Document,
    json_read::{Reread, failing_path},
};

/// `value` as JSON text, under `root` when it has one.
pub(super) fn json_text<T: Serialize>(value: &T, root: Option<&'static str>) -> serde_json::Result<String> {
    match root {
        Some(root) => serde_json::to_string(&Rooted(root, value)),
        None => serde_json::to_string(value),
    }
}

/// `value`'s JSON value, serialized straight into one.
pub(super) fn json_value<T: Serialize>(value: &T) -> serde_json::Result<serde_json::Value> {
    serde_json::to_value(value)
}

/// The failing field of the JSON `body` of a `T`, found by reading it again with a
/// path-tracking deserializer (`reread` is for the npm package's way).
pub(super) fn failing_json_path<'de, T: Document + Deserialize<'de>>(
    body: &'de str,
    _reread: Reread,
) -> Option<String> {
    failing_path::<T>(body)
}

/// `{root: value}` when serializing a request.
struct Rooted<'a, T>(&'static str, &'a T);

impl<T: Serialize> Serialize for Rooted<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(self.0, self.1)?;
        map.end()
    }
}
