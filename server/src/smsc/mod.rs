//! The SMSC simulator: an SMPP 3.4 server (PDUs by `rusmpp`) that answers every submit, sends
//! the delivery receipt of docs/interface.md §6.5 after a delay, and has an HTTP face to list what it
//! received, send replies (MO) and simulate outages. `texto smsc-simulator` runs it on its own;
//! [`start`] runs it inside another process.

mod deliveries;
mod http;
mod outage;
mod receipts;
mod session;
mod store;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rusmpp::Command;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::Error;

pub use http::{Face, MessagesQuery, MoRequest, OutageRequest};
pub use outage::Mode;
pub use store::Message;

/// `texto smsc-simulator` flags (each also from the environment).
#[derive(Debug, Clone, clap::Args)]
pub struct SmscConfig {
    /// Where the SMPP server listens (port 0: any free port).
    #[arg(long, env = "TEXTO_SMSC_SMPP_ADDR", default_value = "127.0.0.1:2775")]
    pub smpp_addr: SocketAddr,
    /// Where the HTTP face listens (port 0: any free port).
    #[arg(long, env = "TEXTO_SMSC_HTTP_ADDR", default_value = "127.0.0.1:2780")]
    pub http_addr: SocketAddr,
    /// The system_id a bind must give.
    #[arg(long, env = "TEXTO_SMSC_SYSTEM_ID", default_value = "texto")]
    pub system_id: String,
    /// The password a bind must give.
    #[arg(long, env = "TEXTO_SMSC_PASSWORD", default_value = "secret")]
    pub password: String,
    /// Milliseconds between the last part of a message and its receipts.
    #[arg(long, env = "TEXTO_SMSC_DLR_DELAY_MS", default_value_t = 1000)]
    pub dlr_delay_ms: u64,
}

/// The default sender (docs/interface.md §6.4): where replies sent with `POST /mo` are addressed.
const DEFAULT_SENDER: &str = "36180";

/// A bound ESME: whether it may receive deliver_sm, and the queue to its socket.
#[derive(Debug)]
struct Bind {
    receives: bool,
    outbox: mpsc::UnboundedSender<Command>,
}

/// What the SMPP sessions and the HTTP face share.
#[derive(Debug)]
struct Shared {
    config: SmscConfig,
    store: Mutex<store::Store>,
    outage: outage::Outage,
    binds: Mutex<HashMap<u64, Bind>>,
    deliveries: Mutex<deliveries::Deliveries>,
    next_message_id: AtomicU64,
    next_bind_id: AtomicU64,
    next_sequence: AtomicU32,
}

impl Shared {
    fn store(&self) -> MutexGuard<'_, store::Store> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn binds(&self) -> MutexGuard<'_, HashMap<u64, Bind>> {
        self.binds.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A fresh message_id: a counter in hexadecimal, from a random start, so that a restarted
    /// simulator, or the simulators of several texto nodes, never repeat an id a database
    /// already holds.
    fn message_id(&self) -> String {
        format!("{:x}", self.next_message_id.fetch_add(1, Ordering::Relaxed) + 1)
    }

    /// A fresh sequence number for a PDU the simulator starts (1 to 0x7FFFFFFF).
    fn sequence(&self) -> u32 {
        self.next_sequence.fetch_add(1, Ordering::Relaxed) % 0x7FFF_FFFF + 1
    }

    fn deliveries(&self) -> MutexGuard<'_, deliveries::Deliveries> {
        self.deliveries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether some bind may take deliver_sm now.
    fn has_receiver(&self) -> bool {
        self.binds().values().any(|b| b.receives && !b.outbox.is_closed())
    }

    fn dlr_delay(&self) -> Duration {
        Duration::from_millis(self.config.dlr_delay_ms)
    }
}

/// A running simulator; dropping it stops it and closes its binds.
#[derive(Debug)]
pub struct Simulator {
    /// Where its SMPP server listens.
    pub smpp_addr: SocketAddr,
    /// Where its HTTP face listens.
    pub http_addr: SocketAddr,
    tasks: Vec<JoinHandle<()>>,
    shared: Arc<Shared>,
}

impl Simulator {
    /// What its HTTP face does, for texto to serve under `/simulator/` to the callers it
    /// lets through.
    pub fn face(&self) -> Face {
        Face(Arc::clone(&self.shared))
    }
}

impl Drop for Simulator {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
        self.shared.outage.drop_binds();
    }
}

/// Binds both listeners and starts serving; returns the addresses actually bound.
pub async fn start(config: SmscConfig) -> Result<Simulator, Error> {
    let smpp = TcpListener::bind(config.smpp_addr)
        .await
        .map_err(Error::io(format!("binding the SMPP address {}", config.smpp_addr)))?;
    let http = TcpListener::bind(config.http_addr)
        .await
        .map_err(Error::io(format!("binding the simulator's HTTP address {}", config.http_addr)))?;
    let smpp_addr = smpp.local_addr().map_err(Error::io("reading the SMPP address"))?;
    let http_addr = http.local_addr().map_err(Error::io("reading the HTTP address"))?;
    let shared = Arc::new(Shared {
        config,
        store: Mutex::default(),
        outage: outage::Outage::default(),
        binds: Mutex::default(),
        deliveries: Mutex::default(),
        next_message_id: AtomicU64::new(getrandom::u64().map_or(0, |n| n >> 16)),
        next_bind_id: AtomicU64::new(0),
        next_sequence: AtomicU32::new(0),
    });
    let smpp_task = tokio::spawn(session::accept(Arc::clone(&shared), smpp));
    let router = http::router(Arc::clone(&shared));
    let http_task = tokio::spawn(async move {
        if let Err(error) = axum::serve(http, router).await {
            tracing::error!(%error, "the simulator's HTTP face stopped");
        }
    });
    Ok(Simulator { smpp_addr, http_addr, tasks: vec![smpp_task, http_task], shared })
}

/// `texto smsc-simulator`: runs until `shutdown` completes.
pub async fn run(config: SmscConfig, shutdown: impl Future<Output = ()>) -> Result<(), Error> {
    let simulator = start(config).await?;
    println!("SMSC simulator: SMPP on {}, HTTP on http://{}", simulator.smpp_addr, simulator.http_addr);
    shutdown.await;
    drop(simulator);
    Ok(())
}
