//! The wire model: every body of the interface as a DTO, and the JSON and XML codecs.
//!
//! DTOs mirror the public samples exactly (keys, nesting, which values are strings); they are
//! lenient where the samples disagree (numbers as strings, `null` as text). Domain types live
//! elsewhere and are built from DTOs by validation.
//!
//! # Design note: why the codecs are hand-written
//!
//! serde derives each DTO's `Serialize`/`Deserialize`; everything around them is texto's own
//! code, on purpose. This crate is also the npm package's WebAssembly, where each way a DTO
//! is deserialized compiles its whole deserializer once more. Measured when the generic paths
//! went (`git show` each commit for how):
//!
//! - XML through quick-xml's serde support, with `serde_path_to_error` over both readers, ran
//!   each DTO through four deserializers: the npm package's `.wasm` was 476 KB gzipped. XML
//!   is now read by a small event loop into the document's JSON form (`xml_value.rs`) and
//!   deserialized from it: two ways per DTO, 303 KB gzipped after wasm-opt (c88f592,
//!   2026-11-21).
//! - `serde_path_to_error` alone was 290 KB of the 1.1 MB of code of the unstripped module.
//!   In the npm build the failing field is told from where serde_json stopped instead
//!   (`json_path.rs`), XML is read through the same JSON text, and JSON is written through
//!   `serde_json::Value`: `texto_core_bg.wasm` went from 904,737 to 658,168 bytes, 318,813 to
//!   241,871 gzipped (1c5d73a, 2026-11-21). The native build (the server) keeps
//!   `serde_path_to_error`, on the error path only.
//! - The generic glue per document kind and the replaying map of XML list items, written once
//!   as shared code: 658,168 to 602,008 bytes (3496615), then to 563,117 (2c30f38, df2912f).
//! - Each DTO serialized to JSON text only, read back into a `serde_json::Value` where the
//!   codecs need one, instead of serialized into a value: serde_json's writer takes less code
//!   per DTO than its value builder, 265,727 to 260,410 bytes gzipped (2026-11-30).
//! - Every DTO is read from an object only (`objects.rs`): serde's derived readers also took
//!   an array's items as a struct's fields by position, a second copy of each DTO's field
//!   readers that no client used: 259,811 to 248,220 bytes gzipped (2026-12-02). The
//!   fields that take an object or leave anything else out (`lenient::opt_object`) hand the
//!   map to the DTO instead of buffering the value for an untagged enum: 244,682.
//! - Speed, not size: `sms_xml.rs` reads the send request (up to a million `<gsm>`) borrowing
//!   its texts; quick-xml's serde path allocated per recipient and took four times the JSON
//!   time (2cfbeac). `json_recipients.rs` reads a large JSON request's recipient list from
//!   the text and leaves serde the rest, or leaves serde all of it when the list is not in
//!   the usual shape: 31–33x to 41–46x libphonenumber-js in the npm filter bench, for 2.8 KB
//!   gzipped (8743715). Its usual item, `{"value":"…"}`, is recognised by comparing two words
//!   rather than token by token (d217f56; docs/performance.md has the steps that followed).
//!
//! A unit test compares the server's readings with the npm package's on every sample and on
//! thousands of broken variants, and the property tests round-trip every DTO in both formats:
//! change the readers only with both green, and measure the `.wasm` (`scripts/build-npm`)
//! before trading any of this for a generic crate.

mod any;
pub(crate) mod codec;
/// The one place where the npm package's build differs: how a document is written as JSON (as
/// text or as a value) and how a JSON body's failing field is named (fast and generic, or small
/// for the package).
#[cfg_attr(all(target_arch = "wasm32", feature = "js"), path = "flavour_npm.rs")]
mod flavour;
mod hint;
mod json_path;
mod json_read;
mod json_recipients;
mod kind_codec;
pub(crate) mod lenient;
mod limits;
mod list_upkeep;
mod objects;
mod sms_xml;
mod text_only;
mod xml_guard;
mod xml_value;
mod xml_writer;

