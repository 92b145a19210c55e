//! The running connectors: `default` from `--smsc` and those the operator defined,
//! started, restarted and stopped as the database says ([`Connectors::apply`]), each keeping
//! count of what it handed over so that the router can skip one that is down or refusing.

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex, RwLock,
        atomic::{AtomicU32, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use tokio::sync::mpsc;

use crate::{
    carrier::{CaDir, Carrier, Delivered, Outgoing, SmppCarrier, SmppTarget, Submitted},
    operator::routing::{ConnectorName, Routes, Traits},
    store::{ConnectorConfig, ConnectorStatus},
};

/// Refusals in a row (throttling, a full queue, a cut link) after which a connector rests.
const REFUSALS_BEFORE_REST: u32 = 20;
/// How long a connector that keeps refusing is skipped before it is tried again.
const REST: Duration = Duration::from_secs(5);

/// One connector: an SMPP carrier and its counts.
pub(crate) struct Connector {
    /// Its name.
    pub(crate) name: ConnectorName,
    carrier: SmppCarrier,
    handed: AtomicU64,
    errors: AtomicU64,
    receipts: AtomicU64,
    refusals_in_a_row: AtomicU32,
    resting_until: Mutex<Option<Instant>>,
    last_error: Mutex<Option<String>>,
    /// When the status was last taken, and `handed` then (for the rate).
    last_status: Mutex<(Instant, u64)>,
    /// `handed` when the traffic was last recorded.
    recorded: AtomicU64,
}

impl Connector {
    fn start(
        name: ConnectorName,
        target: SmppTarget,
        ca_dir: Option<CaDir>,
        inbound: mpsc::Sender<Delivered>,
    ) -> Connector {
        Connector {
            carrier: SmppCarrier::start(name.clone(), target, ca_dir, inbound),
            name,
            handed: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            receipts: AtomicU64::new(0),
            refusals_in_a_row: AtomicU32::new(0),
            resting_until: Mutex::default(),
            last_error: Mutex::default(),
            last_status: Mutex::new((Instant::now(), 0)),
            recorded: AtomicU64::new(0),
        }
    }

    /// Whether it may take a message now: a bind is up and it is not resting after refusals.
    pub(crate) fn available(&self) -> bool {
        let resting = self.resting_until.lock().unwrap_or_else(|e| e.into_inner()).is_some_and(|t| Instant::now() < t);
        !resting && self.carrier.binds_up() > 0
    }

    /// Binds up now.
    pub(crate) fn binds_up(&self) -> usize {
        self.carrier.binds_up()
    }

    /// Each bind's submits in flight.
    pub(crate) fn window_use(&self) -> Vec<usize> {
        self.carrier.window_use()
    }

    /// Messages it can have in flight at once (binds × window).
    pub(crate) fn capacity(&self) -> usize {
        let target = self.carrier.target();
        target.binds * target.window
    }

    /// Counts final receipts that came from it.
    pub(crate) fn receipted(&self, count: u64) {
        self.receipts.fetch_add(count, Ordering::Relaxed);
    }

    fn record(&self, outcome: &Submitted) {
        match outcome {
            Submitted::Accepted { .. } => {
                self.handed.fetch_add(1, Ordering::Relaxed);
                self.refusals_in_a_row.store(0, Ordering::Relaxed);
            }
            Submitted::Retry(reason) => {
                self.errors.fetch_add(1, Ordering::Relaxed);
                *self.last_error.lock().unwrap_or_else(|e| e.into_inner()) = Some(reason.clone());
                if self.refusals_in_a_row.fetch_add(1, Ordering::Relaxed) + 1 >= REFUSALS_BEFORE_REST {
                    self.refusals_in_a_row.store(0, Ordering::Relaxed);
                    *self.resting_until.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now() + REST);
                    tracing::warn!(connector = %self.name, %reason, "a connector keeps refusing: skipped for 5 s");
                }
            }
            Submitted::Failed { reason, .. } => {
                self.errors.fetch_add(1, Ordering::Relaxed);
                *self.last_error.lock().unwrap_or_else(|e| e.into_inner()) = Some(reason.clone());
            }
        }
    }

    /// What it is doing at `now` (the store names the node).
    fn status(&self, now: DateTime<Utc>) -> ConnectorStatus {
        let handed = self.handed.load(Ordering::Relaxed);
        let per_second = {
            let mut last = self.last_status.lock().unwrap_or_else(|e| e.into_inner());
            let seconds = last.0.elapsed().as_secs_f64();
            let rate = if seconds > 0.0 { (handed - last.1) as f64 / seconds } else { 0.0 };
            *last = (Instant::now(), handed);
            (rate * 10.0).round() / 10.0
        };
        let link_error = self.carrier.last_link_error();
        let own_error = self.last_error.lock().unwrap_or_else(|e| e.into_inner()).clone();
        ConnectorStatus {
            node: String::new(),
            name: self.name.clone(),
            binds: self.carrier.target().binds as u64,
            binds_up: self.carrier.binds_up() as u64,
            in_flight: self.carrier.in_flight() as u64,
            per_second,
            handed,
            errors: self.errors.load(Ordering::Relaxed),
            last_error: own_error.or(link_error),
            receipts_outstanding: handed.saturating_sub(self.receipts.load(Ordering::Relaxed)),
            updated_at: now,
        }
    }
}

