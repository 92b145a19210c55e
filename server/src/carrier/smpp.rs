//! [`SmppCarrier`]: texto as an ESME. A number of transceiver binds, each with its window of
//! in-flight submits, an optional rate over them all; what cannot be handed over now is
//! answered [`Submitted::Retry`], never failed.

use std::{
    num::NonZeroU32,
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use async_trait::async_trait;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use rusmpp::{Command, CommandStatus, Pdu};
use texto_core::DeliveryCode;
use tokio::{
    sync::{mpsc, oneshot},
    task::JoinHandle,
    time::timeout,
};
use tokio_util::sync::CancellationToken;

use crate::{
    carrier::{
        CaDir, Carrier, Delivered, Outgoing, SmppTarget, Submitted, encode,
        session::{self, Link, Peer, Request},
    },
    operator::routing::ConnectorName,
};

/// How long a submit waits for a bind before it is put back for later.
const WAIT_FOR_BIND: Duration = Duration::from_secs(5);
/// How long a submit_sm waits for its answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(30);

/// The SMPP carrier: binds kept up in the background.
pub(crate) struct SmppCarrier {
    peer: Arc<Peer>,
    links: Vec<Arc<Link>>,
    next: AtomicUsize,
    rate: Option<DefaultDirectRateLimiter>,
    stop: CancellationToken,
    tasks: Mutex<Vec<JoinHandle<()>>>,
}

impl SmppCarrier {
    /// Starts `target.binds` binds for the connector `name` (its `ca=` file read from
    /// `ca_dir`); what the SMSC delivers goes to `inbound`.
    pub(crate) fn start(
        name: ConnectorName,
        target: SmppTarget,
        ca_dir: Option<CaDir>,
        inbound: mpsc::Sender<Delivered>,
    ) -> SmppCarrier {
        let rate = NonZeroU32::new(target.rate).map(|rate| RateLimiter::direct(Quota::per_second(rate)));
        let peer = Arc::new(Peer { name, target, ca_dir, last_error: Mutex::default() });
        let stop = CancellationToken::new();
        let (links, tasks): (Vec<_>, Vec<_>) = (0..peer.target.binds)
            .map(|_| session::start(Arc::clone(&peer), inbound.clone(), stop.child_token()))
            .unzip();
        SmppCarrier { peer, links, next: AtomicUsize::new(0), rate, stop, tasks: Mutex::new(tasks) }
    }

    /// The SMSC and how it is used.
    pub(crate) fn target(&self) -> &SmppTarget {
        &self.peer.target
    }

    /// Binds up now.
    pub(crate) fn binds_up(&self) -> usize {
        self.links.iter().filter(|link| *link.bound.borrow()).count()
    }

    /// Submits handed to a bind and not answered yet.
    pub(crate) fn in_flight(&self) -> usize {
        self.window_use().into_iter().sum()
    }

    /// Each bind's submits handed over and not answered yet.
    pub(crate) fn window_use(&self) -> Vec<usize> {
        let window = self.peer.target.window;
        self.links.iter().map(|link| window.saturating_sub(link.window.available_permits())).collect()
    }

    /// The last refused bind or dropped link.
    pub(crate) fn last_link_error(&self) -> Option<String> {
        self.peer.last_error.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// A bound link, preferring one with room in its window; `None` when none is bound in time.
    async fn link(&self) -> Option<Arc<Link>> {
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        let order = (0..self.links.len()).map(|i| &self.links[(start + i) % self.links.len()]);
        let bound: Vec<&Arc<Link>> = order.filter(|l| *l.bound.borrow()).collect();
        if let Some(link) = bound.iter().find(|l| l.window.available_permits() > 0).or(bound.first()) {
            return Some(Arc::clone(link));
        }
        let mut watching = self.links[start % self.links.len()].bound.clone();
        timeout(WAIT_FOR_BIND, watching.wait_for(|bound| *bound)).await.ok()?.ok()?;
        Some(Arc::clone(&self.links[start % self.links.len()]))
    }
}

#[async_trait]
impl Carrier for SmppCarrier {
    async fn submit(&self, sms: &Outgoing) -> Submitted {
        let parts = match encode::submits(sms) {
            Ok(parts) => parts,
            Err(reason) => return Submitted::Failed { code: DeliveryCode::Rejected, reason },
        };
        let Some(link) = self.link().await else {
            return Submitted::Retry("no bind to the SMSC".into());
        };
        let Ok(_place) = link.window.acquire().await else {
            return Submitted::Retry("the bind is closing".into());
        };
        let mut smsc_id = String::new();
        for submit in parts {
            if let Some(rate) = &self.rate {
                rate.until_ready().await;
            }
            let (answer, answered) = oneshot::channel();
            if link.requests.send(Request { submit, answer }).await.is_err() {
                return Submitted::Retry("the bind is closing".into());
            }
            let command = match timeout(ANSWER_WITHIN, answered).await {
                Ok(Ok(command)) => command,
                Ok(Err(_)) => return Submitted::Retry("the connection to the SMSC was lost".into()),
                Err(_) => return Submitted::Retry("no answer from the SMSC".into()),
            };
            match answer_of(&command) {
                Ok(id) => smsc_id = id,
                Err(outcome) => return outcome,
            }
        }
        Submitted::Accepted { smsc_id }
    }

    async fn close(&self) {
        self.stop.cancel();
        let tasks = std::mem::take(&mut *self.tasks.lock().unwrap_or_else(|e| e.into_inner()));
        for task in tasks {
            let _ = timeout(Duration::from_secs(3), task).await;
        }
    }
}

/// The message_id of an accepted submit_sm, or what the refusal means (docs/interface.md §6.2).
fn answer_of(command: &Command) -> Result<String, Submitted> {
    let reason = || format!("{:?}", command.status());
    match command.status() {
        CommandStatus::EsmeRok => match command.pdu() {
            Some(Pdu::SubmitSmResp(resp)) => Ok(resp.message_id().to_string()),
            _ => Err(Submitted::Failed {
                code: DeliveryCode::Rejected,
                reason: "the SMSC answered submit_sm with another PDU".into(),
            }),
        },
        CommandStatus::EsmeRthrottled | CommandStatus::EsmeRmsgqful => Err(Submitted::Retry(reason())),
        status => {
            Err(Submitted::Failed { code: DeliveryCode::from_submit_refusal(u32::from(status)), reason: reason() })
        }
    }
}
