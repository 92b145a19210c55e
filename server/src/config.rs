//! The service's configuration, read once at start-up from flags and environment.

use std::{net::SocketAddr, num::NonZeroUsize, path::PathBuf};

use crate::{
    carrier::{CaDir, SmscUrl},
    store::{DbLocation, HttpErrors},
    team::address_range::AddressRange,
    webhook_sender::RetrySchedule,
};

/// `--webhook-retry-delays`: `30s,2m,10m,…`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryDelays(pub Vec<std::time::Duration>);

impl std::str::FromStr for RetryDelays {
    type Err = String;

    fn from_str(text: &str) -> Result<RetryDelays, String> {
        RetrySchedule::parse_delays(text).map(RetryDelays)
    }
}

/// Everything `texto serve` can be told. Each flag also reads an environment variable.
#[derive(Debug, Clone, clap::Args)]
pub struct Config {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "TEXTO_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Where to serve `GET /metrics` in Prometheus' text format (HOST:PORT, a listener of its
    /// own, never the API's); off by default.
    #[arg(long, env = "TEXTO_METRICS_ADDR")]
    pub metrics_addr: Option<SocketAddr>,
    /// The database: an SQLite file path (or `sqlite://PATH`), created with its folder if
    /// missing; or a PostgreSQL URL (`postgres://user:password@host:port/database`), which
    /// several nodes share (docs/scale-out.md).
    #[arg(long, env = "TEXTO_DB", default_value = "data/texto.db")]
    pub db: DbLocation,
    /// Folder holding the built web app (Trunk's `dist/`), served under `/app/`.
    #[arg(long, env = "TEXTO_WEB_DIR", default_value = "dist")]
    pub web_dir: PathBuf,
    /// Origin recipients see in short links (`{public_url}/s/{code}`); defaults to `http://{addr}`.
    #[arg(long, env = "TEXTO_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Accept webhook URLs on loopback and private networks (for demos and tests).
    #[arg(long, env = "TEXTO_ALLOW_PRIVATE_WEBHOOKS")]
    pub allow_private_webhooks: bool,
    /// Largest request body, in bytes (413 above).
    #[arg(long, env = "TEXTO_MAX_BODY_BYTES", default_value_t = 64 * 1024 * 1024)]
    pub max_body_bytes: usize,
    /// Most recipients in one request.
    #[arg(long, env = "TEXTO_MAX_RECIPIENTS", default_value_t = 1_000_000)]
    pub max_recipients: usize,
    /// `off`: error answers to requests without a valid token come as HTTP 200 with their
    /// envelope, as SMSFactor answers (each token has its own setting, `texto token create
    /// --http-errors`); `on`: with their HTTP status.
    #[arg(long, env = "TEXTO_HTTP_ERRORS", default_value = "on")]
    pub http_errors: HttpErrors,
    /// Proxies (addresses or CIDR ranges, comma-separated) whose `X-Forwarded-For` gives the
    /// client's address, for tokens limited to some addresses; without it, the peer's address
    /// is the client's.
    #[arg(long, env = "TEXTO_TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxies: Vec<AddressRange>,
    /// Requests per second allowed per token (bursts up to twice as many); 0 turns it off.
    #[arg(long, env = "TEXTO_RATE_LIMIT", default_value_t = 50)]
    pub rate_limit: u32,
    /// Opt-out text added to marketing messages.
    #[arg(long, env = "TEXTO_STOP_TEXT", default_value = "STOP au 36180")]
    pub stop_text: String,
    /// Seconds a client has to send a request's headers; the connection is closed after. Also
    /// how long an idle keep-alive connection stays open (hyper starts this time-out as soon as
    /// it waits for the next request).
    #[arg(long, env = "TEXTO_HEADER_READ_TIMEOUT_SECS", default_value_t = 10)]
    pub header_read_timeout_secs: u64,
    /// Seconds a client has to send a whole request body, and at most between two of its
    /// pieces; 408 after.
    #[arg(long, env = "TEXTO_BODY_READ_TIMEOUT_SECS", default_value_t = 30)]
    pub body_read_timeout_secs: u64,
    /// Most connections served at once; further ones wait in the listen backlog.
    #[arg(long, env = "TEXTO_MAX_CONNECTIONS", default_value_t = 10_000)]
    pub max_connections: usize,
    /// Most bodies over 1 MB decoded at once (default: twice the number of cores); 503 with
    /// `Retry-After` when one waits over a second for its turn.
    #[arg(long, env = "TEXTO_MAX_LARGE_BODIES")]
    pub max_large_bodies: Option<usize>,
    /// Most password checks a node runs or holds waiting for a hashing thread at once (sign-ins,
    /// operators' sign-ins, changes that ask for the password); past it a sign-in is answered
    /// 503 (-11) with `Retry-After` instead of waiting behind a burst.
    #[arg(long, env = "TEXTO_MAX_PASSWORD_CHECKS", default_value = "32")]
    pub max_password_checks: NonZeroUsize,
    /// Create the account `demo` with 1,000 credits on first start and print a token for it.
    #[arg(long, env = "TEXTO_DEMO")]
    pub demo: bool,
    /// Where messages go: `builtin` (the SMSC simulator, started in-process) or
    /// `smpp://SYSTEM_ID:PASSWORD@HOST:PORT`, either with `?binds=1&window=50&rate=0`
    /// (transceiver binds, in-flight submits per bind, submits per second; 0 = unlimited).
    #[arg(long, env = "TEXTO_SMSC", default_value = "builtin")]
    pub smsc: SmscUrl,
    /// The folder holding the PEM files of the private authorities that connectors over TLS name
    /// with `ca=NAME` (a file name in it, never a path; at most 1 MiB each). Without it, `ca=`
    /// is refused.
    #[arg(long, env = "TEXTO_CA_DIR")]
    pub ca_dir: Option<CaDir>,
    /// The sender of messages that name none (docs/interface.md §6.4: the short code of the STOP text).
    #[arg(long, env = "TEXTO_DEFAULT_SENDER", default_value = "36180")]
    pub default_sender: String,
    /// SMTP relay for balance alert emails (`smtp://HOST:PORT`); without it they are logged.
    #[arg(long, env = "TEXTO_SMTP_URL")]
    pub smtp_url: Option<String>,
    /// The sender of balance alert emails.
    #[arg(long, env = "TEXTO_SMTP_FROM", default_value = "texto <noreply@localhost>")]
    pub smtp_from: String,
    /// Waits before each retry of a webhook event that failed (the last repeats).
    #[arg(long, env = "TEXTO_WEBHOOK_RETRY_DELAYS", default_value = "30s,2m,10m,1h,6h,12h")]
    pub webhook_retry_delays: RetryDelays,
    /// How long after an event was raised its retries stop (then it is marked failed).
    #[arg(long, env = "TEXTO_WEBHOOK_GIVE_UP_AFTER", default_value = "3d")]
    pub webhook_give_up_after: humantime::Duration,
    /// How long webhooks' request logs and their delivered or given-up events are kept.
    #[arg(long, env = "TEXTO_WEBHOOK_LOG_KEEP", default_value = "30d")]
    pub webhook_log_keep: humantime::Duration,
    /// How long a campaign waits for approval; then it is rejected and its credits returned.
    #[arg(long, env = "TEXTO_APPROVAL_WAIT", default_value = "7d")]
    pub approval_wait: humantime::Duration,
    /// How often A/B tests whose wait is over are looked for, to send their winner to the rest.
    #[arg(long, env = "TEXTO_AB_CHECK_EVERY", default_value = "1m")]
    pub ab_check_every: humantime::Duration,
    /// How long the audit log keeps its lines.
    #[arg(long, env = "TEXTO_AUDIT_KEEP", default_value = "365d")]
    pub audit_keep: humantime::Duration,
    /// `false`: nothing is recorded in the audit log (to measure what recording costs).
    #[arg(long, env = "TEXTO_AUDIT", default_value_t = true, action = clap::ArgAction::Set)]
    pub audit: bool,
    /// How often the retention pass removes what accounts keep no longer (`PUT /retention`).
    #[arg(long, env = "TEXTO_RETENTION_EVERY", default_value = "1h")]
    pub retention_every: humantime::Duration,
    /// With `--smsc builtin`: milliseconds before the simulator sends a message's receipt.
    #[arg(long, env = "TEXTO_BUILTIN_DLR_DELAY_MS", default_value_t = 1000)]
    pub builtin_dlr_delay_ms: u64,
}

