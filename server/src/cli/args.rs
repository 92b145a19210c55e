//! The command line of the `texto` binary.

use clap::{Parser, Subcommand};

use crate::{
    Config,
    carrier::CaDir,
    operator::routing::ConnectorName,
    store::{DbLocation, HttpErrors},
    team::address_range::AddressRange,
};

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
    Serve(Box<Config>),
    /// Run the SMSC simulator on its own: an SMPP 3.4 server with an HTTP face.
    SmscSimulator(crate::smsc::SmscConfig),
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
    /// Manage the SMSCs texto hands messages to (besides `--smsc`, the connector `default`).
    Connector {
        /// The database.
        #[command(flatten)]
        db: DbArg,
        /// What to do with connectors.
        #[command(subcommand)]
        action: ConnectorAction,
    },
    /// Manage the routes that choose a message's connectors.
    Route {
        /// The database.
        #[command(flatten)]
        db: DbArg,
        /// What to do with routes.
        #[command(subcommand)]
        action: RouteAction,
    },
    /// Manage operators: the people who run texto for every account (`/operator/…`).
    Operator {
        /// The database.
        #[command(flatten)]
        db: DbArg,
        /// What to do with operators.
        #[command(subcommand)]
        action: OperatorAction,
    },
    /// Manage the moderation rules (`texto account moderate` holds every campaign of an account).
    Moderation {
        /// The database.
        #[command(flatten)]
        db: DbArg,
        /// What to do with the rules.
        #[command(subcommand)]
        action: ModerationAction,
    },
    /// Manage an account's registered sender IDs: once it has some, its sends may only name them.
    Sender {
        /// The database.
        #[command(flatten)]
        db: DbArg,
        /// What to do with senders.
        #[command(subcommand)]
        action: SenderAction,
    },
    /// Manage price plans (`texto account plan` puts an account on one).
    Plan {
        /// The database.
        #[command(flatten)]
        db: DbArg,
        /// What to do with plans.
        #[command(subcommand)]
        action: PlanAction,
    },
    /// Manage the people who sign in to the web app.
    User {
        /// The database.
        #[command(flatten)]
        db: DbArg,
        /// What to do with people.
        #[command(subcommand)]
        action: UserAction,
    },
}

/// `texto user …`.
#[derive(Debug, clap::Subcommand)]
pub enum UserAction {
    /// Create a person: prints a one-time link to choose their name and password (valid 7
    /// days), or reads the password from stdin with `--password-stdin`.
    Create {
        /// Their account.
        #[arg(long)]
        account: String,
        /// The email they sign in with.
        #[arg(long)]
        email: String,
        /// What they may do: owner, admin, sender, author or analyst.
        #[arg(long, default_value = "owner")]
        role: texto_core::Role,
        /// Their name (with `--password-stdin`; the email otherwise).
        #[arg(long)]
        name: Option<String>,
        /// Read the password from the first line of stdin instead of printing a link.
        #[arg(long)]
        password_stdin: bool,
        /// The origin the link starts with.
        #[arg(long, env = "TEXTO_PUBLIC_URL", default_value = "http://127.0.0.1:8080")]
        public_url: String,
    },
}

/// `texto connector …`: changes reach a running texto within a second, on every node.
#[derive(Debug, Subcommand)]
pub enum ConnectorAction {
    /// Add a connector, or change the one of that name (it binds again).
    Add {
        /// Its name: letters, digits, `-` or `_` (`default` is the `--smsc` one).
        name: ConnectorName,
        /// `smpp://SYSTEM_ID:PASSWORD@HOST:PORT?binds=N&window=W&rate=R&system_type=T`, or
        /// `smpps://…` over TLS (with `ca=NAME`, a PEM file in `--ca-dir`, for a private authority).
        url: String,
        /// Define it without binding to it yet.
        #[arg(long)]
        disabled: bool,
        /// The folder of the authorities' PEM files, as the nodes are given it: `ca=NAME` must
        /// name one there. Without it, `ca=` is refused.
        #[arg(long, env = "TEXTO_CA_DIR")]
        ca_dir: Option<CaDir>,
    },
    /// List the connectors, with what each running node sees of them.
    List,
    /// Bind to a connector again.
    Enable {
        /// Its name.
        name: ConnectorName,
    },
    /// Unbind from a connector: its routes' traffic goes to their next connector.
    Disable {
        /// Its name.
        name: ConnectorName,
    },
    /// Delete a connector.
    Remove {
        /// Its name.
        name: ConnectorName,
    },
}

