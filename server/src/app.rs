//! Building the service from its configuration: used by `main` and by the tests alike.

use std::{future::Future, net::SocketAddr, sync::Arc, time::Duration};

use hyper::server::conn::http1;
use hyper_util::{
    rt::{TokioIo, TokioTimer},
    server::graceful::GracefulShutdown,
    service::TowerToHyperService,
};
use texto_core::MessageOptions;
use tokio::{net::TcpListener, sync::Semaphore};
use tokio_util::sync::CancellationToken;
use tower::util::MapRequest;
use tower_http::{
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    timeout::RequestBodyTimeoutLayer,
    trace::TraceLayer,
};

use crate::{
    Config, Error,
    account::{
        audit_log::{self, AuditLog},
        retention::{self, RetentionPass},
    },
    delivery::{Delivery, DeliverySettings, Mailer, SmtpMailer, clock::SystemClock, links::LinkCodes},
    http::{self, metrics_endpoint, web_app},
    inbox::automatic_replies,
    journeys,
    operator::{
        moderation::{self, Moderation},
        price_plans::{self, PricePlans},
    },
    sending::{
        ab_tests::{self, AbDecider},
        approval_expiry::{self, ApprovalExpiry},
        devices::Devices,
    },
    signup,
    state::{AppState, Shared},
    store::{AuditStore, DeliveryStore, ModerationStore, OutboxStore, PlanStore, RetentionStore, Store},
    team::{
        password_resets::{self, ResetMailer, ResetRequests},
        passwords::PasswordChecks,
    },
    webhook_sender::{self, WebhookSender},
};

/// A texto service bound to its port, with its database open and migrated, ready to run.
pub struct App {
    listener: TcpListener,
    address: SocketAddr,
    /// Where `GET /metrics` is served, when it is.
    metrics: Option<SocketAddr>,
    router: axum::Router,
    header_read_timeout: Duration,
    max_connections: usize,
    delivery: Delivery,
    webhooks: (CancellationToken, tokio::task::JoinHandle<()>),
    /// Closed once everything that writes has stopped.
    store: Arc<dyn Store>,
}

