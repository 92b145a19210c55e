//! Simulated outages: throttling submits, or dropping and refusing binds, for a while.

use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use tokio::time::{Duration, Instant};

/// What an outage does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// submit_sm is answered ESME_RTHROTTLED.
    Throttle,
    /// Every bind is dropped and new connections are closed at once.
    Disconnect,
}

/// The current outage, if any, and a signal that drops the binds.
#[derive(Debug)]
pub struct Outage {
    current: Mutex<Option<(Mode, Instant)>>,
    drop_binds: watch::Sender<u64>,
}

impl Default for Outage {
    fn default() -> Self {
        Self { current: Mutex::new(None), drop_binds: watch::channel(0).0 }
    }
}

impl Outage {
    /// Starts an outage of `mode` for `seconds`; a disconnect drops every bind now.
    pub fn start(&self, mode: Mode, seconds: u64) {
        let until = Instant::now() + Duration::from_secs(seconds);
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = Some((mode, until));
        if mode == Mode::Disconnect {
            self.drop_binds();
        }
    }

    /// Closes every bind now.
    pub fn drop_binds(&self) {
        self.drop_binds.send_modify(|generation| *generation += 1);
    }

    /// Whether an outage of `mode` is going on.
    pub fn is(&self, mode: Mode) -> bool {
        let current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        matches!(*current, Some((m, until)) if m == mode && Instant::now() < until)
    }

    /// A receiver that changes when the binds must be dropped.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.drop_binds.subscribe()
    }
}