#[async_trait]
impl Carrier for Connector {
    async fn submit(&self, sms: &Outgoing) -> Submitted {
        let outcome = self.carrier.submit(sms).await;
        self.record(&outcome);
        outcome
    }

    async fn close(&self) {
        self.carrier.close().await;
    }
}

/// The connectors and routes one wave is handed over with.
#[derive(Clone)]
pub(crate) struct Plan {
    connectors: Arc<HashMap<ConnectorName, Arc<Connector>>>,
    routes: Arc<Routes>,
}

impl Plan {
    /// The first available connector of the first route that matches; `None`: the message waits.
    pub(crate) fn pick(&self, message: Traits) -> Option<&Arc<Connector>> {
        let candidates = self.routes.candidates(message);
        candidates.iter().filter_map(|name| self.connectors.get(name)).find(|connector| connector.available())
    }

    /// Every running connector.
    pub(crate) fn connectors(&self) -> impl Iterator<Item = &Arc<Connector>> {
        self.connectors.values()
    }

    /// The connectors of the route `message` takes, in failover order.
    pub(crate) fn candidates(&self, message: Traits) -> &[ConnectorName] {
        self.routes.candidates(message)
    }

    /// Messages the available connectors can have in flight together (at least 1).
    pub(crate) fn capacity(&self) -> usize {
        self.connectors.values().filter(|c| c.available()).map(|c| c.capacity()).sum::<usize>().max(1)
    }
}

/// Every running connector, and the routes.
pub(crate) struct Connectors {
    /// The campaigns of the last wave whose messages no connector could take, with the
    /// connectors of their route.
    waiting: Mutex<HashMap<i64, String>>,
    /// Where new connectors send what they receive; dropped on close, so that the arrivals
    /// worker ends once the last connector is gone.
    inbound: Mutex<Option<mpsc::Sender<Delivered>>>,
    /// `--ca-dir`, where every connector's `ca=` file is.
    ca_dir: Option<CaDir>,
    default: Arc<Connector>,
    plan: RwLock<Plan>,
}

impl Connectors {
    /// Starts `default` on `target`; the others come with the first [`Connectors::apply`]. Each
    /// reads its `ca=` file from `ca_dir`.
    pub(crate) fn start(target: SmppTarget, ca_dir: Option<CaDir>, inbound: mpsc::Sender<Delivered>) -> Connectors {
        let default_name = ConnectorName::default_connector();
        let default = Arc::new(Connector::start(default_name, target, ca_dir.clone(), inbound.clone()));
        let connectors = HashMap::from([(default.name.clone(), Arc::clone(&default))]);
        let plan = Plan { connectors: Arc::new(connectors), routes: Arc::default() };
        let inbound = Mutex::new(Some(inbound));
        Connectors { waiting: Mutex::default(), inbound, ca_dir, default, plan: RwLock::new(plan) }
    }

