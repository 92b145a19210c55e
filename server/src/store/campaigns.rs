//! Campaigns: what the filter needs to know, and writing a campaign with its messages.

use std::collections::{HashMap, HashSet};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rustc_hash::{FxHashMap, FxHashSet};
use texto_core::{Campaign, Contact, Country, Credits, DeliveryCode, FloodLimits, RecentSends, Simulation};

use super::{AccountId, CampaignFilter, Created, IdempotencyKey, StoredAnswer, columns::Columns};
use crate::Error;

/// The account's side of the filter, for the numbers of one request.
#[derive(Debug, Default)]
pub(crate) struct FilterInputs {
    /// Blacklisted numbers among them.
    pub(crate) blacklist: FxHashSet<u64>,
    /// NPAI numbers among them.
    pub(crate) npai: FxHashSet<u64>,
    /// Their sends in the last hour.
    pub(crate) recent: FxHashMap<u64, RecentSends>,
    /// Messages sent this month per country.
    pub(crate) monthly_usage: HashMap<Country, u64>,
    /// Monthly caps per country.
    pub(crate) monthly_caps: HashMap<Country, u64>,
    /// Countries allowed (`None`: all).
    pub(crate) allowed_countries: Option<HashSet<Country>>,
    /// Credits before the campaign.
    pub(crate) balance: Credits,
    /// The account's anti-flood limits.
    pub(crate) flood: FloodLimits,
}

/// Where a campaign is in its life (docs/interface.md §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CampaignStatus {
    /// Waits for its sending time.
    Scheduled,
    /// Being handed to the carrier.
    Sending,
    /// Every message handed over.
    Sent,
    /// Cancelled before it started (and refunded).
    Cancelled,
}

impl CampaignStatus {
    /// The stored name.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CampaignStatus::Scheduled => "scheduled",
            CampaignStatus::Sending => "sending",
            CampaignStatus::Sent => "sent",
            CampaignStatus::Cancelled => "cancelled",
        }
    }

    /// From the stored name.
    pub(crate) fn parse(name: &str) -> Option<CampaignStatus> {
        [CampaignStatus::Scheduled, CampaignStatus::Sending, CampaignStatus::Sent, CampaignStatus::Cancelled]
            .into_iter()
            .find(|s| s.as_str() == name)
    }

    /// As shown on the wire (`Sent`).
    pub(crate) fn label(self) -> &'static str {
        match self {
            CampaignStatus::Scheduled => "Scheduled",
            CampaignStatus::Sending => "Sending",
            CampaignStatus::Sent => "Sent",
            CampaignStatus::Cancelled => "Cancelled",
        }
    }
}

/// A campaign to write: the validated campaign and its simulation.
pub(crate) struct NewCampaign<'a> {
    /// The validated request.
    pub(crate) campaign: &'a Campaign<'a>,
    /// The filter's result (one outcome per recipient).
    pub(crate) simulation: &'a Simulation,
    /// The client's ids, aligned with the outcomes (empty for list sends).
    pub(crate) gsmsmsids: Vec<Option<&'a str>>,
    /// Each message's merge values as JSON (its list entry's info1…info4, then its card's
    /// values), aligned with the outcomes (empty when no message has any; `None` for one
    /// without any).
    pub(crate) infos: Vec<Option<String>>,
    /// Hash of the text, for anti-flood.
    pub(crate) text_hash: i64,
    /// `Scheduled` when it waits, else `Sending`.
    pub(crate) status: CampaignStatus,
    /// Creation time.
    pub(crate) now: DateTime<Utc>,
    /// The request's idempotency key, if it came with one.
    pub(crate) idempotency: Option<IdempotencyKey>,
    /// The UTM tags its short links carry (the send's own or the account's).
    pub(crate) utm: Option<texto_core::Utm>,
    /// The account's template it started from, if the send named one.
    pub(crate) template: Option<i64>,
}

/// A stored campaign.
#[derive(Debug, Clone)]
pub(crate) struct CampaignRecord {
    /// The ticket.
    pub(crate) id: i64,
    /// Text as written.
    pub(crate) text: String,
    /// Sender, if any.
    pub(crate) sender: Option<String>,
    /// `alert` or `marketing`.
    pub(crate) pushtype: String,
    /// Where it is.
    pub(crate) status: CampaignStatus,
    /// When it goes (went) out.
    pub(crate) send_at: DateTime<Utc>,
    /// When it was created.
    pub(crate) created_at: DateTime<Utc>,
    /// Credits debited (0 after a refund).
    pub(crate) cost: Credits,
    /// Lists it went to.
    pub(crate) lists: Vec<String>,
    /// Recipients before filtering.
    pub(crate) total: i64,
    /// Messages after filtering.
    pub(crate) sent: i64,
    /// Messages per delivery code (docs/interface.md §6.2).
    pub(crate) deliveries: DeliveryCounts,
    /// Numbers filtered as NPAI.
    pub(crate) npai: i64,
    /// Numbers that replied with a stop word to this campaign's messages.
    pub(crate) stops: i64,
    /// Its short links with their clicks (read for one campaign with links, not for lists).
    pub(crate) short_links: Option<Vec<super::LinkClicks>>,
    /// Paused while sending: no new wave starts.
    pub(crate) paused: bool,
    /// Minutes the carrier keeps trying its messages, when the send said.
    pub(crate) validity: Option<i64>,
    /// The template it started from, when the send named one.
    pub(crate) template: Option<i64>,
    /// The journey whose step sent it.
    pub(crate) journey: Option<i64>,
}

