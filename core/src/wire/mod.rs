//! The wire model: every body of the interface as a DTO, and the JSON and XML codecs.
//!
//! DTOs mirror the public samples exactly (keys, nesting, which values are strings); they are
//! lenient where the samples disagree (numbers as strings, `null` as text). Domain types live
//! elsewhere and are built from DTOs by validation.

mod any;
mod codec;
#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
mod json_path;
mod json_read;
pub(crate) mod lenient;
mod limits;
mod sms_xml;
mod text_only;
mod xml_guard;
mod xml_value;
mod xml_writer;

mod campaigns;
mod clicks;
mod contacts;
mod envelope;
mod events;
mod notification;
mod result;
mod send;
mod webhook;

pub use any::Kind;
pub use campaigns::*;
pub use clicks::*;
#[cfg(all(target_arch = "wasm32", feature = "js"))]
pub(crate) use codec::strip_position;
#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
pub(crate) use codec::{Codec, read_body, read_plain};
pub use codec::{Document, Format, MAX_BODY_BYTES, decode, decode_sms, decode_sms_with, decode_with, encode};
pub use contacts::*;
pub use envelope::*;
pub use events::*;
pub use limits::Limits;
pub use notification::*;
pub use result::*;
pub use send::*;
pub use webhook::*;

/// How many times `byte` occurs in `text`, to size a recipient vector before reading a body.
/// A plain counting loop that the compiler vectorizes (byte-wide counters, so at most 255 bytes
/// a round): its cost does not depend on the number of matches, unlike a search match by match.
pub(crate) fn occurrences(text: &[u8], byte: u8) -> usize {
    text.chunks(255).map(|chunk| usize::from(chunk.iter().fold(0u8, |n, &b| n + u8::from(b == byte)))).sum()
}

#[cfg(test)]
mod tests {
    #[test]
    fn occurrences_counts_every_match_across_rounds() {
        assert_eq!(super::occurrences(b"", b'{'), 0);
        assert_eq!(super::occurrences(&[b'{'; 10_000], b'{'), 10_000, "255 matches a round never overflow");
        let mixed: Vec<u8> = (0..1_000u32).flat_map(|i| if i % 3 == 0 { *b"{x" } else { *b"yz" }).collect();
        assert_eq!(super::occurrences(&mixed, b'{'), 334);
    }
}
