//! The state every request handler is handed: the store, the configuration read once, and
//! the shared pieces the handlers call (limits, short-link codes, the workers they wake).

use std::sync::Arc;

use governor::DefaultKeyedRateLimiter;
use texto_core::MessageOptions;
use tokio::sync::{Notify, Semaphore};

use crate::{
    Config,
    account::audit_log::AuditLog,
    delivery::{Mailer, links::LinkCodes},
    sending::devices::Devices,
    store::Store,
    team::{passwords::PasswordChecks, sign_in_guard::SignInGuard},
    webhook_sender::WebhookSender,
};

/// Shared state handed to every request handler: one reference-counted [`Shared`], so that
/// handing it to a request (axum clones it for each extractor) counts one reference instead of
/// copying a dozen and cloning the message options' strings (seen in a profile of
/// one-recipient sends).
#[derive(Clone)]
pub(crate) struct AppState(Arc<Shared>);

impl AppState {
    /// The state of a server made of `shared`.
    pub(crate) fn new(shared: Shared) -> AppState {
        AppState(Arc::new(shared))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// What [`AppState`] shares.
pub(crate) struct Shared {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) config: Arc<Config>,
    pub(crate) rate_limiter: Option<Arc<DefaultKeyedRateLimiter<[u8; 32]>>>,
    pub(crate) message: MessageOptions,
    /// The accounts' price plans.
    pub(crate) plans: Arc<crate::operator::price_plans::PricePlans>,
    /// The running connectors (and why messages wait for them).
    pub(crate) connectors: Arc<crate::delivery::Connectors>,
    /// The operator's moderation rules.
    pub(crate) moderation: Arc<crate::operator::moderation::Moderation>,
    /// The cap on bodies over 1 MB decoded at once (`--max-large-bodies`).
    pub(crate) large_bodies: Arc<Semaphore>,
    /// Short-link codes.
    pub(crate) codes: LinkCodes,
    /// Phones behind the User-Agents of clicks.
    pub(crate) devices: Arc<Devices>,
    /// Wakes the dispatcher when a campaign is accepted.
    pub(crate) dispatch: Arc<Notify>,
    /// Wakes the journeys' runner when a number enters a journey.
    pub(crate) journeys: Arc<Notify>,
    /// Posts webhook events (and resends them from the log).
    pub(crate) webhooks: Arc<WebhookSender>,
    /// Records who did what.
    pub(crate) audit: Arc<AuditLog>,
    /// Slows down password guessing.
    pub(crate) sign_ins: Arc<SignInGuard>,
    /// The bound on password checks under way (`--max-password-checks`).
    pub(crate) password_checks: Arc<PasswordChecks>,
    /// Sends invitations and password resets (`--smtp-url`); without it the links are
    /// answered to whoever asked for them.
    pub(crate) mailer: Option<Arc<dyn Mailer>>,
    /// Takes password reset requests for the worker that mails the links.
    pub(crate) resets: Arc<crate::team::password_resets::ResetRequests>,
}
