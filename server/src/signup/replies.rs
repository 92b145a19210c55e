//! Sign-ups confirmed by a reply: each second, the pending sign-ups whose SMS was answered OUI
//! or YES (the latest of each number, within a day) are confirmed, as a typed code would.

use std::time::Duration as StdDuration;

use chrono::{DateTime, Utc};
use tokio_util::sync::CancellationToken;

use crate::{Error, state::AppState, store::signups::ConfirmedBy};

/// Sign-ups looked at per pass.
const BATCH: i64 = 100;

/// How often replies are looked for.
const EVERY: StdDuration = StdDuration::from_secs(1);

/// Confirms the sign-ups a reply confirms at `now`; how many.
pub(crate) async fn step(state: &AppState, now: DateTime<Utc>) -> Result<usize, Error> {
    let mut confirmed = 0;
    for signup in state.store.replied_signups(now, BATCH).await? {
        let Some(page) = state.store.signup_page(signup.account, signup.page).await? else { continue };
        if super::confirm(state, &page, signup, ConfirmedBy::Reply, now).await? {
            confirmed += 1;
        }
    }
    Ok(confirmed)
}

/// Steps every [`EVERY`] until stopped.
pub(crate) async fn run(state: AppState, stop: CancellationToken) {
    loop {
        match step(&state, Utc::now()).await {
            Ok(0) => {}
            Ok(confirmed) => tracing::info!(confirmed, "sign-ups confirmed by a reply"),
            Err(error) => tracing::error!(%error, "confirming sign-ups by their replies failed; trying again"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(EVERY) => {}
        }
    }
}
