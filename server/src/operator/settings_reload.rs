//! The loop of the workers that read the operator's settings again each second (price plans,
//! moderation rules, connectors and routes), so that a command reaches every node within a second.

use std::{future::Future, time::Duration};

use tokio_util::sync::CancellationToken;

use crate::Error;

/// How often the settings are read again.
pub(crate) const EVERY: Duration = Duration::from_secs(1);

/// Runs `step` every [`EVERY`] until `stop`, the first time after a second (the caller read
/// the settings once before serving); a failed step is logged (`what` names the settings) and
/// the last ones read stay in force.
pub(crate) async fn run<F, Fut>(what: &'static str, stop: CancellationToken, mut step: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<(), Error>>,
{
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(EVERY) => {}
        }
        if let Err(error) = step().await {
            tracing::error!(%error, "cannot read the {what}; keeping the last ones");
        }
    }
}
