//! Delivery: handing queued messages to the carrier, and storing what comes back (receipts,
//! replies, clicks) with the events they raise, each in one transaction.

use std::{collections::HashMap, sync::Arc};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::{DeliveryCode, PushType};

use super::{
    columns::{Columns, StoredCode},
    effects::Finished,
};
use crate::Error;

/// What a campaign's messages are made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CampaignText {
    /// The ticket.
    pub(crate) id: i64,
    /// The sending account.
    pub(crate) account: super::AccountId,
    /// The text as written (with `<-short->`, `<-stop->`, `[infoN]`).
    pub(crate) text: String,
    /// Alert or marketing.
    pub(crate) pushtype: PushType,
    /// The sender, if the campaign names one.
    pub(crate) sender: Option<String>,
    /// Forced UCS-2.
    pub(crate) unicode: bool,
    /// The long URLs, one per `<-short->`.
    pub(crate) links: Vec<String>,
    /// How long the carrier keeps trying, when the send said.
    pub(crate) validity: Option<texto_core::Validity>,
    /// An A/B test's texts beside `text` (variants 1, 2, 3).
    pub(crate) variants: Vec<String>,
    /// While an A/B test's rest waits for its winner, the last message of its sample: no
    /// message after it is handed over.
    pub(crate) hold: Option<i64>,
    /// An A/B test's winner, the rest's text, once chosen.
    pub(crate) winner: Option<u8>,
    /// Its messages' runs by zone, when some recipients are overseas (none: all in Paris's
    /// window).
    pub(crate) zones: Vec<super::zones::ZoneRun>,
}

impl CampaignText {
    /// The text of a message with `variant` (0: the campaign's own; none: the A/B test's
    /// winner, or the campaign's own without a test).
    pub(crate) fn text_of(&self, variant: Option<u8>) -> &str {
        match variant.or(self.winner) {
            Some(v) if v > 0 => self.variants.get(usize::from(v) - 1).map_or(&self.text, |text| text),
            _ => &self.text,
        }
    }

    /// The id ranges (after, up to] of its messages that may be handed over while `open`
    /// windows are ([`super::zones::open_ranges`]).
    pub(crate) fn open_ranges(&self, open: texto_core::OpenWindows) -> Vec<super::zones::IdRange> {
        super::zones::open_ranges(self.pushtype, &self.zones, open, self.hold.unwrap_or(i64::MAX))
    }
}

/// The columns [`read_campaign_text`] reads, in order, after `SELECT`.
pub(super) const CAMPAIGN_TEXT_COLUMNS: &str =
    "id, text, pushtype, sender, unicode, links, account_id, validity, variants,
     CASE WHEN ab_winner IS NULL THEN ab_hold END, ab_winner, zones";

/// A message to hand over now.
#[derive(Debug, Clone)]
pub(crate) struct Queued {
    /// The message's id (also what its short-link codes derive from).
    pub(crate) id: i64,
    /// Its campaign.
    pub(crate) campaign: Arc<CampaignText>,
    /// The recipient.
    pub(crate) number: u64,
    /// Its merge values (its list entry's info1…info4, then its card's), if it has any.
    pub(crate) info: Option<Vec<String>>,
    /// Its A/B test's text, when it has one (0 is the campaign's own).
    pub(crate) variant: Option<u8>,
}

/// What became of one hand-over, to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum HandOff {
    /// Taken by the SMSC, with its id.
    Submitted {
        /// The message.
        id: i64,
        /// The SMSC's id of its last part.
        smsc_id: String,
    },
    /// Refused for good with this delivery code.
    Failed {
        /// The message.
        id: i64,
        /// Its final code.
        code: DeliveryCode,
    },
    /// To be handed over again.
    Retry {
        /// The message.
        id: i64,
    },
}

/// One thing the carrier delivered, to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Arrival {
    /// A final receipt.
    Receipt {
        /// The SMSC id it is about.
        smsc_id: String,
        /// Its delivery code (final).
        code: DeliveryCode,
    },
    /// A reply from a phone.
    Reply {
        /// The phone's number (international digits).
        from: String,
        /// The number it wrote to (the default short code, or another of the carrier's).
        to: String,
        /// Its text.
        text: String,
    },
}

/// A short link's target, found from its code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Click {
    /// The message the code was made for.
    pub(crate) message_id: i64,
    /// The position of the link in the campaign.
    pub(crate) link: usize,
    /// The phone's brand, model and OS, from its User-Agent.
    pub(crate) device: [String; 3],
    /// The short URL clicked.
    pub(crate) short_url: String,
}

/// An email or SMS of a balance alert, to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Notice {
    /// Its id.
    pub(crate) id: i64,
    /// `email` or `sms`.
    pub(crate) channel: String,
    /// The address or number.
    pub(crate) target: String,
    /// The text.
    pub(crate) body: String,
}

