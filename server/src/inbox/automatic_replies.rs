//! The keywords' automatic replies: written with the reply that calls for them, then
//! sent here through the send path (charged, filtered, handed to the carrier as any alert) and
//! marked with what became of them. Several nodes may send the same one: its idempotency key
//! makes the second a replay.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::{Error, inbox::outgoing::send_automatic_reply, state::AppState};

/// Automatic replies sent per store read.
const BATCH: i64 = 50;

/// How often the worker looks for automatic replies to send.
const EVERY: Duration = Duration::from_millis(500);

/// Sends every automatic reply waiting; how many it handled.
pub(crate) async fn step(state: &AppState) -> Result<usize, Error> {
    let mut handled = 0;
    loop {
        let due = state.store.due_auto_replies(BATCH).await?;
        for reply in &due {
            let outcome = send_automatic_reply(state, reply).await?;
            tracing::info!(id = reply.id, account = reply.account, ?outcome, "automatic reply");
            state.store.auto_reply_done(reply.id, outcome).await?;
            handled += 1;
        }
        if (due.len() as i64) < BATCH {
            return Ok(handled);
        }
    }
}

/// Steps every [`EVERY`] until stopped.
pub(crate) async fn run(state: AppState, stop: CancellationToken) {
    loop {
        if let Err(error) = step(&state).await {
            tracing::error!(%error, "sending automatic replies failed; trying again");
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(EVERY) => {}
        }
    }
}
