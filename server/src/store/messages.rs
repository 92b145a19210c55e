//! Messages and replies one by one: `GET /messages`, `GET /messages/mo` and what one campaign
//! caused (its replies, STOPs and NPAI). The filters become SQL here, once for both stores.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::{Country, Credits, DeliveryCode, PushType};

use super::{
    AccountId, Page, SortOrder,
    columns::{Columns, StoredCode},
    conditions::{Conditions, SqlValue, contains_pattern},
    time,
};
use crate::Error;

/// Which messages `GET /messages` lists: those accepted in a period (or of one campaign),
/// narrowed by the rest.
#[derive(Debug, Clone, Default)]
pub(crate) struct MessageFilter {
    /// The window of the answer.
    pub(crate) page: Page,
    /// Accepted at or after this time.
    pub(crate) from: Option<DateTime<Utc>>,
    /// Accepted at or before this time.
    pub(crate) until: Option<DateTime<Utc>>,
    /// Of this campaign (texto's addition, for a campaign's Messages table and export).
    pub(crate) campaign: Option<i64>,
    /// Sent to this number.
    pub(crate) destination: Option<u64>,
    /// With this text in the campaign's message, whatever the case.
    pub(crate) text: Option<String>,
    /// Alert or marketing.
    pub(crate) pushtype: Option<PushType>,
    /// To numbers of this country.
    pub(crate) country: Option<Country>,
    /// With this delivery code.
    pub(crate) status: Option<DeliveryCode>,
    /// Oldest or newest first.
    pub(crate) order: SortOrder,
}

impl MessageFilter {
    /// The conditions on `messages m` of the period and campaign: what `totalRecords` counts.
    pub(crate) fn base(&self, account: AccountId) -> Conditions {
        let mut conditions = Conditions::default();
        conditions.require("m.account_id = ?", [SqlValue::Int(account)]);
        if let Some(from) = self.from {
            conditions.require("m.created_at >= ?", [SqlValue::Text(time::store(from))]);
        }
        if let Some(until) = self.until {
            conditions.require("m.created_at <= ?", [SqlValue::Text(time::store(until))]);
        }
        if let Some(campaign) = self.campaign {
            conditions.require("m.campaign_id = ?", [SqlValue::Int(campaign)]);
        }
        conditions
    }

    /// The conditions on `messages m JOIN campaigns c` of the whole filter, and whether they
    /// need the campaign.
    pub(crate) fn conditions(&self, account: AccountId) -> (Conditions, bool) {
        let mut conditions = self.base(account);
        if let Some(number) = self.destination {
            conditions.require("m.number = ?", [SqlValue::Int(number as i64)]);
        }
        if let Some(country) = self.country {
            conditions.require("m.country = ?", [SqlValue::Text(country.iso2().to_owned())]);
        }
        if let Some(code) = self.status {
            conditions.require("m.delivery = ?", [SqlValue::Int(code.code())]);
        }
        let mut needs_campaign = false;
        if let Some(pushtype) = self.pushtype {
            conditions.require("c.pushtype = ?", [SqlValue::Text(pushtype.as_str().to_owned())]);
            needs_campaign = true;
        }
        if let Some(text) = self.text.as_deref().filter(|t| !t.is_empty()) {
            conditions.require("lower(c.text) LIKE ? ESCAPE '\\'", [contains_pattern(text)]);
            needs_campaign = true;
        }
        (conditions, needs_campaign)
    }
}

/// The replies asked for: those received in a period.
#[derive(Debug, Clone)]
pub(crate) struct ReplyFilter {
    /// The window of the answer.
    pub(crate) page: Page,
    /// Received at or after this time.
    pub(crate) from: DateTime<Utc>,
    /// Received at or before this time.
    pub(crate) until: DateTime<Utc>,
    /// Oldest or newest first.
    pub(crate) order: SortOrder,
    /// Only the replies from this number.
    pub(crate) number: Option<i64>,
}

