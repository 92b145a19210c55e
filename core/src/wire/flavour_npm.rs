//! How the npm package writes a document as JSON and names the field a JSON body fails at:
//! through code shared by every DTO, so that the `.wasm` holds one serializer and one
//! deserializer per DTO (see the design note in `mod.rs`). Built in place of `flavour.rs`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Document, json_path::reread_path, json_read::Reread};

/// `value` as JSON text, under `root` when it has one (the same text as the server's).
pub(super) fn json_text<T: Serialize>(value: &T, root: Option<&'static str>) -> serde_json::Result<String> {
    let inner = serde_json::to_string(value)?;
    Ok(match root {
        Some(root) => format!("{{{}:{inner}}}", Value::from(root)),
        None => inner,
    })
}

/// `value`'s JSON value, read back from its JSON text: each DTO is serialized one way only,
/// to text, which takes less of the `.wasm` per DTO than serializing into a value (4.3 KB
/// gzipped over the package's documents) for the cost of reading the text again.
pub(super) fn json_value<T: Serialize>(value: &T) -> serde_json::Result<Value> {
    serde_json::from_str(&serde_json::to_string(value)?)
}

/// The failing field of the JSON `body` of a `T`, told from where `reread` (which reads text
/// as `T` does) stops, instead of by a second, path-tracking deserializer per DTO.
pub(super) fn failing_json_path<'de, T: Document + Deserialize<'de>>(body: &'de str, reread: Reread) -> Option<String> {
    reread_path(body, T::JSON_ROOT, &reread)
}
