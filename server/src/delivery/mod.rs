//! Delivery: the carrier, and the workers that hand messages to it and store what it sends
//! back. [`Delivery::start`] wires them for `texto serve`.

mod arrivals;
pub(crate) mod clock;
mod connector_sync;
mod connectors;
mod dispatcher;
pub(crate) mod links;
mod mailer;
mod notices;
mod reassembly;
mod throttle;

use std::{
    net::{IpAddr, Ipv4Addr, SocketAddr},
    sync::Arc,
    time::Duration,
};

use texto_core::MessageOptions;
use tokio::{
    sync::{Notify, mpsc},
    task::JoinHandle,
};
use tokio_util::sync::CancellationToken;

use crate::{
    Error,
    carrier::{CaDir, Carrier, SmppTarget, SmscUrl, authorities},
    smsc::{self, Simulator, SmscConfig},
    store::{DeliveryStore, PlanStore, RoutingStore, Store},
};
use clock::{Clock, SystemClock};
use connector_sync::ConnectorSync;
pub(crate) use connectors::Connectors;
pub(crate) use dispatcher::Dispatcher;
use links::LinkCodes;
pub(crate) use mailer::{Mailer, SmtpMailer};
use notices::Notifier;

/// Where the built-in simulator listens: loopback, a free port.
const LOOPBACK_ANY_PORT: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);
/// Deliveries queued between the carrier and the arrivals worker.
const ARRIVALS_QUEUE: usize = 50_000;
/// How long the dispatcher sleeps when there is nothing to hand over (a new campaign wakes it).
const IDLE: Duration = Duration::from_secs(1);
/// How long it waits after a wave the carrier could not all take.
const BACK_OFF: Duration = Duration::from_secs(1);

/// The running delivery side of texto.
pub(crate) struct Delivery {
    /// Wakes the dispatcher (a campaign was accepted).
    pub(crate) wake: Arc<Notify>,
    /// The built-in SMSC simulator, when texto runs one.
    pub(crate) simulator: Option<Simulator>,
    /// The running connectors.
    pub(crate) connectors: Arc<Connectors>,
    stop: CancellationToken,
    dispatcher: JoinHandle<()>,
    arrivals: JoinHandle<()>,
    notices: JoinHandle<()>,
    sync: JoinHandle<()>,
}

/// How delivery is set up.
pub(crate) struct DeliverySettings {
    /// The `default` connector: where messages no route matches go.
    pub(crate) smsc: SmscUrl,
    /// The sender of messages that name none.
    pub(crate) default_sender: String,
    /// The built-in simulator's delay before receipts.
    pub(crate) builtin_dlr_delay_ms: u64,
    /// Short links and the opt-out text.
    pub(crate) message: MessageOptions,
    /// The key of the short-link codes.
    pub(crate) codes: LinkCodes,
    /// `--smtp-url` and `--smtp-from`, for balance alert emails.
    pub(crate) smtp: Option<(String, String)>,
    /// `--ca-dir`: where the connectors' `ca=` files are.
    pub(crate) ca_dir: Option<CaDir>,
}

