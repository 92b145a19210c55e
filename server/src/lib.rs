//! `texto-server`: the HTTP service behind `texto serve`.

mod account;
mod app;
mod audience;
mod carrier;
mod cli;
mod config;
mod db;
mod delivery;
mod error;
mod http;
mod inbox;
mod journeys;
pub mod operator;
mod sending;
mod shutdown;
mod signup;
pub mod smsc;
mod state;
mod store;
mod team;
pub mod telemetry;
mod webhook_sender;

pub use crate::cli::args::{
    AccountAction, Cli, Command, ConnectorAction, DbArg, ModerationAction, OperatorAction, PlanAction, RouteAction,
    SenderAction, TokenAction, UserAction,
};
pub use crate::http::access::{Access, ROUTES, required};
pub use crate::team::address_range::AddressRange;
pub use app::App;
pub use carrier::{CaDir, CaName, SmppTarget, SmscUrl, Tls};
pub use cli::dispatch::administer;
pub use config::{Config, RetryDelays};
pub use error::Error;
pub use operator::{account_commands, moderation_commands, plan_commands, routing_commands};
pub use shutdown::shutdown_signal;
pub use store::{DbLocation, HttpErrors};
pub use team::user_commands;
