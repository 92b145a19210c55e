//! How the last field reader failed, for the npm package's path finder ([`super::json_path`]),
//! which tells the failing field from where serde_json stopped and needs to know what that
//! position points at. The readers note it on every build (a thread-local write on a failure,
//! and one per scalar read); only the package's reading ([`super::kind_codec`]) asks for it.

use std::cell::Cell;

/// How a reader below failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Hint {
    /// Nothing special: serde_json stopped at the failing value.
    #[default]
    None,
    /// An array was refused as soon as it opened: serde_json stopped inside it.
    RejectedSequence,
    /// A field reader refused a value it had read whole: serde_json stopped after the
    /// enclosing object, or at the comma after the value.
    FieldValue {
        /// When the value was an object (whose text was taken): the fingerprint of its keys
        /// (see [`fingerprint`]), to find it among the objects before that point.
        map: Option<u64>,
    },
}

/// The fingerprint of no keys (see [`fingerprint`]).
pub(crate) const FINGERPRINT_START: u64 = 0xcbf2_9ce4_8422_2325;

/// Adds `key` to the fingerprint of an object's keys in order (FNV-1a over the keys, each
/// followed by a 0xff byte, which UTF-8 never holds): how a [`Hint`] names the object a field
/// reader refused, and how `json_path` finds it again.
pub(crate) fn fingerprint(mut hash: u64, key: &str) -> u64 {
    for &byte in key.as_bytes().iter().chain(&[0xff]) {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

thread_local! {
    /// How the current decoding failed.
    static HINT: Cell<Hint> = const { Cell::new(Hint::None) };
    /// Whether the last scalar read was an object's text (the fingerprint of its keys).
    static SCALAR_FROM_MAP: Cell<Option<u64>> = const { Cell::new(None) };
}

/// The hint of the last failure on this thread, cleared.
pub(crate) fn take_hint() -> Hint {
    HINT.with(|hint| hint.replace(Hint::None))
}

/// Notes that an array was refused as soon as it opened.
pub(crate) fn note_rejected_sequence() {
    HINT.with(|cell| cell.set(Hint::RejectedSequence));
}

/// Notes that a field reader refused the scalar it read whole.
pub(crate) fn note_refused_value() {
    HINT.with(|cell| cell.set(Hint::FieldValue { map: SCALAR_FROM_MAP.with(Cell::get) }));
}

/// Notes whether the scalar being read is an object's text: `Some` fingerprint of its keys.
pub(crate) fn note_scalar_from_map(map: Option<u64>) {
    SCALAR_FROM_MAP.with(|cell| cell.set(map));
}
