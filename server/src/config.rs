//! The service's configuration, read once at start-up from flags and environment.

use std::{net::SocketAddr, path::PathBuf};

/// Everything `texto serve` can be told. Each flag also reads an environment variable.
#[derive(Debug, Clone, clap::Args)]
pub struct Config {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "TEXTO_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// SQLite database file; created, with its folder, if missing.
    #[arg(long, env = "TEXTO_DB", default_value = "data/texto.db")]
    pub db: PathBuf,
    /// Folder holding the built web app (Trunk's `dist/`), served under `/app/`.
    #[arg(long, env = "TEXTO_WEB_DIR", default_value = "dist")]
    pub web_dir: PathBuf,
}