    /// `default`, which also sends the balance alerts' SMS.
    pub(crate) fn default_connector(&self) -> Arc<Connector> {
        Arc::clone(&self.default)
    }

    /// The connectors and routes as they are now.
    pub(crate) fn plan(&self) -> Plan {
        self.plan.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Notes the campaigns of the last wave that had messages no connector could take, with the
    /// connectors of their route.
    pub(crate) fn set_waiting(&self, waiting: HashMap<i64, String>) {
        *self.waiting.lock().unwrap_or_else(|e| e.into_inner()) = waiting;
    }

    /// The connectors of the route the campaign's messages wait for, if they waited in the last wave.
    pub(crate) fn waiting(&self, campaign: i64) -> Option<String> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner()).get(&campaign).cloned()
    }

    /// A running connector by name.
    pub(crate) fn get(&self, name: &ConnectorName) -> Option<Arc<Connector>> {
        self.plan().connectors.get(name).cloned()
    }

    /// Makes the running connectors those of `configs` that are enabled (and `default`):
    /// starts the new ones, restarts the changed ones, and returns those to close.
    pub(crate) fn apply(&self, configs: &[ConnectorConfig], routes: Routes) -> Vec<Arc<Connector>> {
        let Some(inbound) = self.inbound.lock().unwrap_or_else(|e| e.into_inner()).clone() else {
            return Vec::new();
        };
        let mut plan = self.plan.write().unwrap_or_else(|e| e.into_inner());
        let mut running = HashMap::from([(self.default.name.clone(), Arc::clone(&self.default))]);
        for config in configs.iter().filter(|c| c.enabled && !c.name.is_default()) {
            let kept = plan.connectors.get(&config.name).filter(|c| *c.carrier.target() == config.target);
            let connector = match kept {
                Some(connector) => Arc::clone(connector),
                None => {
                    tracing::info!(connector = %config.name, smsc = %config.target.address, "starting a connector");
                    let (name, target, ca_dir) = (config.name.clone(), config.target.clone(), self.ca_dir.clone());
                    Arc::new(Connector::start(name, target, ca_dir, inbound.clone()))
                }
            };
            running.insert(config.name.clone(), connector);
        }
        let stopped = plan
            .connectors
            .values()
            .filter(|old| running.get(&old.name).is_none_or(|new| !Arc::ptr_eq(old, new)))
            .cloned()
            .collect();
        *plan = Plan { connectors: Arc::new(running), routes: Arc::new(routes) };
        stopped
    }

    /// Each running connector's status at `now`.
    pub(crate) fn statuses(&self, now: DateTime<Utc>) -> Vec<ConnectorStatus> {
        let plan = self.plan();
        let mut statuses: Vec<_> = plan.connectors.values().map(|c| c.status(now)).collect();
        statuses.sort_by(|a, b| a.name.cmp(&b.name));
        statuses
    }

    /// What each running connector handed over since the last call.
    pub(crate) fn traffic(&self) -> Vec<(ConnectorName, u64)> {
        let plan = self.plan();
        plan.connectors
            .values()
            .map(|c| {
                let handed = c.handed.load(Ordering::Relaxed);
                (c.name.clone(), handed.saturating_sub(c.recorded.swap(handed, Ordering::Relaxed)))
            })
            .collect()
    }

    /// Unbinds every connector (on shutdown).
    pub(crate) async fn close(&self) {
        self.inbound.lock().unwrap_or_else(|e| e.into_inner()).take();
        let plan = self.plan();
        for connector in plan.connectors.values() {
            connector.close().await;
        }
    }
}
