//! `texto-core`: the pure heart of texto.
//!
//! Everything here is deterministic and free of I/O so that one implementation serves the
//! server (native), the web app (WebAssembly) and JavaScript projects (the npm package).

mod calendar;
mod error;
mod gsm;
mod phone;
mod pushtype;
mod segments;
mod signature;
pub mod wire;

#[cfg(target_arch = "wasm32")]
pub mod js;

pub use calendar::{
    DelayError, format_paris, french_public_holidays, is_french_public_holiday, next_allowed_send,
    parse_delay,
};
pub use error::{Error, FieldError};
pub use phone::{
    Country, Msisdn, NUMBERING_DATA_VERSION, NumberError, parse_international,
    parse_with_default_country,
};
pub use pushtype::PushType;
pub use segments::{Encoding, Segments, segments};
pub use signature::{
    DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, SignatureError, TIMESTAMP_HEADER, sign, verify,
};
