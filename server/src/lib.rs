//! `texto-server`: the HTTP service behind `texto serve`.

mod app;
mod cli;
mod config;
mod db;
mod error;
mod routes;
mod shutdown;
pub mod telemetry;
mod web_app;

pub use app::App;
pub use cli::{Cli, Command};
pub use config::Config;
pub use error::Error;
pub use shutdown::shutdown_signal;