impl App {
    /// Opens the database, applies migrations and binds the listening socket.
    pub async fn build(config: Config) -> Result<App, Error> {
        let store = crate::store::for_serving(&config.db, chrono::Utc::now()).await?;
        if config.demo {
            crate::operator::account_commands::ensure_demo_account(&store).await?;
        }
        let listener =
            TcpListener::bind(config.addr).await.map_err(Error::io(format!("listening on {}", config.addr)))?;
        let address = listener.local_addr().map_err(Error::io("reading the bound address"))?;
        let message = MessageOptions {
            public_url: config.public_url.clone().unwrap_or_else(|| format!("http://{address}")),
            stop_text: config.stop_text.clone(),
        };
        let codes = LinkCodes::new(store.link_key().await?);
        let settings = DeliverySettings {
            smsc: config.smsc.clone(),
            default_sender: config.default_sender.clone(),
            builtin_dlr_delay_ms: config.builtin_dlr_delay_ms,
            message: message.clone(),
            codes: codes.clone(),
            smtp: config.smtp_url.clone().map(|url| (url, config.smtp_from.clone())),
            ca_dir: config.ca_dir.clone(),
        };
        let delivery = Delivery::start(Arc::clone(&store), settings).await?;
        let devices = Arc::new(Devices::default());
        let simulator = delivery.simulator.as_ref().map(|s| s.face());
        let webhooks = Arc::new(WebhookSender::new(
            Arc::clone(&store) as Arc<dyn OutboxStore>,
            Arc::new(SystemClock),
            config.retry_schedule(),
            *config.webhook_log_keep,
            config.allow_private_webhooks,
        )?);
        let webhooks_stop = CancellationToken::new();
        let webhooks_task = tokio::spawn(webhook_sender::run(Arc::clone(&webhooks), webhooks_stop.clone()));
        let metrics = match config.metrics_addr {
            Some(addr) => {
                let store = Arc::clone(&store) as Arc<dyn DeliveryStore>;
                let connectors = Arc::clone(&delivery.connectors);
                Some(metrics_endpoint::serve(addr, (store, connectors), webhooks_stop.clone()).await?)
            }
            None => None,
        };
        // The retention pass stops with the webhook sender: both are background upkeep.
        let pass = RetentionPass::new(Arc::clone(&store) as Arc<dyn RetentionStore>);
        tokio::spawn(retention::run(pass, *config.retention_every, webhooks_stop.clone()));
        let audit =
            Arc::new(AuditLog::new(Arc::clone(&store) as Arc<dyn AuditStore>, *config.audit_keep, config.audit));
        tokio::spawn(audit_log::run(Arc::clone(&audit), webhooks_stop.clone()));
        let expiry = ApprovalExpiry::new(Arc::clone(&store), Arc::clone(&audit), *config.approval_wait);
        tokio::spawn(approval_expiry::run(expiry, webhooks_stop.clone()));
        let decider = AbDecider::new(Arc::clone(&store), Arc::clone(&audit), Arc::clone(&delivery.wake));
        tokio::spawn(ab_tests::run(Arc::new(decider), *config.ab_check_every, webhooks_stop.clone()));
        let mailer = match &config.smtp_url {
            Some(url) => {
                Some(Arc::new(SmtpMailer::new(url, &config.smtp_from).map_err(Error::Command)?) as Arc<dyn Mailer>)
            }
            None => None,
        };
        let (resets, asked) = ResetRequests::new();
        let reset_mailer = ResetMailer {
            store: Arc::clone(&store),
            mailer: mailer.clone(),
            audit: Arc::clone(&audit),
            public_url: message.public_url.clone(),
        };
        tokio::spawn(password_resets::run(reset_mailer, asked, webhooks_stop.clone()));
        let plans = Arc::new(PricePlans::default());
        plans.refresh(store.as_ref()).await?;
        tokio::spawn(price_plans::run(
            Arc::clone(&plans),
            Arc::clone(&store) as Arc<dyn PlanStore>,
            webhooks_stop.clone(),
        ));
        let moderation = Arc::new(Moderation::default());
        moderation.refresh(store.as_ref()).await?;
        let rules = Arc::clone(&store) as Arc<dyn ModerationStore>;
        tokio::spawn(moderation::run(Arc::clone(&moderation), rules, webhooks_stop.clone()));
        let state = AppState::new(Shared {
            audit,
            sign_ins: Arc::default(),
            password_checks: Arc::new(PasswordChecks::new(config.max_password_checks)),
            mailer,
            resets: Arc::new(resets),
            store: Arc::clone(&store),
            codes,
            devices,
            dispatch: Arc::clone(&delivery.wake),
            journeys: Arc::new(tokio::sync::Notify::new()),
            webhooks,
            rate_limiter: http::rate_limiter(config.rate_limit).map(Arc::new),
            message,
            plans: Arc::clone(&plans),
            moderation: Arc::clone(&moderation),
            connectors: Arc::clone(&delivery.connectors),
            large_bodies: Arc::new(Semaphore::new(config.large_bodies())),
            config: Arc::new(config),
        });
        tokio::spawn(automatic_replies::run(state.clone(), webhooks_stop.clone()));
        tokio::spawn(journeys::runner::run(state.clone(), webhooks_stop.clone()));
        tokio::spawn(signup::replies::run(state.clone(), webhooks_stop.clone()));
        let body_read_timeout = Duration::from_secs(state.config.body_read_timeout_secs);
        let header_read_timeout = Duration::from_secs(state.config.header_read_timeout_secs);
        let max_connections = state.config.max_connections;
        let api = http::router().route_layer(axum::middleware::from_fn_with_state(state.clone(), http::authorize));
        let mut router = web_app::router(&state.config.web_dir).merge(api);
        if let Some(simulator) = simulator {
            router = router.nest_service("/simulator", crate::sending::simulator::router(simulator, state.clone()));
        }
        // Requests are counted only when metrics are served: otherwise nothing is recorded.
        if metrics.is_some() {
            router = router.layer(axum::middleware::from_fn(metrics_endpoint::track));
        }
        let router = router
            .fallback(http::not_found)
            .layer(axum::middleware::from_fn_with_state(state.clone(), http::render_errors))
            .layer(web_app::no_sniffing())
            .layer(RequestBodyTimeoutLayer::new(body_read_timeout))
            .layer(TraceLayer::new_for_http().make_span_with(|request: &axum::http::Request<_>| {
                let id = request.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("-");
                tracing::info_span!("request", id, method = %request.method(), path = %request.uri().path())
            }))
            .layer(PropagateRequestIdLayer::x_request_id())
            .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
            .with_state(state);
        Ok(App {
            listener,
            address,
            metrics,
            router,
            header_read_timeout,
            max_connections,
            delivery,
            webhooks: (webhooks_stop, webhooks_task),
            store,
        })
    }

