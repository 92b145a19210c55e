//! The wire model: every body of the interface as a DTO, and the JSON and XML codecs.
//!
//! DTOs mirror the public samples exactly (keys, nesting, which values are strings); they are
//! lenient where the samples disagree (numbers as strings, `null` as text). Domain types live
//! elsewhere and are built from DTOs by validation.

mod any;
mod codec;
mod sms_xml;
pub(crate) mod lenient;
mod xml_guard;
mod xml_value;
mod xml_writer;
#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
mod json_path;

mod campaigns;
mod contacts;
mod envelope;
mod events;
mod notification;
mod result;
mod send;
mod webhook;

pub use any::Kind;
pub use campaigns::*;
pub use codec::{Document, Format, MAX_BODY_BYTES, decode, decode_sms, encode};
#[cfg(any(test, all(target_arch = "wasm32", feature = "js")))]
pub(crate) use codec::{Codec, read_body, read_plain};
pub use contacts::*;
pub use envelope::*;
pub use events::*;
pub use notification::*;
pub use result::*;
pub use send::*;
pub use webhook::*;