/// `texto route …`: changes reach a running texto within a second, on every node.
#[derive(Debug, Subcommand)]
pub enum RouteAction {
    /// Add a route: the messages it matches go to the first of its connectors that is up.
    Add {
        /// Its connectors in failover order (`A,B`).
        #[arg(long, value_delimiter = ',', required = true)]
        connectors: Vec<ConnectorName>,
        /// Destinations whose international digits begin with these (`33`, `3361`).
        #[arg(long, conflicts_with = "country")]
        prefix: Option<String>,
        /// Destinations in this country's mobile ranges (`FR`).
        #[arg(long)]
        country: Option<String>,
        /// Only this account's messages.
        #[arg(long)]
        account: Option<String>,
        /// Only `alert` or `marketing` messages.
        #[arg(long)]
        pushtype: Option<String>,
        /// Only the messages of the accounts on this price plan (`shipped`: on none).
        #[arg(long)]
        plan: Option<String>,
        /// Routes are tried by priority, highest first, then oldest first.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        priority: i64,
    },
    /// List the routes in the order they are tried.
    List,
    /// Delete a route.
    Remove {
        /// Its id (from `route list`).
        id: i64,
    },
}

/// `texto operator …`
#[derive(Debug, Subcommand)]
pub enum OperatorAction {
    /// Create an operator and print their bearer token once (only its hash is stored).
    Create {
        /// Their name (unique).
        name: String,
    },
    /// Set an operator's password, read from the first line of stdin: they then sign in to the
    /// console (`/app/operator`) with their name and password.
    Password {
        /// Their name.
        name: String,
    },
}

/// `texto moderation …`: campaigns a rule matches are held for an operator (`/operator/moderation`).
#[derive(Debug, Subcommand)]
pub enum ModerationAction {
    /// Hold campaigns whose text matches a regular expression (case does not matter).
    AddPattern {
        /// The pattern (`cr[ée]dit\s+rapide`).
        pattern: String,
    },
    /// Hold campaigns with a link to a domain or its subdomains.
    AddDomain {
        /// The domain (`example.com`).
        domain: String,
    },
    /// Whether accounts created from now on are moderated unless their creation says otherwise
    /// (the command line's `account create`, the console, and sub-accounts a customer creates).
    NewAccounts {
        /// `on` or `off`.
        #[arg(value_parser = on_off, action = clap::ArgAction::Set)]
        state: bool,
    },
    /// List the rules, the moderated accounts and whether new accounts are.
    List,
    /// Delete a rule.
    Remove {
        /// Its id (from `moderation list`).
        id: i64,
    },
}

/// `texto sender …`: an account's registered sender IDs.
#[derive(Debug, Subcommand)]
pub enum SenderAction {
    /// Register a sender ID for the account (its sends may then only name registered ones).
    Add {
        /// The account's name.
        account: String,
        /// The sender ID: 3 to 11 letters or digits with a letter, or up to 15 digits.
        name: String,
    },
    /// Unregister a sender ID (the last one gone, the account's sends name any sender again).
    Remove {
        /// The account's name.
        account: String,
        /// The sender ID.
        name: String,
    },
    /// List the account's registered sender IDs.
    List {
        /// The account's name.
        account: String,
    },
}

/// `texto plan …`: changes reach a running texto within a second, on every node.
#[derive(Debug, Subcommand)]
pub enum PlanAction {
    /// Create a plan, or replace the prices of the one of that name.
    Set {
        /// Its name (`shipped` is the prices texto ships with).
        name: String,
        /// Credits per part to a country: `FR=1` (repeat).
        #[arg(long = "country", value_parser = texto_core::country_price)]
        countries: Vec<(texto_core::Country, texto_core::Credits)>,
        /// Credits per part to the other countries.
        #[arg(long, value_parser = texto_core::part_price_text)]
        other: texto_core::Credits,
    },
    /// List the plans with their prices.
    List,
}

/// `on` or `off`.
fn on_off(text: &str) -> Result<bool, String> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        other => Err(format!("{other:?}: expected on or off")),
    }
}

