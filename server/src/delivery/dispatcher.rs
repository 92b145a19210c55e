//! The dispatcher: releases scheduled campaigns at their time and hands queued messages to
//! the carrier in waves of at most the carrier's window (binds × window), alerts before
//! marketing, and marketing only inside its hours (docs/interface.md §5.2). Each wave is marked in flight
//! in the same write that stores the previous wave's outcomes, so a crash can duplicate at
//! most one wave.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, TimeDelta, Utc};
use futures_util::future::join_all;
use texto_core::{MessageOptions, PushType, next_allowed_send, render};

use super::{clock::Clock, links::LinkCodes};
use crate::{
    Error,
    carrier::{Carrier, Outgoing, Submitted},
    store::{DeliveryStore, HandOff, Queued},
};

/// What a step did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Progress {
    /// Messages handed over (or refused for good).
    pub(crate) handed: usize,
    /// Messages to try again later.
    pub(crate) retried: usize,
}

/// Hands messages over, one wave per [`Dispatcher::step`].
pub(crate) struct Dispatcher {
    store: Arc<dyn DeliveryStore>,
    carrier: Arc<dyn Carrier>,
    clock: Arc<dyn Clock>,
    message: MessageOptions,
    default_sender: String,
    codes: LinkCodes,
    wave: usize,
    /// The last wave's outcomes, stored with the next wave's marking.
    done: Mutex<Vec<HandOff>>,
    /// When scheduled campaigns were last released (at most once a second, not every wave).
    released_at: Mutex<Option<DateTime<Utc>>>,
}

impl Dispatcher {
    /// A dispatcher handing over at most `wave` messages at once.
    pub(crate) fn new(
        store: Arc<dyn DeliveryStore>,
        carrier: Arc<dyn Carrier>,
        clock: Arc<dyn Clock>,
        message: MessageOptions,
        default_sender: String,
        codes: LinkCodes,
        wave: usize,
    ) -> Dispatcher {
        Dispatcher {
            store,
            carrier,
            clock,
            message,
            default_sender,
            codes,
            wave: wave.max(1),
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
        let marketing_open = next_allowed_send(PushType::Marketing, now) <= now;
        let done = std::mem::take(&mut *self.done.lock().unwrap_or_else(|e| e.into_inner()));
        let wave = match self.store.hand_off(done.clone(), self.wave, marketing_open, now).await {
            Ok(wave) => wave,
            Err(error) => {
                // Not stored: keep them for the next step.
                self.done.lock().unwrap_or_else(|e| e.into_inner()).extend(done);
                return Err(error);
            }
        };
        let outcomes = join_all(wave.iter().map(|queued| self.hand_over(queued))).await;
        let progress = Progress {
            handed: outcomes.iter().filter(|o| !matches!(o, HandOff::Retry { .. })).count(),
            retried: outcomes.iter().filter(|o| matches!(o, HandOff::Retry { .. })).count(),
        };
        let submitted = outcomes.iter().filter(|o| matches!(o, HandOff::Submitted { .. })).count();
        let connector = crate::metrics_endpoint::DEFAULT_CONNECTOR;
        metrics::counter!("texto_messages_handed_over_total", "connector" => connector).increment(submitted as u64);
        metrics::counter!("texto_messages_refused_total", "connector" => connector)
            .increment(outcomes.iter().filter(|o| matches!(o, HandOff::Failed { .. })).count() as u64);
        self.done.lock().unwrap_or_else(|e| e.into_inner()).extend(outcomes);
        Ok(progress)
    }

    /// Stores the outcomes still held (on shutdown), handing nothing more over.
    pub(crate) async fn flush(&self) -> Result<(), Error> {
        let done = std::mem::take(&mut *self.done.lock().unwrap_or_else(|e| e.into_inner()));
        if !done.is_empty() {
            self.store.hand_off(done, 0, false, self.clock.now()).await?;
        }
        Ok(())
    }

    /// The message as its recipient gets it.
    pub(crate) fn outgoing(&self, queued: &Queued) -> Outgoing {
        let campaign = &queued.campaign;
        let short_urls = self.codes.short_urls(&self.message, queued.id, &campaign.links);
        let info = queued.info.as_ref().map(|[a, b, c, d]| [a.as_str(), b.as_str(), c.as_str(), d.as_str()]);
        Outgoing {
            source: campaign.sender.clone().unwrap_or_else(|| self.default_sender.clone()),
            destination: queued.number.to_string(),
            text: render(&campaign.text, campaign.pushtype, &short_urls, &self.message, info.as_ref()),
            unicode: campaign.unicode,
            reference: (queued.id % 256) as u8,
        }
    }

    async fn hand_over(&self, queued: &Queued) -> HandOff {
        let id = queued.id;
        match self.carrier.submit(&self.outgoing(queued)).await {
            Submitted::Accepted { smsc_id } => HandOff::Submitted { id, smsc_id },
            Submitted::Failed { code, reason } => {
                tracing::info!(message = id, code = code.code(), %reason, "the SMSC refused a message");
                HandOff::Failed { id, code }
            }
            Submitted::Retry(reason) => {
                tracing::debug!(message = id, %reason, "a message waits to be handed over again");
                HandOff::Retry { id }
            }
        }
    }
}