impl ReplyFilter {
    /// The conditions on `replies r`.
    pub(crate) fn conditions(&self, account: AccountId) -> Conditions {
        let mut conditions = Conditions::default();
        conditions.require("r.account_id = ?", [SqlValue::Int(account)]);
        conditions.require("r.received_at >= ?", [SqlValue::Text(time::store(self.from))]);
        conditions.require("r.received_at <= ?", [SqlValue::Text(time::store(self.until))]);
        if let Some(number) = self.number {
            conditions.require("r.number = ?", [SqlValue::Int(number)]);
        }
        conditions
    }
}

/// One message sent, with what its campaign says of it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MessageRecord {
    /// Its id.
    pub(crate) id: i64,
    /// Its campaign.
    pub(crate) campaign: i64,
    /// The client's own id of it.
    pub(crate) gsmsmsid: Option<String>,
    /// The number; `None` once masked by the retention period.
    pub(crate) number: Option<u64>,
    /// The number's country (ISO 3166).
    pub(crate) country: String,
    /// What it cost.
    pub(crate) cost: Credits,
    /// What became of it.
    pub(crate) delivery: DeliveryCode,
    /// When texto accepted it.
    pub(crate) created_at: DateTime<Utc>,
    /// When its final code came.
    pub(crate) delivered_at: Option<DateTime<Utc>>,
    /// Its merge values (its list entry's four fields, then its card's), when it has any.
    pub(crate) info: Option<Vec<String>>,
    /// The campaign's text (empty once masked).
    pub(crate) text: String,
    /// The campaign's sender.
    pub(crate) sender: Option<String>,
    /// The campaign's push type.
    pub(crate) pushtype: PushType,
    /// The campaign's long URLs, for its short links.
    pub(crate) links: Vec<String>,
}

/// A reply received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReplyRecord {
    /// Its id.
    pub(crate) id: i64,
    /// The campaign of the message it answers, if known.
    pub(crate) campaign: Option<i64>,
    /// The number; `None` once masked.
    pub(crate) number: Option<u64>,
    /// Its text.
    pub(crate) text: String,
    /// When it arrived.
    pub(crate) received_at: DateTime<Utc>,
    /// The contact's fields of the message it answers.
    pub(crate) info: Option<[String; 4]>,
}

/// A number one of the account's campaigns put on a list (a STOP, an NPAI).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CampaignNumber {
    /// The list entry's id, or the message's for NPAI numbers.
    pub(crate) id: i64,
    /// The number.
    pub(crate) number: u64,
    /// Its four fields.
    pub(crate) info: [String; 4],
    /// When it happened.
    pub(crate) at: DateTime<Utc>,
}

/// A stored number, or `None` for one the retention period masked (stored as 0).
pub(crate) fn unmasked(number: i64) -> Option<u64> {
    (number > 0).then_some(number as u64)
}

/// A message's merge values, from their stored JSON: its list entry's four fields, then the
/// values of the card fields its text names.
pub(crate) fn values_from_column(column: Option<&str>) -> Option<Vec<String>> {
    column.and_then(|json| serde_json::from_str(json).ok())
}

/// The four fields of a message (its list entry's), from their stored JSON.
pub(crate) fn info_from_column(column: Option<&str>) -> Option<[String; 4]> {
    values_from_column(column).map(|values| std::array::from_fn(|i| values.get(i).cloned().unwrap_or_default()))
}

