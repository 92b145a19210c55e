//! The dispatcher: releases scheduled campaigns at their time and hands queued messages to
//! the connectors their routes choose, in waves of at most the available connectors' windows
//! (binds × window each), alerts before marketing, and marketing only inside its hours, in
//! each recipient's own time (docs/interface.md §5.2). A message whose route has no connector available waits. Each wave is marked in flight
//! in the same write that stores the previous wave's outcomes, so a crash can duplicate at
//! most one wave.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use chrono::{DateTime, TimeDelta, Utc};
use futures_util::future::join_all;
use texto_core::{MergeValues, MessageOptions, OpenWindows, render};

use super::{
    clock::Clock,
    connectors::{Connectors, Plan},
    links::LinkCodes,
    throttle::Throttle,
};
use crate::{
    Error,
    carrier::{Carrier, Outgoing, Submitted},
    operator::routing::{ConnectorName, Traits, stored_smsc_id},
    store::{AccountId, DeliveryStore, HandOff, Queued},
};

/// What a step did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Progress {
    /// Messages handed over (or refused for good).
    pub(crate) handed: usize,
    /// Messages to try again later.
    pub(crate) retried: usize,
    /// When an account at its throughput limit can send again, if one waits for that.
    pub(crate) throttled: Option<Duration>,
}

/// Hands messages over, one wave per [`Dispatcher::step`].
pub(crate) struct Dispatcher {
    store: Arc<dyn DeliveryStore>,
    connectors: Arc<Connectors>,
    throttle: Arc<Throttle>,
    clock: Arc<dyn Clock>,
    message: MessageOptions,
    default_sender: String,
    codes: LinkCodes,
    /// The last wave's outcomes, stored with the next wave's marking.
    done: Mutex<Vec<HandOff>>,
    /// When scheduled campaigns were last released (at most once a second, not every wave).
    released_at: Mutex<Option<DateTime<Utc>>>,
}

impl Dispatcher {
    /// A dispatcher handing over through `connectors`, within the accounts' limits of `throttle`.
    pub(crate) fn new(
        store: Arc<dyn DeliveryStore>,
        (connectors, throttle): (Arc<Connectors>, Arc<Throttle>),
        clock: Arc<dyn Clock>,
        message: MessageOptions,
        default_sender: String,
        codes: LinkCodes,
    ) -> Dispatcher {
        Dispatcher {
            store,
            connectors,
            throttle,
            clock,
            message,
            default_sender,
            codes,
            done: Mutex::default(),
            released_at: Mutex::default(),
        }
    }

    /// Releases due campaigns, stores the last wave's outcomes, and hands the next wave over.
    pub(crate) async fn step(&self) -> Result<Progress, Error> {
        let now = self.clock.now();
        let due = self
            .released_at
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_none_or(|at| now - at >= TimeDelta::seconds(1));
        if due {
            self.store.release_due(now).await?;
            *self.released_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(now);
        }
        let open = OpenWindows::at(now);
        let done = std::mem::take(&mut *self.done.lock().unwrap_or_else(|e| e.into_inner()));
        let plan = self.connectors.plan();
        let limit = self.throttle.wave(plan.capacity(), Instant::now());
        let throttled = self.throttle.next_token(&limit);
        let limited = !limit.caps.is_empty();
        let wave = match self.store.hand_off(done.clone(), limit, open, now).await {
            Ok(wave) => wave,
            Err(error) => {
                // Not stored: keep them for the next step.
                self.done.lock().unwrap_or_else(|e| e.into_inner()).extend(done);
                return Err(error);
            }
        };
        let handed = join_all(wave.iter().map(|queued| self.hand_over(&plan, queued))).await;
        count(&handed);
        // Only limited accounts have a bucket to take from: without any, nothing to count.
        if limited {
            let mut per_account: HashMap<AccountId, usize> = HashMap::new();
            for (queued, (outcome, _)) in wave.iter().zip(&handed) {
                if !matches!(outcome, HandOff::Retry { .. }) {
                    *per_account.entry(queued.campaign.account).or_default() += 1;
                }
            }
            self.throttle.spent(&per_account);
        }
        self.connectors.set_waiting(waiting_for(&plan, &wave, &handed));
        let outcomes: Vec<HandOff> = handed.into_iter().map(|(outcome, _)| outcome).collect();
        let progress = Progress {
            handed: outcomes.iter().filter(|o| !matches!(o, HandOff::Retry { .. })).count(),
            retried: outcomes.iter().filter(|o| matches!(o, HandOff::Retry { .. })).count(),
            throttled,
        };
        self.done.lock().unwrap_or_else(|e| e.into_inner()).extend(outcomes);
        Ok(progress)
    }