impl Delivery {
    /// Starts the connectors (and the simulator for `builtin`) and the workers.
    pub(crate) async fn start(store: Arc<dyn Store>, settings: DeliverySettings) -> Result<Delivery, Error> {
        let routing = Arc::clone(&store) as Arc<dyn RoutingStore>;
        let plans = Arc::clone(&store) as Arc<dyn PlanStore>;
        let store = store as Arc<dyn DeliveryStore>;
        let (simulator, target) = match settings.smsc {
            SmscUrl::Smpp(target) => {
                // A `ca=` that cannot be read is a mistake to mend before starting, not a bind error.
                if let Some(name) = target.tls.as_ref().and_then(|tls| tls.ca.as_ref()) {
                    authorities(name, settings.ca_dir.as_ref())
                        .map_err(|why| Error::Command(format!("--smsc: {why}")))?;
                }
                (None, target)
            }
            SmscUrl::Builtin(use_as) => {
                let mut secret = [0u8; 4];
                getrandom::fill(&mut secret)
                    .map_err(|_| Error::Unavailable("no randomness for the simulator's password"))?;
                let password = hex::encode(secret);
                let config = SmscConfig {
                    smpp_addr: LOOPBACK_ANY_PORT,
                    http_addr: LOOPBACK_ANY_PORT,
                    system_id: "texto".into(),
                    password: password.clone(),
                    dlr_delay_ms: settings.builtin_dlr_delay_ms,
                };
                let simulator = smsc::start(config).await?;
                let target = SmppTarget {
                    address: simulator.smpp_addr.to_string(),
                    system_id: "texto".into(),
                    password,
                    ..use_as
                };
                (Some(simulator), target)
            }
        };
        let requeued = store.requeue_in_flight().await?;
        if requeued > 0 {
            tracing::warn!(
                requeued,
                "messages were in flight when texto stopped: handed over again, so up to that many recipients may get a duplicate"
            );
        }
        let mailer = match &settings.smtp {
            Some((url, from)) => Some(Arc::new(SmtpMailer::new(url, from).map_err(Error::Command)?) as Arc<dyn Mailer>),
            None => None,
        };
        let (deliveries, arrived) = mpsc::channel(ARRIVALS_QUEUE);
        let connectors = Arc::new(Connectors::start(target, settings.ca_dir, deliveries));
        let clock: Arc<dyn Clock> = Arc::new(SystemClock);
        let throttle = Arc::new(throttle::Throttle::default());
        let sync = ConnectorSync {
            store: routing,
            plans,
            connectors: Arc::clone(&connectors),
            throttle: Arc::clone(&throttle),
            clock: Arc::clone(&clock),
        };
        if let Err(error) = sync.step().await {
            tracing::error!(%error, "cannot read the connectors and routes: sending through default until they can be read");
        }
        let dispatcher = Arc::new(Dispatcher::new(
            Arc::clone(&store),
            (Arc::clone(&connectors), throttle),
            Arc::clone(&clock),
            settings.message,
            settings.default_sender.clone(),
            settings.codes,
        ));
        let notifier = Notifier {
            store: Arc::clone(&store),
            carrier: connectors.default_connector() as Arc<dyn Carrier>,
            mailer,
            clock: Arc::clone(&clock),
            sender: settings.default_sender,
        };
        let stop = CancellationToken::new();
        let wake = Arc::new(Notify::new());
        let arrivals = tokio::spawn(arrivals::run(Arc::clone(&store), clock, Arc::clone(&connectors), arrived));
        let dispatcher = tokio::spawn(dispatch(dispatcher, Arc::clone(&wake), stop.clone()));
        let notices = tokio::spawn(notify(notifier, stop.clone()));
        let sync = tokio::spawn(connector_sync::run(sync, stop.clone()));
        Ok(Delivery { wake, simulator, connectors, stop, dispatcher, arrivals, notices, sync })
    }

    /// Stops handing over, stores what was handed, unbinds.
    pub(crate) async fn stop(self) {
        self.stop.cancel();
        let _ = self.dispatcher.await;
        let _ = self.notices.await;
        let _ = self.sync.await;
        self.connectors.close().await;
        drop(self.connectors);
        let _ = tokio::time::timeout(Duration::from_secs(5), self.arrivals).await;
    }
}

/// Steps the notifier every [`IDLE`] until stopped.
async fn notify(notifier: Notifier, stop: CancellationToken) {
    loop {
        if let Err(error) = notifier.step().await {
            tracing::error!(%error, "balance alert notices failed; trying again");
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(IDLE) => {}
        }
    }
}

/// Steps the dispatcher until stopped.
async fn dispatch(dispatcher: Arc<Dispatcher>, wake: Arc<Notify>, stop: CancellationToken) {
    loop {
        let pause = match dispatcher.step().await {
            Ok(progress) if progress.retried > 0 => Some(BACK_OFF),
            Ok(progress) if progress.handed > 0 => None,
            Ok(progress) => Some(progress.throttled.unwrap_or(IDLE)),
            Err(error) => {
                tracing::error!(%error, "dispatch failed; trying again");
                Some(BACK_OFF)
            }
        };
        if let Some(pause) = pause {
            tokio::select! {
                () = stop.cancelled() => break,
                () = wake.notified() => {}
                () = tokio::time::sleep(pause) => {}
            }
        } else if stop.is_cancelled() {
            break;
        }
    }
    if let Err(error) = dispatcher.flush().await {
        tracing::error!(%error, "the last hand-overs could not be stored; they will be handed over again");
    }
}