/// `--db`, as for `serve`.
#[derive(Debug, clap::Args)]
pub struct DbArg {
    /// The database: an SQLite file path (or `sqlite://PATH`), or a PostgreSQL URL
    /// (`postgres://user:password@host:port/database`) shared by several nodes.
    #[arg(long, env = "TEXTO_DB", default_value = "data/texto.db", global = true)]
    pub db: DbLocation,
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
        /// Hold every campaign of the account for an operator: `--moderated` (or `on`) or
        /// `--moderated off`; without it, as `texto moderation new-accounts` says (off until
        /// set). `texto account moderate` changes it later.
        #[arg(long, num_args = 0..=1, default_missing_value = "on", value_parser = on_off)]
        moderated: Option<bool>,
    },
    /// Limit the messages a second handed to carriers for the account (on each node).
    Limit {
        /// The account's name.
        name: String,
        /// Messages a second; without it, no limit.
        #[arg(long)]
        per_second: Option<u32>,
    },
    /// Hold every campaign of the account for an operator's moderation, or stop.
    Moderate {
        /// The account's name.
        name: String,
        /// `on` or `off`.
        #[arg(value_parser = on_off, action = clap::ArgAction::Set)]
        state: bool,
    },
    /// Top up an account (recorded in its ledger).
    Credit {
        /// The account's name.
        name: String,
        /// Credits to add.
        credits: f64,
    },
    /// Set the account's anti-flood limits per number and rolling hour (defaults 6 and 20).
    Flood {
        /// The account's name.
        name: String,
        /// Most identical texts to one number.
        #[arg(long)]
        identical_per_hour: Option<u32>,
        /// Most texts of any kind to one number.
        #[arg(long)]
        any_per_hour: Option<u32>,
    },
    /// Put the account on a price plan (`shipped`: the prices texto ships with).
    Plan {
        /// The account's name.
        name: String,
        /// The plan's name.
        plan: String,
    },
    /// Allow or block a country for the account, and cap its messages a month.
    Country {
        /// The account's name.
        name: String,
        /// ISO 3166 code of the country (`FR`, `BE`, …).
        country: String,
        /// Refuse sends to the country (counted as not_allowed).
        #[arg(long, conflicts_with = "allow")]
        block: bool,
        /// Allow sends to the country again.
        #[arg(long)]
        allow: bool,
        /// Most messages a calendar month (UTC) to the country (beyond: country_limit).
        #[arg(long, conflicts_with = "no_cap")]
        monthly_cap: Option<u32>,
        /// Remove the monthly cap.
        #[arg(long)]
        no_cap: bool,
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
        /// `off`: every error answer comes as HTTP 200 with its envelope, as the SMSFactor
        /// SDKs need to read it; `on`: with its HTTP status.
        #[arg(long, default_value = "on")]
        http_errors: HttpErrors,
        /// What the token is for, as the account's people will recognise it in the Tokens screen.
        #[arg(long, default_value = "Command line")]
        name: String,
        /// How long it lives: seconds (`3600`) or a duration (`90d`, `12h`); without it, until
        /// revoked.
        #[arg(long, value_parser = seconds_or_duration)]
        ttl: Option<i64>,
        /// An address or CIDR range it answers to (repeat, or separate with commas); without
        /// it, any.
        #[arg(long = "allow-ip", value_delimiter = ',')]
        allow_ip: Vec<AddressRange>,
        /// What it may do: owner, admin, sender, author or analyst.
        #[arg(long, default_value = "owner")]
        role: texto_core::Role,
    },
    /// Revoke a token.
    Revoke {
        /// The token.
        token: String,
    },
}

/// `--ttl`: whole seconds, or a duration as `90d`, `12h 30m`.
fn seconds_or_duration(text: &str) -> Result<i64, String> {
    if let Ok(seconds) = text.trim().parse::<i64>() {
        return Ok(seconds);
    }
    let duration = text.parse::<humantime::Duration>().map_err(|e| format!("{text:?}: {e}"))?;
    i64::try_from(duration.as_secs()).map_err(|_| format!("{text:?} is too long"))
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use super::*;

    #[test]
    fn every_sub_command_is_well_defined() {
        Cli::command().debug_assert();
    }

    #[test]
    fn on_and_off_read_as_the_operator_types_them() {
        let parse = |args: &[&str]| Cli::try_parse_from(args.iter().copied()).map(|cli| cli.command);
        let Ok(Command::Moderation { action: ModerationAction::NewAccounts { state }, .. }) =
            parse(&["texto", "moderation", "new-accounts", "on"])
        else {
            panic!("new-accounts on")
        };
        assert!(state);
        for (args, expected) in [
            (&["texto", "account", "create", "a"][..], None),
            (&["texto", "account", "create", "a", "--moderated"][..], Some(true)),
            (&["texto", "account", "create", "a", "--moderated", "off"][..], Some(false)),
        ] {
            let Ok(Command::Account { action: AccountAction::Create { moderated, .. }, .. }) = parse(args) else {
                panic!("{args:?}")
            };
            assert_eq!(moderated, expected, "{args:?}");
        }
        assert!(parse(&["texto", "moderation", "new-accounts", "maybe"]).is_err());
    }
}
