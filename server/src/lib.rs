//! `texto-server`: the HTTP service behind `texto serve`.

mod address_range;
pub mod admin;
pub mod admin_users;
mod api;
mod app;
mod approval_expiry;
mod audit_log;
mod auto_replies;
mod carrier;
mod cli;
pub mod command_log;
mod config;
mod db;
mod delivery;
mod devices;
mod error;
mod every_second;
mod link_mail;
mod metrics_endpoint;
mod moderation;
pub mod moderation_admin;
mod net_guard;
mod password_resets;
mod passwords;
pub mod plan_admin;
mod price_plans;
mod retention;
mod routing;
pub mod routing_admin;
mod shutdown;
mod sign_in_guard;
mod sms_text;
pub mod smsc;
mod state;
mod store;
pub mod telemetry;
mod token_mint;
mod two_factor;
mod web_app;
mod webhook_sender;

pub use address_range::AddressRange;
pub use api::access::{Access, ROUTES, required};
pub use app::App;
pub use carrier::{CaDir, CaName, SmppTarget, SmscUrl, Tls};
pub use cli::{
    AccountAction, Cli, Command, ConnectorAction, DbArg, ModerationAction, OperatorAction, PlanAction, RouteAction,
    TokenAction, UserAction,
};
pub use config::{Config, RetryDelays};
pub use error::Error;
pub use shutdown::shutdown_signal;
pub use store::{DbLocation, HttpErrors};
