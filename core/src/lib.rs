//! `texto-core`: the pure heart of texto.
//!
//! Everything here is deterministic and free of I/O so that one implementation serves the
//! server (native), the web app (WebAssembly) and JavaScript projects (the npm package).

mod gsm;
mod phone;
mod pushtype;
mod segments;

#[cfg(target_arch = "wasm32")]
pub mod js;

pub use phone::{
    Country, Msisdn, NUMBERING_DATA_VERSION, NumberError, parse_international,
    parse_with_default_country,
};
pub use pushtype::PushType;
pub use segments::{Encoding, Segments, segments};