    /// The port actually bound (useful when the configuration asked for port 0).
    pub fn port(&self) -> u16 {
        self.address.port()
    }

    /// Where `GET /metrics` is served (`--metrics-addr`), when it is.
    pub fn metrics_address(&self) -> Option<SocketAddr> {
        self.metrics
    }

    /// `http://host:port`, the base URL clients use.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Serves requests until `shutdown` resolves, then lets in-flight requests finish.
    ///
    /// HTTP/1.1 through hyper, so its header read time-out applies (it also closes idle
    /// keep-alive connections); at most `--max-connections` are served at once, the next ones
    /// waiting in the listen backlog.
    pub async fn run_until_stopped(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<(), Error> {
        tracing::info!(address = %self.address, "texto listening");
        let mut http = http1::Builder::new();
        // Half-closed connections stay served: a request that arrived whole is carried out
        // even when its client stops sending (or leaves) before the answer, rather than
        // dropped halfway through its handler; a retried send with its idempotency key then
        // finds what the first try did.
        http.timer(TokioTimer::new()).header_read_timeout(self.header_read_timeout).half_close(true);
        let connections = Arc::new(Semaphore::new(self.max_connections));
        let graceful = GracefulShutdown::new();
        tokio::pin!(shutdown);
        loop {
            let accepted = tokio::select! {
                () = &mut shutdown => break,
                accepted = accept(&self.listener, &connections) => accepted,
            };
            let Some((socket, permit)) = accepted else { continue };
            // Each request carries the peer's address, for the tokens limited to some addresses.
            let peer = socket.peer_addr().ok();
            let service = TowerToHyperService::new(MapRequest::new(self.router.clone(), move |request| {
                with_peer(peer, same_path_without_doubled_slashes(request))
            }));
            let connection = graceful.watch(http.serve_connection(TokioIo::new(socket), service));
            tokio::spawn(async move {
                if let Err(error) = connection.await {
                    tracing::debug!(%error, "connection closed with an error");
                }
                drop(permit);
            });
        }
        drop(self.listener);
        graceful.shutdown().await;
        self.delivery.stop().await;
        self.webhooks.0.cancel();
        let _ = self.webhooks.1.await;
        if let Err(error) = self.store.close().await {
            tracing::warn!(%error, "closing the database");
        }
        Ok(())
    }
}

/// The next connection, once one of the `connections` permits is free; `None` when accepting
/// failed (logged, and retried after a short pause so that running out of file descriptors
/// does not spin).
async fn accept(
    listener: &TcpListener,
    connections: &Arc<Semaphore>,
) -> Option<(tokio::net::TcpStream, tokio::sync::OwnedSemaphorePermit)> {
    let permit = connections.clone().acquire_owned().await.ok()?;
    match listener.accept().await {
        Ok((socket, _)) => Some((socket, permit)),
        Err(error) => {
            tracing::warn!(%error, "accepting a connection failed");
            tokio::time::sleep(Duration::from_millis(100)).await;
            None
        }
    }
}

/// The request with each run of slashes in its path made one: the PHP SDK joins its base URL
/// and the path with a `/`, so a base URL ending in `/` asks for `//credits`, which is
/// `/credits` (docs/interface.md §9).
/// `request` with its connection's peer address, as axum's `ConnectInfo` (none for a socket
/// whose address could not be read).
fn with_peer<B>(peer: Option<std::net::SocketAddr>, mut request: axum::http::Request<B>) -> axum::http::Request<B> {
    if let Some(peer) = peer {
        request.extensions_mut().insert(axum::extract::ConnectInfo(peer));
    }
    request
}

fn same_path_without_doubled_slashes<B>(mut request: axum::http::Request<B>) -> axum::http::Request<B> {
    let uri = request.uri();
    if !uri.path().contains("//") {
        return request;
    }
    let mut path = String::with_capacity(uri.path().len());
    for piece in uri.path().split('/').filter(|piece| !piece.is_empty()) {
        path.push('/');
        path.push_str(piece);
    }
    if path.is_empty() || uri.path().ends_with('/') {
        path.push('/');
    }
    let path_and_query = match uri.query() {
        Some(query) => format!("{path}?{query}"),
        None => path,
    };
    let mut parts = uri.clone().into_parts();
    if let Ok(rewritten) = path_and_query.parse() {
        parts.path_and_query = Some(rewritten);
        if let Ok(uri) = axum::http::Uri::from_parts(parts) {
            *request.uri_mut() = uri;
        }
    }
    request
}
