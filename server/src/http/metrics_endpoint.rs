//! Prometheus metrics: the counters and histograms texto records as it works, served
//! in Prometheus' text format on a listener of their own (`--metrics-addr`), so that they are
//! never exposed with the API by accident. Off by default: without the listener no recorder is
//! installed and recording costs nothing.
//!
//! Names start with `texto_`: `texto_http_requests_total{route,status}`,
//! `texto_http_request_duration_seconds{route}` (a histogram), `texto_messages_accepted_total`,
//! `texto_messages_handed_over_total{connector}`, `texto_messages_refused_total{connector}`,
//! `texto_receipts_total{connector,code}`, `texto_replies_total{connector}`, `texto_queue_depth`,
//! `texto_webhook_attempts_total{outcome}`, `texto_webhook_attempt_duration_seconds`,
//! `texto_sends_total{account}`; and, read at each scrape, `texto_webhook_backlog{account}`,
//! `texto_db_pool_waiting`, `texto_connector_binds_up{connector}`,
//! `texto_connector_in_flight{connector}` and `texto_connector_window_in_use{connector,bind}`.

use std::{
    net::SocketAddr,
    sync::{Arc, OnceLock},
    time::Instant,
};

use axum::{
    Router,
    extract::{MatchedPath, Request, State},
    middleware::Next,
    response::{IntoResponse, Response},
    routing::get,
};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::{Error, delivery::Connectors, store::DeliveryStore};

/// Latency buckets, in seconds, from 1 ms to 10 s.
const BUCKETS: [f64; 12] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0];

/// The process's recorder, installed once (several texto apps in one test process share it).
static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the recorder, once; its handle renders what was recorded.
fn handle() -> Result<PrometheusHandle, Error> {
    if let Some(handle) = HANDLE.get() {
        return Ok(handle.clone());
    }
    let recorder = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_duration_seconds".into()), &BUCKETS)
        .map_err(|e| Error::Command(format!("metrics: {e}")))?
        .build_recorder();
    let handle = recorder.handle();
    // Another app of this process may have installed it first: then its handle is the one.
    if metrics::set_global_recorder(recorder).is_ok() {
        let _ = HANDLE.set(handle);
    }
    HANDLE.get().cloned().ok_or_else(|| Error::Command("metrics: no recorder".into()))
}

/// What the scrape endpoint reads.
#[derive(Clone)]
struct Scrape {
    handle: PrometheusHandle,
    store: Arc<dyn DeliveryStore>,
    connectors: Arc<Connectors>,
    /// The accounts whose webhook backlog the last scrape reported.
    backlogged: Arc<std::sync::Mutex<Vec<i64>>>,
}

/// Binds `addr` and serves `GET /metrics` on it until `stop`; the address bound.
pub(crate) async fn serve(
    addr: SocketAddr,
    (store, connectors): (Arc<dyn DeliveryStore>, Arc<Connectors>),
    stop: CancellationToken,
) -> Result<SocketAddr, Error> {
    let scrape = Scrape { handle: handle()?, store, connectors, backlogged: Arc::default() };
    let listener = TcpListener::bind(addr).await.map_err(Error::io(format!("listening on {addr} for metrics")))?;
    let bound = listener.local_addr().map_err(Error::io("reading the metrics address"))?;
    let router = Router::new().route("/metrics", get(render)).with_state(scrape);
    tokio::spawn(async move {
        let served = axum::serve(listener, router).with_graceful_shutdown(async move { stop.cancelled().await });
        if let Err(error) = served.await {
            tracing::warn!(%error, "the metrics listener stopped");
        }
    });
    tracing::info!(address = %bound, "metrics served at /metrics");
    Ok(bound)
}

/// `GET /metrics`: the gauges read now (queue, webhook backlog, pool, connectors), and
/// everything recorded.
async fn render(State(scrape): State<Scrape>) -> Response {
    match scrape.store.queue_depth().await {
        Ok(depth) => metrics::gauge!("texto_queue_depth").set(depth as f64),
        Err(error) => tracing::warn!(%error, "reading the queue's depth for the metrics"),
    }
    match scrape.store.webhook_backlog().await {
        Ok(backlog) => {
            // An account whose backlog emptied since the last scrape reads 0, not its last value.
            let mut reported = scrape.backlogged.lock().unwrap_or_else(|e| e.into_inner());
            for account in reported.iter().filter(|a| !backlog.iter().any(|(b, _)| b == *a)) {
                metrics::gauge!("texto_webhook_backlog", "account" => account.to_string()).set(0.0);
            }
            for (account, pending) in &backlog {
                metrics::gauge!("texto_webhook_backlog", "account" => account.to_string()).set(*pending as f64);
            }
            *reported = backlog.into_iter().map(|(account, _)| account).collect();
        }
        Err(error) => tracing::warn!(%error, "reading the webhook backlog for the metrics"),
    }
    metrics::gauge!("texto_db_pool_waiting").set(scrape.store.pool_waiting() as f64);
    for connector in scrape.connectors.plan().connectors() {
        let name = connector.name.to_string();
        metrics::gauge!("texto_connector_binds_up", "connector" => name.clone()).set(connector.binds_up() as f64);
        let windows = connector.window_use();
        metrics::gauge!("texto_connector_in_flight", "connector" => name.clone())
            .set(windows.iter().sum::<usize>() as f64);
        for (bind, in_use) in windows.into_iter().enumerate() {
            let labels = [("connector", name.clone()), ("bind", bind.to_string())];
            metrics::gauge!("texto_connector_window_in_use", &labels).set(in_use as f64);
        }
    }
    ([("content-type", "text/plain; version=0.0.4")], scrape.handle.render()).into_response()
}

/// Counts each request by its route (its pattern, not its path: `/campaign/{ticket}`) and status,
/// and records how long it took.
pub(crate) async fn track(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |path| path.as_str().to_owned());
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::histogram!("texto_http_request_duration_seconds", "route" => route.clone())
        .record(started.elapsed().as_secs_f64());
    metrics::counter!("texto_http_requests_total", "route" => route, "status" => status).increment(1);
    response
}
