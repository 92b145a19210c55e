//! Building the service from its configuration: used by `main` and by the tests alike.

use std::{future::Future, net::SocketAddr};

use sqlx::SqlitePool;
use tokio::net::TcpListener;
use tower_http::trace::TraceLayer;

use crate::{Config, Error, db, routes, web_app};

/// Shared state handed to every request handler.
#[derive(Clone)]
pub(crate) struct AppState {
    pub(crate) db: SqlitePool,
}

/// A texto service bound to its port, with its database open and migrated, ready to run.
pub struct App {
    listener: TcpListener,
    address: SocketAddr,
    router: axum::Router,
}

impl App {
    /// Opens the database, applies migrations and binds the listening socket.
    pub async fn build(config: Config) -> Result<App, Error> {
        let db = db::open(&config.db).await?;
        let listener = TcpListener::bind(config.addr)
            .await
            .map_err(Error::io(format!("listening on {}", config.addr)))?;
        let address = listener.local_addr().map_err(Error::io("reading the bound address"))?;
        let router = routes::router()
            .merge(web_app::router(&config.web_dir))
            .layer(TraceLayer::new_for_http())
            .with_state(AppState { db });
        Ok(App { listener, address, router })
    }

    /// The port actually bound (useful when the configuration asked for port 0).
    pub fn port(&self) -> u16 {
        self.address.port()
    }

    /// `http://host:port`, the base URL clients use.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Serves requests until `shutdown` resolves, then lets in-flight requests finish.
    pub async fn run_until_stopped(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<(), Error> {
        tracing::info!(address = %self.address, "texto listening");
        axum::serve(self.listener, self.router)
            .with_graceful_shutdown(shutdown)
            .await
            .map_err(Error::io("serving HTTP"))
    }
}