    /// Stores the outcomes still held (on shutdown), handing nothing more over.
    pub(crate) async fn flush(&self) -> Result<(), Error> {
        let done = std::mem::take(&mut *self.done.lock().unwrap_or_else(|e| e.into_inner()));
        if !done.is_empty() {
            self.store.hand_off(done, 0.into(), OpenWindows::NONE, self.clock.now()).await?;
        }
        Ok(())
    }

    /// The message as its recipient gets it.
    pub(crate) fn outgoing(&self, queued: &Queued) -> Outgoing {
        let campaign = &queued.campaign;
        let short_urls = self.codes.short_urls(&self.message, queued.id, &campaign.links);
        let values = queued.info.as_deref().map(MergeValues::stored);
        Outgoing {
            source: campaign.sender.clone().unwrap_or_else(|| self.default_sender.clone()),
            destination: queued.number.to_string(),
            text: render(
                campaign.text_of(queued.variant),
                campaign.pushtype,
                &short_urls,
                &self.message,
                values.as_ref(),
            ),
            unicode: campaign.unicode,
            validity: campaign.validity,
            reference: (queued.id % 256) as u8,
        }
    }

    /// Hands one message to the connector its route chooses; the outcome, and the connector.
    async fn hand_over(&self, plan: &Plan, queued: &Queued) -> (HandOff, Option<ConnectorName>) {
        let id = queued.id;
        let Some(connector) = plan.pick(traits(queued)) else {
            tracing::debug!(message = id, "no connector of the message's route is available: it waits");
            return (HandOff::Retry { id }, None);
        };
        let outcome = match connector.submit(&self.outgoing(queued)).await {
            Submitted::Accepted { smsc_id } => {
                HandOff::Submitted { id, smsc_id: stored_smsc_id(&connector.name, &smsc_id) }
            }
            Submitted::Failed { code, reason } => {
                tracing::info!(message = id, connector = %connector.name, code = code.code(), %reason, "the SMSC refused a message");
                HandOff::Failed { id, code }
            }
            Submitted::Retry(reason) => {
                tracing::debug!(message = id, connector = %connector.name, %reason, "a message waits to be handed over again");
                HandOff::Retry { id }
            }
        };
        (outcome, Some(connector.name.clone()))
    }
}

/// For each campaign whose messages found no connector available, its route's connectors.
fn waiting_for(plan: &Plan, wave: &[Queued], handed: &[(HandOff, Option<ConnectorName>)]) -> HashMap<i64, String> {
    let mut waiting = HashMap::new();
    for (queued, _) in wave.iter().zip(handed).filter(|(_, (_, connector))| connector.is_none()) {
        waiting.entry(queued.campaign.id).or_insert_with(|| {
            plan.candidates(traits(queued)).iter().map(ConnectorName::as_str).collect::<Vec<_>>().join(", ")
        });
    }
    waiting
}

/// What the routes look at in a queued message.
fn traits(queued: &Queued) -> Traits {
    Traits { number: queued.number, account: queued.campaign.account, pushtype: queued.campaign.pushtype }
}

/// Counts a wave's messages taken and refused, by connector, for the metrics.
fn count(handed: &[(HandOff, Option<ConnectorName>)]) {
    let mut by_connector: HashMap<&str, (u64, u64)> = HashMap::new();
    for (outcome, connector) in handed {
        let Some(connector) = connector else { continue };
        let counts = by_connector.entry(connector.as_str()).or_default();
        match outcome {
            HandOff::Submitted { .. } => counts.0 += 1,
            HandOff::Failed { .. } => counts.1 += 1,
            HandOff::Retry { .. } => {}
        }
    }
    for (connector, (submitted, refused)) in by_connector {
        let connector = connector.to_owned();
        metrics::counter!("texto_messages_handed_over_total", "connector" => connector.clone()).increment(submitted);
        metrics::counter!("texto_messages_refused_total", "connector" => connector).increment(refused);
    }
}
