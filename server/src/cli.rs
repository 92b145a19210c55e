//! The command line of the `texto` binary.

use clap::{Parser, Subcommand};

use crate::Config;

/// texto — an open SMS campaign service.
#[derive(Debug, Parser)]
#[command(name = "texto", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The `texto` sub-commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service (API and web app).
    Serve(Config),
}
