//! A campaign to write, owned (so that it can wait in the batcher's queue), and what a write
//! decides for each campaign of its batch, in queue order, from what it read under the
//! accounts' locks: the anti-flood check against the window, the debit against the running
//! balance, the monthly caps against the running counters, and the balance alerts it crosses.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Utc};
use texto_core::{Credits, FloodLimits};

use super::{flood_sync, time};
use crate::{
    Error,
    store::{
        AccountId, BalanceAlert, CampaignRow, Created, IdempotencyKey, MessageRow, NewCampaign, StoredAnswer,
        flood_window::FloodWindow, per_country, replay_of,
    },
};

/// Everything writing one campaign needs.
pub(super) struct Job {
    /// The sending account.
    pub(super) account: AccountId,
    /// The campaign's row.
    pub(super) row: CampaignRow,
    /// One message per recipient the filter let through, in request order.
    pub(super) messages: Vec<MessageRow>,
    /// What it costs.
    pub(super) cost: Credits,
    /// Hash of the text, for anti-flood.
    pub(super) text_hash: i64,
    /// Creation time.
    pub(super) now: DateTime<Utc>,
    /// The month its messages count in (`YYYY-MM`).
    pub(super) month: String,
    /// The request's idempotency key, if it came with one.
    pub(super) idempotency: Option<IdempotencyKey>,
    /// With a key: the answer's document without its ticket and balance (JSON), kept with it.
    pub(super) answer: Option<String>,
}

impl Job {
    /// The job writing `new` for `account`.
    pub(super) fn new(account: AccountId, new: &NewCampaign<'_>) -> Job {
        Job {
            account,
            row: new.row(),
            messages: new.message_rows(),
            cost: new.simulation.cost,
            text_hash: new.text_hash,
            now: new.now,
            month: time::month(new.now),
            idempotency: new.idempotency.clone(),
            answer: new
                .idempotency
                .as_ref()
                .map(|_| serde_json::to_string(&new.simulation.to_wire(None)).unwrap_or_default()),
        }
    }

    /// The recipients of its messages.
    pub(super) fn numbers(&self) -> Vec<u64> {
        self.messages.iter().map(|m| m.number).collect()
    }

    /// Its messages per country, in a stable order.
    pub(super) fn per_country(&self) -> BTreeMap<&'static str, i64> {
        per_country(&self.messages)
    }
}

/// What a batch's transaction read under its accounts' locks; the balances and counters move
/// as [`decide`] accepts jobs.
#[derive(Default)]
pub(super) struct Locked {
    /// Per account: its balance in hundredths and its anti-flood limits.
    pub(super) accounts: HashMap<AccountId, (i64, FloodLimits)>,
    /// Per account, month and capped country: the cap and the messages counted so far.
    pub(super) caps: HashMap<(AccountId, String, &'static str), (i64, i64)>,
    /// The accounts' balance alerts.
    pub(super) alerts: HashMap<AccountId, BalanceAlert>,
}

/// The stored answers of idempotency keys, by account and key.
pub(super) type Answers = HashMap<(AccountId, String), StoredAnswer>;

/// What a job gets.
pub(super) enum Verdict {
    /// Refused; nothing of it is written.
    Refused(Error),
    /// Written with this ticket, leaving this balance; `alert` when its debit crosses the
    /// account's balance alert trigger.
    Accepted { ticket: i64, balance: Credits, alert: bool },
    /// A retry of a request with the same idempotency key: nothing written, the first answer.
    Replayed(StoredAnswer),
}

/// Decides each job in queue order, as if each were written alone in that order: `tickets`
/// are ids taken under the locks, one per job, in growing order; `answers` holds the stored
/// answers of the jobs' idempotency keys, and learns those of the jobs accepted here.
pub(super) fn decide(
    jobs: &[Job],
    tickets: &[i64],
    locked: &mut Locked,
    window: &FloodWindow,
    answers: &mut Answers,
) -> Vec<Verdict> {
    // The accepted jobs' messages, which the window learns of only once they are written.
    let batch = FloodWindow::default();
    jobs.iter()
        .zip(tickets)
        .map(|(job, &ticket)| {
            if let Some(key) = &job.idempotency {
                match replay_of(answers.get(&(job.account, key.key.clone())), &key.fingerprint) {
                    Ok(Some(Created::Replayed(stored))) => return Verdict::Replayed(stored),
                    Ok(_) => {}
                    Err(error) => return Verdict::Refused(error),
                }
            }
            let verdict = decide_one(job, ticket, locked, [window, &batch]);
            if let Verdict::Accepted { ticket, balance, .. } = verdict {
                batch.record(job.account, job.numbers(), job.text_hash, job.now);
                if let Some(key) = &job.idempotency {
                    let stored = StoredAnswer {
                        fingerprint: key.fingerprint.clone(),
                        ticket,
                        balance,
                        answer: job.answer.clone().unwrap_or_default(),
                    };
                    answers.insert((job.account, key.key.clone()), stored);
                }
            }
            verdict
        })
        .collect()
}

/// [`decide`] for one job, moving the balance and counters when it is accepted.
fn decide_one(job: &Job, ticket: i64, locked: &mut Locked, windows: [&FloodWindow; 2]) -> Verdict {
    let Some(&(balance, limits)) = locked.accounts.get(&job.account) else {
        return Verdict::Refused(Error::NotFound(format!("account {}", job.account)));
    };
    let numbers = job.numbers();
    if !numbers.is_empty() && flood_sync::over_limits(&windows, job.account, &numbers, job.text_hash, limits, job.now) {
        return Verdict::Refused(Error::Contended(
            "another send to these numbers was written meanwhile: send again".into(),
        ));
    }
    let before = Credits::from_hundredths(balance);
    if job.cost > before {
        return Verdict::Refused(Error::NotEnoughCredits { cost: job.cost, balance: before });
    }
    let counts = job.per_country();
    if !locked.caps.is_empty() {
        for (&country, &count) in &counts {
            if let Some(&(cap, used)) = locked.caps.get(&(job.account, job.month.clone(), country))
                && used + count > cap
            {
                return Verdict::Refused(Error::Contended(format!(
                    "another send reached the monthly cap of {cap} messages to {country} meanwhile: send again"
                )));
            }
        }
        for (country, count) in counts {
            if let Some((_, used)) = locked.caps.get_mut(&(job.account, job.month.clone(), country)) {
                *used += count;
            }
        }
    }
    let after = before - job.cost;
    if let Some((balance, _)) = locked.accounts.get_mut(&job.account) {
        *balance = after.hundredths();
    }
    let alert =
        job.cost > Credits::ZERO && locked.alerts.get(&job.account).is_some_and(|alert| alert.crossed(before, after));
    Verdict::Accepted { ticket, balance: after, alert }
}
