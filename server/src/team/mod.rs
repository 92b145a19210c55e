//! The team: people and their roles, sessions and sign-in (passwords, two-factor, the slow-down
//! of guessing), invitation and password-reset links, API tokens, and the team's rules.

pub(crate) mod address_range;
pub(crate) mod link_mail;
pub(crate) mod names;
pub(crate) mod one_time_links;
pub(crate) mod password_resets;
pub(crate) mod passwords;
pub(crate) mod people;
pub(crate) mod rules;
pub(crate) mod session;
pub(crate) mod sign_in_guard;
pub(crate) mod token_mint;
pub(crate) mod tokens;
pub(crate) mod two_factor;
pub(crate) mod two_factor_setup;
pub mod user_commands;

use axum::Router;

use crate::state::AppState;

/// Every route of this domain.
pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .merge(one_time_links::router())
        .merge(people::router())
        .merge(rules::router())
        .merge(session::router())
        .merge(tokens::router())
        .merge(two_factor_setup::router())
}
