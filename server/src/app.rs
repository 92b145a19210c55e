//! Building the service from its configuration: used by `main` and by the tests alike.

use std::{future::Future, net::SocketAddr, sync::Arc};

use governor::DefaultKeyedRateLimiter;
use texto_core::{MessageOptions, PriceTable};
use tokio::net::TcpListener;
use tower_http::{
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    trace::TraceLayer,
};

use crate::{
    Config, Error, api,
    db::Database,
    store::{Store, sqlite::SqliteStore},
    web_app,
};

/// Shared state handed to every request handler.
#[derive(Clone)]
pub(crate) struct AppState {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) config: Arc<Config>,
    pub(crate) rate_limiter: Option<Arc<DefaultKeyedRateLimiter<[u8; 32]>>>,
    pub(crate) message: MessageOptions,
    pub(crate) prices: PriceTable,
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
        let store = SqliteStore::for_serving(Database::open(&config.db)?, chrono::Utc::now()).await?;
        if config.demo {
            crate::admin::ensure_demo_account(&store).await?;
        }
        let listener = TcpListener::bind(config.addr)
            .await
            .map_err(Error::io(format!("listening on {}", config.addr)))?;
        let address = listener.local_addr().map_err(Error::io("reading the bound address"))?;
        let message = MessageOptions {
            public_url: config.public_url.clone().unwrap_or_else(|| format!("http://{address}")),
            stop_text: config.stop_text.clone(),
        };
        let state = AppState {
            store: Arc::new(store),
            rate_limiter: api::rate_limiter(config.rate_limit).map(Arc::new),
            message,
            prices: PriceTable::default(),
            config: Arc::new(config),
        };
        let router = web_app::router(&state.config.web_dir)
            .merge(api::router())
            .fallback(api::not_found)
            .layer(axum::middleware::from_fn(api::render_errors))
            .layer(TraceLayer::new_for_http().make_span_with(|request: &axum::http::Request<_>| {
                let id = request.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("-");
                tracing::info_span!("request", id, method = %request.method(), path = %request.uri().path())
            }))
            .layer(PropagateRequestIdLayer::x_request_id())
            .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
            .with_state(state);
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
