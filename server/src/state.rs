//! The state every request handler is handed: the store, the configuration read once, and
//! the shared pieces the handlers call (limits, short-link codes, the workers they wake).

use std::sync::Arc;

use governor::DefaultKeyedRateLimiter;
use texto_core::{MessageOptions, PriceTable};
use tokio::sync::{Notify, Semaphore};

use crate::{Config, delivery::links::LinkCodes, devices::Devices, store::Store, webhook_sender::WebhookSender};

/// Shared state handed to every request handler.
#[derive(Clone)]
pub(crate) struct AppState {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) config: Arc<Config>,
    pub(crate) rate_limiter: Option<Arc<DefaultKeyedRateLimiter<[u8; 32]>>>,
    pub(crate) message: MessageOptions,
    pub(crate) prices: PriceTable,
    /// The cap on bodies over 1 MB decoded at once (`--max-large-bodies`).
    pub(crate) large_bodies: Arc<Semaphore>,
    /// Short-link codes.
    pub(crate) codes: LinkCodes,
    /// Phones behind the User-Agents of clicks.
    pub(crate) devices: Arc<Devices>,
    /// Wakes the dispatcher when a campaign is accepted.
    pub(crate) dispatch: Arc<Notify>,
    /// Posts webhook events (and resends them from the log).
    pub(crate) webhooks: Arc<WebhookSender>,
}