/// Messages and replies, read one by one.
#[async_trait]
pub(crate) trait MessageStore: Send + Sync {
    /// The page of messages `filter` keeps, with how many the period holds and how many the
    /// filter keeps.
    async fn messages(
        &self,
        account: AccountId,
        filter: MessageFilter,
    ) -> Result<(Vec<MessageRecord>, i64, i64), Error>;
    /// The page of replies received in the period, and how many there are.
    async fn replies(&self, account: AccountId, filter: ReplyFilter) -> Result<(Vec<ReplyRecord>, i64), Error>;
    /// The replies to the messages of the account's campaign, oldest first; `None` when it
    /// has no such campaign.
    async fn campaign_replies(&self, account: AccountId, campaign: i64) -> Result<Option<Vec<ReplyRecord>>, Error>;
    /// The numbers that opted out by replying to the campaign, oldest first.
    async fn campaign_stops(&self, account: AccountId, campaign: i64) -> Result<Option<Vec<CampaignNumber>>, Error>;
    /// The numbers of the campaign the carrier found unknown.
    async fn campaign_npai(&self, account: AccountId, campaign: i64) -> Result<Option<Vec<CampaignNumber>>, Error>;
    /// Puts the campaign's NPAI numbers on the blacklist at `now`; how many were added (those
    /// already there are left as they are).
    async fn blacklist_campaign_npai(
        &self,
        account: AccountId,
        campaign: i64,
        now: DateTime<Utc>,
    ) -> Result<Option<i64>, Error>;
}

pub(super) fn read_message<R: Columns>(row: &R) -> Result<MessageRecord, R::Fault> {
    Ok(MessageRecord {
        id: row.column(0)?,
        campaign: row.column(1)?,
        gsmsmsid: row.column(2)?,
        number: unmasked(row.column(3)?),
        country: row.column(4)?,
        cost: Credits::from_hundredths(row.column(5)?),
        delivery: row.column::<StoredCode>(6)?.0,
        created_at: row.time(7)?,
        delivered_at: row.maybe_time(8)?,
        info: values_from_column(row.column::<Option<String>>(9)?.as_deref()),
        text: text_sent(row.column(10)?, row.column(14)?, row.column(15)?),
        sender: row.column(11)?,
        pushtype: PushType::parse(&row.column::<String>(12)?).unwrap_or(PushType::Alert),
        links: serde_json::from_str(&row.column::<String>(13)?).unwrap_or_default(),
    })
}

/// The text a message got: its A/B test's (`variant` of `variants`, its own or the winner's),
/// else its campaign's `text`.
fn text_sent(text: String, variants: Option<String>, variant: Option<i64>) -> String {
    let chosen = variant.filter(|v| *v > 0).and_then(|v| usize::try_from(v - 1).ok());
    let variants = chosen.and_then(|_| serde_json::from_str::<Vec<String>>(variants.as_deref()?).ok());
    match (chosen, variants) {
        (Some(i), Some(mut variants)) if i < variants.len() => variants.swap_remove(i),
        _ => text,
    }
}

pub(super) fn read_reply<R: Columns>(row: &R) -> Result<ReplyRecord, R::Fault> {
    Ok(ReplyRecord {
        id: row.column(0)?,
        campaign: row.column(1)?,
        number: unmasked(row.column(2)?),
        text: row.column(3)?,
        received_at: row.time(4)?,
        info: info_from_column(row.column::<Option<String>>(5)?.as_deref()),
    })
}

/// A number that stopped a campaign: its blacklist entry's id, number, the four infos and when.
pub(super) fn read_stopped<R: Columns>(row: &R) -> Result<CampaignNumber, R::Fault> {
    Ok(CampaignNumber {
        id: row.column(0)?,
        number: row.column::<i64>(1)? as u64,
        info: [row.column(2)?, row.column(3)?, row.column(4)?, row.column(5)?],
        at: row.time(6)?,
    })
}

/// A number of a campaign found undeliverable: its message's id, number, infos (JSON) and when.
pub(super) fn read_undeliverable<R: Columns>(row: &R) -> Result<CampaignNumber, R::Fault> {
    Ok(CampaignNumber {
        id: row.column(0)?,
        number: row.column::<i64>(1)? as u64,
        info: info_from_column(row.column::<Option<String>>(2)?.as_deref()).unwrap_or_default(),
        at: row.time(3)?,
    })
}
