//! The arrivals worker: stores what the carrier delivers (receipts, replies) in batches, and
//! only then acknowledges each to the SMSC, so that nothing acknowledged is ever lost.

use std::{sync::Arc, time::Duration};

use tokio::sync::mpsc;

use super::clock::Clock;
use crate::{
    carrier::{Delivered, Inbound},
    store::{Arrival, DeliveryStore},
};

/// Most deliveries stored in one write.
const MOST_PER_BATCH: usize = 2_000;

/// Stores deliveries until the carrier's side of the channel closes.
pub(crate) async fn run(
    store: Arc<dyn DeliveryStore>,
    clock: Arc<dyn Clock>,
    mut deliveries: mpsc::Receiver<Delivered>,
) {
    while let Some(first) = deliveries.recv().await {
        let mut batch = vec![first];
        while batch.len() < MOST_PER_BATCH {
            match deliveries.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let arrivals: Vec<Arrival> = batch.iter().filter_map(|d| arrival(&d.inbound)).collect();
        // Stored, or tried again: an unacknowledged delivery would otherwise wait for a
        // reconnection to come back.
        while let Err(error) = store.store_arrivals(arrivals.clone(), clock.now()).await {
            tracing::error!(%error, "cannot store receipts and replies; trying again");
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        for delivered in batch {
            delivered.ack.send();
        }
    }
}

/// What to store of a delivery: nothing for a receipt that is not final.
fn arrival(inbound: &Inbound) -> Option<Arrival> {
    match inbound {
        Inbound::Receipt { smsc_id, code: Some(code) } if !smsc_id.is_empty() => {
            Some(Arrival::Receipt { smsc_id: smsc_id.clone(), code: *code })
        }
        Inbound::Receipt { .. } => None,
        Inbound::Reply { from, text } => Some(Arrival::Reply { from: from.clone(), text: text.clone() }),
    }
}
