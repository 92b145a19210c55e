//! The command line of the `texto` binary.

use std::path::PathBuf;

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
    /// Manage accounts.
    Account {
        /// The database.
        #[command(flatten)]
        db: DbArg,
        /// What to do with accounts.
        #[command(subcommand)]
        action: AccountAction,
    },
    /// Manage API tokens.
    Token {
        /// The database.
        #[command(flatten)]
        db: DbArg,
        /// What to do with tokens.
        #[command(subcommand)]
        action: TokenAction,
    },
}

/// `--db`, as for `serve`.
#[derive(Debug, clap::Args)]
pub struct DbArg {
    /// SQLite database file.
    #[arg(long, env = "TEXTO_DB", default_value = "data/texto.db", global = true)]
    pub db: PathBuf,
}

/// `texto account …`
#[derive(Debug, Subcommand)]
pub enum AccountAction {
    /// Create an account with an opening balance.
    Create {
        /// Its name (unique).
        name: String,
        /// Opening credits.
        #[arg(long, default_value_t = 0.0)]
        credits: f64,
    },
    /// Top up an account (recorded in its ledger).
    Credit {
        /// The account's name.
        name: String,
        /// Credits to add.
        credits: f64,
    },
}

/// `texto token …`
#[derive(Debug, Subcommand)]
pub enum TokenAction {
    /// Create a token and print it once on stdout (only its hash is stored).
    Create {
        /// The account it acts for.
        #[arg(long)]
        account: String,
    },
    /// Revoke a token.
    Revoke {
        /// The token.
        token: String,
    },
}
