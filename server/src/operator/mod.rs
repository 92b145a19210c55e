//! The operator, who runs texto for every account: the console API and its sign-in, accounts
//! and top-ups, price plans, routing over connectors, moderation, the command-line commands
//! that change them, and the reload of those settings on every node.

pub mod account_commands;
pub(crate) mod account_senders;
pub(crate) mod accounts;
pub(crate) mod caller;
pub(crate) mod console;
pub(crate) mod moderation;
pub mod moderation_commands;
pub(crate) mod moderation_queue;
pub mod plan_commands;
pub(crate) mod plans;
pub(crate) mod price_plans;
pub(crate) mod routing;
pub(crate) mod routing_changes;
pub mod routing_commands;
pub mod sender_commands;
pub(crate) mod session;
pub(crate) mod settings_reload;

use axum::Router;

use crate::state::AppState;

/// Every route of this domain.
pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .merge(accounts::router())
        .merge(account_senders::router())
        .merge(console::router())
        .merge(moderation_queue::router())
        .merge(plans::router())
        .merge(routing_changes::router())
        .merge(session::router())
}
