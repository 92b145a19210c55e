//! The account: its details, sub-accounts, the balance alert, retention, webhooks and the
//! audit log.

pub(crate) mod audit;
pub(crate) mod audit_log;
pub(crate) mod details;
pub(crate) mod notification;
pub(crate) mod retention;
pub(crate) mod retention_settings;
pub(crate) mod sub_accounts;
pub(crate) mod webhook_resend;
pub(crate) mod webhooks;

use axum::Router;

use crate::state::AppState;

/// Every route of this domain.
pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .merge(audit::router())
        .merge(details::router())
        .merge(notification::router())
        .merge(retention_settings::router())
        .merge(sub_accounts::router())
        .merge(webhook_resend::router())
        .merge(webhooks::router())
}
