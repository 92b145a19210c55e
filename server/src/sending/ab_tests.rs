//! A/B tests after their wait: the best text by the test's criterion goes to the rest (or the
//! one a person chose before, `PUT /campaign/{id}/winner`), priced for it, and what the rest was
//! held at beyond that is refunded; the audit log says which text won and why.

use std::{sync::Arc, time::Duration};

use chrono::{DateTime, Utc};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::{
    Error,
    account::audit_log::AuditLog,
    store::{AuditEntry, Store, ab_tests::StoredTest},
};

/// Chooses the winners of A/B tests whose wait is over.
pub(crate) struct AbDecider {
    store: Arc<dyn Store>,
    audit: Arc<AuditLog>,
    dispatch: Arc<Notify>,
}

/// How a winner was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Choice {
    /// By the test's criterion, once its wait was over.
    Measured,
    /// By a person, before.
    ByHand,
}

impl AbDecider {
    /// Decides the tests of `store`, recording each in `audit` and waking `dispatch` for the rest.
    pub(crate) fn new(store: Arc<dyn Store>, audit: Arc<AuditLog>, dispatch: Arc<Notify>) -> AbDecider {
        AbDecider { store, audit, dispatch }
    }

    /// Chooses the winner of every test whose wait is over at `now`; how many.
    pub(crate) async fn step(&self, now: DateTime<Utc>) -> Result<usize, Error> {
        let mut decided = 0;
        for test in self.store.waiting_tests().await?.into_iter().filter(|test| test.due_at() <= now) {
            let counts = self.store.sample_counts(test.campaign, test.test.texts()).await?;
            let winner = texto_core::winner(test.test.criterion(), &counts) as u8;
            if self.decide(&test, winner, Choice::Measured, now).await?.is_some() {
                decided += 1;
            }
        }
        Ok(decided)
    }

    /// Sends `winner` to the rest of `test` at `now`; the refund, or `None` when it was decided
    /// meanwhile. A choice measured at the test's end is recorded in the audit log as texto's;
    /// a choice by hand is recorded with its request, as every change is.
    pub(crate) async fn decide(
        &self,
        test: &StoredTest,
        winner: u8,
        choice: Choice,
        now: DateTime<Utc>,
    ) -> Result<Option<texto_core::Credits>, Error> {
        let Some(refund) = self.store.choose_winner(test, winner).await? else { return Ok(None) };
        let (ticket, text) = (test.campaign, u32::from(winner) + 1);
        tracing::info!(ticket, text, %refund, ?choice, "an A/B test's winner goes to the rest");
        if choice == Choice::Measured {
            let why = format!("the best {} rate after {}", test.test.criterion().as_str(), test.test.wait_text());
            self.audit.record(AuditEntry {
                account: test.account,
                at: now,
                actor: "texto".to_owned(),
                address: String::new(),
                action: "campaign.ab_winner".to_owned(),
                object: format!("campaign {ticket}"),
                summary: format!("campaign {ticket}: text {text} goes to the rest ({why}); {refund} credits returned"),
            });
        }
        self.dispatch.notify_one();
        Ok(Some(refund))
    }
}

/// Steps every `every` until stopped.
pub(crate) async fn run(decider: Arc<AbDecider>, every: Duration, stop: CancellationToken) {
    loop {
        match decider.step(Utc::now()).await {
            Ok(0) => {}
            Ok(decided) => tracing::info!(decided, "A/B tests decided"),
            Err(error) => tracing::error!(%error, "deciding A/B tests failed; trying again later"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(every) => {}
        }
    }
}