/// Writing and reading campaigns.
#[async_trait]
pub(crate) trait CampaignStore: Send + Sync {
    /// The filter's inputs for `numbers` of `account` at `now`.
    async fn filter_inputs(
        &self,
        account: AccountId,
        numbers: &[u64],
        text_hash: i64,
        now: DateTime<Utc>,
    ) -> Result<FilterInputs, Error>;
    /// The contacts of the account's lists named in `ids` (unknown ids are left out).
    async fn list_contacts(&self, account: AccountId, ids: &[String]) -> Result<HashMap<String, Vec<Contact>>, Error>;
    /// Writes the campaign, one message per recipient that passed, and the debit, in one
    /// transaction. [`Error::NotEnoughCredits`] when the balance (read inside the transaction)
    /// does not cover it; then nothing is written. Returns the ticket and the balance after.
    async fn create_campaign(&self, account: AccountId, new: NewCampaign<'_>) -> Result<Created, Error>;
    /// The first answer to the account's request with `key` sent since `since`, if any.
    async fn idempotent_answer(
        &self,
        account: AccountId,
        key: &str,
        since: DateTime<Utc>,
    ) -> Result<Option<StoredAnswer>, Error>;
    /// Cancels a scheduled campaign and refunds it; `NotFound` if there is none to cancel.
    async fn cancel_campaign(&self, account: AccountId, ticket: i64) -> Result<CampaignRecord, Error>;
    /// Pauses or resumes the account's sending campaign `ticket` ([`super::Pausing`]).
    async fn pause_campaign(
        &self,
        account: AccountId,
        ticket: i64,
        pausing: super::Pausing,
        now: DateTime<Utc>,
    ) -> Result<CampaignRecord, Error>;
    /// The account's campaigns that `filter` keeps, in its order and window, and how many it
    /// keeps in all.
    async fn campaigns(&self, account: AccountId, filter: CampaignFilter) -> Result<(Vec<CampaignRecord>, i64), Error>;
    /// One campaign.
    async fn campaign(&self, account: AccountId, ticket: i64) -> Result<Option<CampaignRecord>, Error>;
}

/// How many of a campaign's messages have each delivery code.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct DeliveryCounts(HashMap<DeliveryCode, i64>);

impl DeliveryCounts {
    /// Adds `count` messages stored with the code numbered `code`; a number the interface does
    /// not define is logged and left out.
    pub(crate) fn add(&mut self, code: i64, count: i64) {
        match DeliveryCode::from_code(code) {
            Some(code) => *self.0.entry(code).or_default() += count,
            None => tracing::warn!(code, count, "messages stored with an unknown delivery code"),
        }
    }

    /// The messages with `code`.
    pub(crate) fn of(&self, code: DeliveryCode) -> i64 {
        self.0.get(&code).copied().unwrap_or(0)
    }

    /// The messages with any of `codes`.
    pub(crate) fn of_any(&self, codes: &[DeliveryCode]) -> i64 {
        codes.iter().map(|code| self.of(*code)).sum()
    }
}

/// A row of [`CAMPAIGN_COLUMNS`], its delivery counts still empty.
pub(super) fn stored_campaign<R: Columns>(row: &R) -> Result<CampaignRecord, R::Fault> {
    let status: String = row.column(3)?;
    Ok(CampaignRecord {
        id: row.column(0)?,
        text: row.column(1)?,
        sender: row.column(2)?,
        pushtype: row.column(11)?,
        status: CampaignStatus::parse(&status).unwrap_or(CampaignStatus::Sent),
        send_at: row.time(4)?,
        created_at: row.time(5)?,
        cost: Credits::from_hundredths(row.column(6)?),
        lists: serde_json::from_str(&row.column::<String>(7)?).unwrap_or_default(),
        total: row.column(8)?,
        sent: row.column(9)?,
        deliveries: DeliveryCounts::default(),
        npai: row.column(10)?,
        stops: 0,
        short_links: None,
        paused: row.column(12)?,
        validity: row.column(13)?,
        template: row.column(14)?,
        journey: row.column(15)?,
    })
}
