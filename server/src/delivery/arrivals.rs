//! The arrivals worker: stores what the carrier delivers (receipts, replies) in batches, and
//! only then acknowledges each to the SMSC, so that nothing acknowledged is ever lost. The
//! parts of a long reply wait, unacknowledged, until the reply is whole ([`Reassembly`]).

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use tokio::sync::mpsc;

use super::{
    clock::Clock,
    reassembly::{Reassembly, Whole},
};
use crate::{
    carrier::{Ack, Delivered, Inbound},
    store::{Arrival, DeliveryStore},
};

/// How often the parts of incomplete replies are checked for having waited too long.
const GIVE_UP_CHECK: Duration = Duration::from_secs(30);

/// Most deliveries stored in one write.
const MOST_PER_BATCH: usize = 2_000;

/// Stores deliveries until the carrier's side of the channel closes.
pub(crate) async fn run(
    store: Arc<dyn DeliveryStore>,
    clock: Arc<dyn Clock>,
    mut deliveries: mpsc::Receiver<Delivered>,
) {
    let mut parts = Reassembly::default();
    let mut check = tokio::time::interval(GIVE_UP_CHECK);
    loop {
        let mut batch = Vec::new();
        tokio::select! {
            first = deliveries.recv() => match first {
                Some(first) => batch.push(first),
                // Closed: the parts still waiting are not acknowledged, so the SMSC delivers
                // them again.
                None => return,
            },
            _ = check.tick() => {}
        }
        while batch.len() < MOST_PER_BATCH {
            match deliveries.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let (arrivals, acks) = sort(batch, &mut parts, Instant::now());
        if acks.is_empty() {
            continue;
        }
        // Stored, or tried again: an unacknowledged delivery would otherwise wait for a
        // reconnection to come back.
        while let Err(error) = store.store_arrivals(arrivals.clone(), clock.now()).await {
            tracing::error!(%error, "cannot store receipts and replies; trying again");
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        count(&arrivals);
        for ack in acks {
            ack.send();
        }
    }
}

/// Counts the receipts (by code) and replies stored, for the metrics.
fn count(arrivals: &[Arrival]) {
    let connector = crate::metrics_endpoint::DEFAULT_CONNECTOR;
    for arrival in arrivals {
        match arrival {
            Arrival::Receipt { code, .. } => {
                metrics::counter!("texto_receipts_total", "connector" => connector, "code" => code.label())
                    .increment(1);
            }
            Arrival::Reply { .. } => metrics::counter!("texto_replies_total", "connector" => connector).increment(1),
        }
    }
}

/// What of `batch` (and of the parts given up at `now`) to store, and the deliveries that
/// storing it acknowledges; the parts of incomplete replies stay in `parts`.
fn sort(batch: Vec<Delivered>, parts: &mut Reassembly<Ack>, now: Instant) -> (Vec<Arrival>, Vec<Ack>) {
    let (mut arrivals, mut acks) = (Vec::new(), Vec::new());
    fn take(whole: Whole<Ack>, arrivals: &mut Vec<Arrival>, acks: &mut Vec<Ack>) {
        arrivals.push(Arrival::Reply { from: whole.from, to: whole.to, text: whole.text });
        acks.extend(whole.held);
    }
    for delivered in batch {
        match delivered.inbound {
            Inbound::Reply { from, to, text, part: Some(part) } => {
                if let Some(whole) = parts.add(&from, &to, part, text, delivered.ack, now) {
                    take(whole, &mut arrivals, &mut acks);
                }
            }
            Inbound::Reply { from, to, text, part: None } => {
                arrivals.push(Arrival::Reply { from, to, text });
                acks.push(delivered.ack);
            }
            Inbound::Receipt { smsc_id, code: Some(code) } if !smsc_id.is_empty() => {
                arrivals.push(Arrival::Receipt { smsc_id, code });
                acks.push(delivered.ack);
            }
            // Not final: nothing to store.
            Inbound::Receipt { .. } => acks.push(delivered.ack),
        }
    }
    for whole in parts.given_up(now) {
        take(whole, &mut arrivals, &mut acks);
    }
    (arrivals, acks)
}