/// Storage for the delivery workers.
#[async_trait]
pub(crate) trait DeliveryStore: Send + Sync {
    /// Messages waiting to be handed over, the scheduled ones included (the metrics'
    /// `texto_queue_depth`).
    async fn queue_depth(&self) -> Result<i64, Error>;
    /// Webhook events waiting to be delivered (or retried), by account.
    async fn webhook_backlog(&self) -> Result<Vec<(super::AccountId, i64)>, Error>;
    /// Requests waiting for a database connection now (PostgreSQL's pool; 0 on SQLite, whose
    /// writes queue for its one writer instead).
    fn pool_waiting(&self) -> usize {
        0
    }
    /// After a restart: puts messages that were in flight without a stored SMSC id back in
    /// the queue; returns how many (each may reach its recipient twice).
    async fn requeue_in_flight(&self) -> Result<u64, Error>;
    /// Starts the scheduled campaigns whose time has come; returns how many.
    async fn release_due(&self, now: DateTime<Utc>) -> Result<usize, Error>;
    /// Stores `done`, then marks up to `limit` queued messages in flight and returns them:
    /// alerts first, marketing only to the zones whose window is `open`. Campaigns with
    /// nothing left to hand over become `sent`.
    async fn hand_off(
        &self,
        done: Vec<HandOff>,
        limit: WaveLimit,
        open: texto_core::OpenWindows,
        now: DateTime<Utc>,
    ) -> Result<Vec<Queued>, Error>;
    /// Stores receipts and replies with their effects and events (NPAI, blacklist, outbox).
    async fn store_arrivals(&self, arrivals: Vec<Arrival>, now: DateTime<Utc>) -> Result<(), Error>;
    /// The balance alerts' notices not sent yet, oldest first.
    async fn pending_notices(&self) -> Result<Vec<Notice>, Error>;
    /// Records that a notice went out (`error` `None`) or will not.
    async fn notice_done(&self, id: i64, error: Option<String>, now: DateTime<Utc>) -> Result<(), Error>;
    /// The key of the short-link codes, made at first start.
    async fn link_key(&self) -> Result<[u8; 32], Error>;
}

/// Messages waiting to be handed over (they have no delivery code yet; a partial index holds
/// them on both stores).
pub(crate) const QUEUE_DEPTH: &str = "SELECT COUNT(*) FROM messages WHERE delivery = 0";

/// The webhook events pending, by account (on the outbox's index of pending events).
pub(crate) const WEBHOOK_BACKLOG: &str = "SELECT w.account_id, COUNT(*) FROM outbox o
     JOIN webhooks w ON w.id = o.webhook_id WHERE o.state = 'pending' GROUP BY w.account_id";

/// How many messages the next wave may take: `total`, and at most `caps[account]` of an
/// account's (those with a throughput limit).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct WaveLimit {
    /// Messages in all.
    pub(crate) total: usize,
    /// Messages of these accounts.
    pub(crate) caps: HashMap<super::AccountId, usize>,
}

impl From<usize> for WaveLimit {
    /// `total` messages of any account.
    fn from(total: usize) -> WaveLimit {
        WaveLimit { total, caps: HashMap::new() }
    }
}

impl WaveLimit {
    /// How many more of `account`'s messages the wave may take.
    pub(crate) fn allowed(&self, account: super::AccountId) -> usize {
        self.caps.get(&account).copied().unwrap_or(usize::MAX)
    }

    /// What is left of this limit once the messages of `taken` (one account per message) are
    /// in the wave.
    pub(crate) fn after(&self, taken: impl IntoIterator<Item = super::AccountId>) -> WaveLimit {
        let mut left = self.clone();
        for account in taken {
            left.total = left.total.saturating_sub(1);
            left.take(account, 1);
        }
        left
    }

    /// Counts `taken` messages of `account` against its cap.
    pub(crate) fn take(&mut self, account: super::AccountId, taken: usize) {
        if let Some(cap) = self.caps.get_mut(&account) {
            *cap = cap.saturating_sub(taken);
        }
    }
}

/// One [`CampaignText`], read from a row.
pub(super) fn read_campaign_text<R: Columns>(row: &R) -> Result<CampaignText, R::Fault> {
    Ok(CampaignText {
        id: row.column(0)?,
        text: row.column(1)?,
        pushtype: if row.column::<String>(2)? == "marketing" { PushType::Marketing } else { PushType::Alert },
        sender: row.column(3)?,
        unicode: row.column(4)?,
        links: serde_json::from_str(&row.column::<String>(5)?).unwrap_or_default(),
        account: row.column(6)?,
        validity: row.column::<Option<i64>>(7)?.and_then(|minutes| texto_core::Validity::from_minutes(minutes).ok()),
        variants: row
            .column::<Option<String>>(8)?
            .and_then(|json| serde_json::from_str(&json).ok())
            .unwrap_or_default(),
        hold: row.column(9)?,
        winner: row.column::<Option<i64>>(10)?.and_then(|w| u8::try_from(w).ok()),
        zones: super::zones::parse(row.column::<Option<String>>(11)?.as_deref()),
    })
}

/// One [`Notice`], read from a row.
pub(super) fn read_notice<R: Columns>(row: &R) -> Result<Notice, R::Fault> {
    Ok(Notice { id: row.column(0)?, channel: row.column(1)?, target: row.column(2)?, body: row.column(3)? })
}

/// A message whose final code was just stored, from column `at` on: its campaign, account,
/// number, country, gsmsmsid and info, then the code.
pub(super) fn read_finished<R: Columns>(row: &R, at: usize) -> Result<Finished, R::Fault> {
    Ok(Finished {
        campaign: row.column(at)?,
        account: row.column(at + 1)?,
        number: row.column(at + 2)?,
        country: row.column(at + 3)?,
        gsmsmsid: row.column(at + 4)?,
        info: row.column(at + 5)?,
        code: row.column::<StoredCode>(at + 6)?.0,
    })
}
