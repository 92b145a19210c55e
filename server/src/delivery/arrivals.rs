//! The arrivals worker: stores what the carrier delivers (receipts, replies) in batches, and
//! only then acknowledges each to the SMSC, so that nothing acknowledged is ever lost. The
//! parts of a long reply wait, unacknowledged, until the reply is whole ([`Reassembly`]).

use std::{
    collections::HashMap,
    sync::Arc,
    time::{Duration, Instant},
};

use tokio::sync::mpsc;

use super::{
    clock::Clock,
    connectors::Connectors,
    reassembly::{Reassembly, Whole},
};
use crate::{
    carrier::{Ack, Delivered, Inbound},
    operator::routing::{ConnectorName, stored_smsc_id},
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
    connectors: Arc<Connectors>,
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
        let (arrivals, acks, sources) = sort(batch, &mut parts, Instant::now());
        if acks.is_empty() {
            continue;
        }
        // Stored, or tried again: an unacknowledged delivery would otherwise wait for a
        // reconnection to come back.
        while let Err(error) = store.store_arrivals(arrivals.clone(), clock.now()).await {
            tracing::error!(%error, "cannot store receipts and replies; trying again");
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        count(&arrivals, &sources, &connectors);
        for ack in acks {
            ack.send();
        }
    }
}

/// Counts the receipts (by connector and code) and replies stored, for the metrics and the
/// connectors' receipts outstanding; `sources` names the connector of each arrival.
fn count(arrivals: &[Arrival], sources: &[ConnectorName], connectors: &Connectors) {
    let mut receipts: HashMap<&ConnectorName, u64> = HashMap::new();
    for (arrival, connector) in arrivals.iter().zip(sources) {
        let name = connector.to_string();
        match arrival {
            Arrival::Receipt { code, .. } => {
                *receipts.entry(connector).or_default() += 1;
                metrics::counter!("texto_receipts_total", "connector" => name, "code" => code.label()).increment(1);
            }
            Arrival::Reply { .. } => metrics::counter!("texto_replies_total", "connector" => name).increment(1),
        }
    }
    for (name, count) in receipts {
        if let Some(connector) = connectors.get(name) {
            connector.receipted(count);
        }
    }
}

/// What a batch comes to: what to store, the connector each came from, and the
/// acknowledgements storing it allows.
type Sorted = (Vec<Arrival>, Vec<Ack>, Vec<ConnectorName>);

/// What of `batch` (and of the parts given up at `now`) to store, and the deliveries that
/// storing it acknowledges; the parts of incomplete replies stay in `parts`. A receipt's id
/// is looked up as its connector stored it ([`stored_smsc_id`]).
fn sort(batch: Vec<Delivered>, parts: &mut Reassembly<(Ack, ConnectorName)>, now: Instant) -> Sorted {
    fn take(whole: Whole<(Ack, ConnectorName)>, (arrivals, acks, sources): &mut Sorted) {
        arrivals.push(Arrival::Reply { from: whole.from, to: whole.to, text: whole.text });
        sources.push(whole.held.first().map_or_else(ConnectorName::default_connector, |(_, c)| c.clone()));
        acks.extend(whole.held.into_iter().map(|(ack, _)| ack));
    }
    let mut sorted: Sorted = (Vec::new(), Vec::new(), Vec::new());
    for delivered in batch {
        let connector = delivered.connector;
        match delivered.inbound {
            Inbound::Reply { from, to, text, part: Some(part) } => {
                if let Some(whole) = parts.add(&from, &to, part, text, (delivered.ack, connector), now) {
                    take(whole, &mut sorted);
                }
            }
            Inbound::Reply { from, to, text, part: None } => {
                sorted.0.push(Arrival::Reply { from, to, text });
                sorted.1.push(delivered.ack);
                sorted.2.push(connector);
            }
            Inbound::Receipt { smsc_id, code: Some(code) } if !smsc_id.is_empty() => {
                sorted.0.push(Arrival::Receipt { smsc_id: stored_smsc_id(&connector, &smsc_id), code });
                sorted.1.push(delivered.ack);
                sorted.2.push(connector);
            }
            // Not final: nothing to store.
            Inbound::Receipt { .. } => sorted.1.push(delivered.ack),
        }
    }
    for whole in parts.given_up(now) {
        take(whole, &mut sorted);
    }
    sorted
}