impl Config {
    /// The configuration for `addr` and `db` with every other setting at its default.
    pub fn new(addr: SocketAddr, db: impl Into<DbLocation>, web_dir: PathBuf) -> Config {
        Config {
            addr,
            metrics_addr: None,
            db: db.into(),
            web_dir,
            public_url: None,
            allow_private_webhooks: false,
            max_body_bytes: 64 * 1024 * 1024,
            max_recipients: 1_000_000,
            http_errors: HttpErrors::On,
            trusted_proxies: Vec::new(),
            rate_limit: 50,
            stop_text: "STOP au 36180".to_owned(),
            header_read_timeout_secs: 10,
            body_read_timeout_secs: 30,
            max_connections: 10_000,
            max_large_bodies: None,
            max_password_checks: NonZeroUsize::new(32).unwrap_or(NonZeroUsize::MIN),
            demo: false,
            smsc: "builtin".parse().unwrap_or_else(|_| unreachable!("builtin parses")),
            ca_dir: None,
            default_sender: "36180".to_owned(),
            builtin_dlr_delay_ms: 1000,
            smtp_url: None,
            webhook_retry_delays: RetryDelays(RetrySchedule::reference().delays),
            webhook_give_up_after: RetrySchedule::reference().give_up_after.into(),
            webhook_log_keep: std::time::Duration::from_secs(30 * 24 * 3600).into(),
            audit_keep: std::time::Duration::from_secs(365 * 24 * 3600).into(),
            approval_wait: std::time::Duration::from_secs(7 * 24 * 3600).into(),
            ab_check_every: std::time::Duration::from_secs(60).into(),
            audit: true,
            retention_every: std::time::Duration::from_secs(3600).into(),
            smtp_from: "texto <noreply@localhost>".to_owned(),
        }
    }

    /// The retry schedule of webhook events.
    pub fn retry_schedule(&self) -> RetrySchedule {
        RetrySchedule { delays: self.webhook_retry_delays.0.clone(), give_up_after: *self.webhook_give_up_after }
    }

    /// The cap on large bodies decoded at once: as configured, else twice the number of cores.
    pub(crate) fn large_bodies(&self) -> usize {
        self.max_large_bodies.unwrap_or_else(|| 2 * std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}