/// Declares a document: its JSON root (none: the fields are at the top) and XML roots.
macro_rules! document {
    ($type:ty, $json:expr, $xml:expr) => {
        impl $crate::wire::Document for $type {
            const JSON_ROOT: Option<&'static str> = $json;
            const XML_ROOTS: &'static [&'static str] = $xml;
        }
    };
}

mod account;
mod audience_segments;
mod campaigns;
mod clicks;
mod consumption;
mod contact_cards;
mod contacts;
mod conversations;
mod conversions;
mod daily;
mod drafts;
mod envelope;
mod events;
mod journeys;
mod keywords;
mod messages;
mod notification;
mod operator;
mod operator_changes;
mod prices;
mod report;
mod result;
mod retention;
mod send;
mod senders;
mod signup_pages;
mod sub_account;
mod team;
mod team_rules;
mod templates;
mod tokens;
mod webhook;

pub use account::*;
pub use any::Kind;
pub use audience_segments::*;
pub use campaigns::*;
pub use clicks::*;
pub use codec::{Document, Format, MAX_BODY_BYTES, decode, decode_sms, decode_sms_with, decode_with, encode};
pub use consumption::*;
pub use contact_cards::*;
pub use contacts::*;
pub use conversations::*;
pub use conversions::*;
pub use daily::*;
pub use drafts::*;
pub use envelope::*;
pub use events::*;
pub use journeys::*;
pub use keywords::*;
pub use limits::Limits;
pub use list_upkeep::*;
pub use messages::*;
pub use notification::*;
/// For the JavaScript API's own arguments (see `objects`).
#[cfg(all(target_arch = "wasm32", feature = "js"))]
pub(crate) use objects::{Object, object};
pub use operator::*;
pub use operator_changes::*;
pub use prices::*;
pub use report::*;
pub use result::*;
pub use retention::*;
pub use send::*;
pub use senders::*;
pub use signup_pages::*;
pub use sub_account::*;
pub use team::*;
pub use team_rules::*;
pub use templates::*;
pub use tokens::*;
pub use webhook::*;

/// How many times `byte` occurs in `text`, to size a recipient vector before reading a body.
/// Eight bytes at a time in one 64-bit word: the npm package is built for size, where LLVM
/// vectorizes no loop, and a byte at a time was a visible part of its filter's time.
pub(crate) fn occurrences(text: &[u8], byte: u8) -> usize {
    const LOWS: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let pattern = u64::from_ne_bytes([byte; 8]);
    let (words, rest) = text.as_chunks::<8>();
    let matches = words.iter().map(|word| {
        // A byte of `zeros` is 0 exactly where `text` holds `byte`; its high bit is then left
        // set in `found` (the low seven bits never carry into the next byte).
        let zeros = u64::from_ne_bytes(*word) ^ pattern;
        let found = !(((zeros & LOWS) + LOWS) | zeros | LOWS);
        found.count_ones() as usize
    });
    matches.sum::<usize>() + rest.iter().filter(|&&b| b == byte).count()
}

#[cfg(test)]
mod tests {
    #[test]
    fn occurrences_counts_every_match_across_rounds() {
        assert_eq!(super::occurrences(b"", b'{'), 0);
        assert_eq!(super::occurrences(&[b'{'; 10_000], b'{'), 10_000, "255 matches a round never overflow");
        let mixed: Vec<u8> = (0..1_000u32).flat_map(|i| if i % 3 == 0 { *b"{x" } else { *b"yz" }).collect();
        assert_eq!(super::occurrences(&mixed, b'{'), 334);
        // Every byte value, beside every other, at every offset within a word.
        let all: Vec<u8> = (0..=255u8).cycle().take(256 * 9 + 5).collect();
        for byte in [0, 1, b'{', 0x7f, 0x80, 0xfb, 0xff] {
            for start in 0..9 {
                let expected = all[start..].iter().filter(|&&b| b == byte).count();
                assert_eq!(super::occurrences(&all[start..], byte), expected, "byte {byte} from {start}");
            }
        }
    }
}
