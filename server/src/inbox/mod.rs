//! Two-way messaging: the conversations of the inbox, keywords and their automatic replies,
//! the HELP and STOP settings, and the one-recipient messages sent to a number that wrote.

pub(crate) mod automatic_replies;
pub(crate) mod conversations;
pub(crate) mod keywords;
pub(crate) mod outgoing;
pub(crate) mod settings;

use axum::Router;

use crate::state::AppState;

/// Every route of this domain.
pub(crate) fn router() -> Router<AppState> {
    Router::new().merge(conversations::router()).merge(keywords::router()).merge(settings::router())
}
