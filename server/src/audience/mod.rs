//! The audience: stored lists and their upkeep, the blacklist and NPAI list, contacts and
//! their consent, and segments.

pub(crate) mod blacklist_npai;
pub(crate) mod contact_numbers;
pub(crate) mod contacts;
pub(crate) mod list_upkeep;
pub(crate) mod lists;
pub(crate) mod request_contacts;
pub(crate) mod segments;

use axum::Router;

use crate::state::AppState;

/// Every route of this domain.
pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .merge(blacklist_npai::router())
        .merge(contact_numbers::router())
        .merge(contacts::router())
        .merge(list_upkeep::router())
        .merge(lists::router())
        .merge(segments::router())
}
