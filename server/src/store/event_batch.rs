//! What the events of one write share, whichever store writes them: the time they are raised
//! (known once), which accounts listen to which event (looked up once per account and event),
//! and what they add to the daily counts and to campaigns' reports. Each store writes them
//! with its own statements.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::{
    AccountId, WebhookType,
    daily::{DayCounts, Tally},
    report::ReportTally,
    time,
};

/// The events of one write: the stores write them with their own statements (`SqliteEvents`,
/// `PgEvents`).
pub(crate) struct Outbox {
    now: DateTime<Utc>,
    at: String,
    /// Whether each account has a webhook (live or paused) of each type, once looked up.
    pub(crate) listening: HashMap<(AccountId, WebhookType), bool>,
    /// What the write adds to the daily counts, until the store writes them.
    pub(crate) tally: Tally,
    /// What the write adds to campaigns' reports, until the store writes them.
    pub(crate) report: ReportTally,
}

impl Outbox {
    /// The events raised at `now`.
    pub(crate) fn new(now: DateTime<Utc>) -> Outbox {
        Outbox {
            now,
            at: time::store(now),
            listening: HashMap::new(),
            tally: Tally::default(),
            report: ReportTally::default(),
        }
    }

    /// The time the events are raised.
    pub(crate) fn now(&self) -> DateTime<Utc> {
        self.now
    }

    /// The stored form of the time the events are raised.
    pub(crate) fn at(&self) -> &str {
        &self.at
    }

    /// Adds to `account`'s counts of the day (Paris) of the events.
    pub(crate) fn count(&mut self, account: AccountId, change: impl FnOnce(&mut DayCounts)) {
        self.tally.add(account, self.now, change);
    }

    /// A message was delivered: its account's day and its campaign's report count it.
    pub(crate) fn delivered(&mut self, finished: &super::effects::Finished) {
        self.tally.add(finished.account, self.now, |day| day.delivered += 1);
        // The stored time's first 13 characters are its hour, as `delivered_at`'s are.
        let hour = self.at.get(..13).unwrap_or(&self.at);
        self.report.delivered(finished.campaign, &finished.country, hour);
    }
}
