//! Sending: send and simulate (to numbers and stored lists), campaigns and their history,
//! approval, idempotency keys, short links and their clicks, prices, messages one by one, the
//! consumption and daily figures, and the built-in SMSC simulator's face.

pub(crate) mod ab_tests;
pub(crate) mod approval;
pub(crate) mod approval_expiry;
pub(crate) mod campaign_numbers;
pub(crate) mod campaigns;
pub(crate) mod clicks;
pub(crate) mod consumption;
pub(crate) mod conversions;
pub(crate) mod daily;
pub(crate) mod devices;
pub(crate) mod drafts;
pub(crate) mod idempotency;
pub(crate) mod merge_fields;
pub(crate) mod messages;
pub(crate) mod pause;
pub(crate) mod prices;
pub(crate) mod report;
pub(crate) mod send;
pub(crate) mod senders;
pub(crate) mod service;
pub(crate) mod short_links;
pub(crate) mod simulator;
pub(crate) mod templates;
pub(crate) mod test_send;
pub(crate) mod winner;

use axum::Router;

use crate::state::AppState;

/// Every route of this domain.
pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .merge(approval::router())
        .merge(campaign_numbers::router())
        .merge(campaigns::router())
        .merge(clicks::router())
        .merge(consumption::router())
        .merge(conversions::router())
        .merge(daily::router())
        .merge(drafts::router())
        .merge(messages::router())
        .merge(pause::router())
        .merge(prices::router())
        .merge(report::router())
        .merge(send::router())
        .merge(senders::router())
        .merge(short_links::router())
        .merge(templates::router())
        .merge(test_send::router())
        .merge(winner::router())
}
