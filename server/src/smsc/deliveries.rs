//! The simulator's deliver_sm bookkeeping, as an SMSC keeps it: a receipt or reply stays the
//! SMSC's until the ESME answers deliver_sm_resp. Those of a bind that drops, and those made
//! while no bind can receive, go to the next bind that can.

use std::collections::{HashMap, VecDeque};

use rusmpp::{Command, CommandStatus, Pdu};

use super::Shared;

/// Unanswered deliver_sm by bind and sequence number, and those waiting for a bind.
#[derive(Debug, Default)]
pub(super) struct Deliveries {
    unanswered: HashMap<(u64, u32), Pdu>,
    waiting: VecDeque<Pdu>,
}

impl Shared {
    /// Sends `pdu` (a deliver_sm) to `preferred` if it can receive, else to another bind that
    /// can, else keeps it until one binds. Returns false when it waits.
    pub(super) fn deliver(&self, preferred: Option<u64>, pdu: Pdu) -> bool {
        let binds = self.binds();
        let usable = |id: &u64| binds.get(id).is_some_and(|b| b.receives && !b.outbox.is_closed());
        let target = preferred.filter(usable).or_else(|| binds.keys().copied().find(usable));
        let mut deliveries = self.deliveries();
        let Some(bind) = target.and_then(|id| binds.get(&id).map(|b| (id, b))) else {
            deliveries.waiting.push_back(pdu);
            return false;
        };
        let sequence = self.sequence();
        deliveries.unanswered.insert((bind.0, sequence), pdu.clone());
        if bind.1.outbox.send(Command::new(CommandStatus::EsmeRok, sequence, pdu)).is_err() {
            // Closed in between: it is the bind's unanswered, handed on when it is removed.
            return false;
        }
        true
    }

    /// The ESME answered deliver_sm `sequence` on `bind`.
    pub(super) fn delivered(&self, bind: u64, sequence: u32) {
        self.deliveries().unanswered.remove(&(bind, sequence));
    }

    /// A bind ended: its unanswered deliver_sm go to another bind, or wait.
    pub(super) fn hand_on(&self, bind: u64) {
        let pending: Vec<Pdu> = {
            let mut deliveries = self.deliveries();
            let keys: Vec<(u64, u32)> = deliveries.unanswered.keys().filter(|(b, _)| *b == bind).copied().collect();
            let mut keys = keys;
            keys.sort_unstable();
            keys.into_iter().filter_map(|key| deliveries.unanswered.remove(&key)).collect()
        };
        for pdu in pending {
            self.deliver(None, pdu);
        }
    }

    /// A bind that can receive came up: what waited goes to it.
    pub(super) fn flush_waiting(&self, bind: u64) {
        let waiting: Vec<Pdu> = self.deliveries().waiting.drain(..).collect();
        for pdu in waiting {
            self.deliver(Some(bind), pdu);
        }
    }

    /// How many deliver_sm are unanswered or waiting.
    pub(super) fn undelivered(&self) -> usize {
        let deliveries = self.deliveries();
        deliveries.unanswered.len() + deliveries.waiting.len()
    }
}
