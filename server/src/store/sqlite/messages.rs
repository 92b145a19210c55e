//! Messages and replies one by one, in SQLite.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};
use texto_core::DeliveryCode;

use super::SqliteStore;
use crate::{
    Error,
    store::{
        AccountId, CampaignNumber, MessageFilter, MessageRecord, MessageStore, ReplyFilter, ReplyRecord,
        messages::{read_message, read_reply, read_stopped, read_undeliverable},
        time,
    },
};

/// The columns [`message`] reads, from `messages m JOIN campaigns c`.
pub(super) const MESSAGE_COLUMNS: &str = "m.id, m.campaign_id, m.gsmsmsid, m.number, m.country, m.cost, m.delivery, \
     m.created_at, m.delivered_at, m.info, c.text, c.sender, c.pushtype, c.links, c.variants,
     COALESCE(m.variant, c.ab_winner)";

/// The columns [`reply`] reads, from `replies r LEFT JOIN messages m`.
const REPLY_COLUMNS: &str = "r.id, m.campaign_id, r.number, r.text, r.received_at, m.info";

fn count(db: &Connection, sql: &str, values: &[crate::store::SqlValue]) -> Result<i64, Error> {
    Ok(db.prepare_cached(sql)?.query_row(params_from_iter(values), |row| row.get(0))?)
}

fn owns_campaign(db: &Connection, account: AccountId, campaign: i64) -> Result<bool, Error> {
    Ok(db
        .prepare_cached("SELECT 1 FROM campaigns WHERE id = ? AND account_id = ?")?
        .query_row([campaign, account], |_| Ok(()))
        .optional()?
        .is_some())
}

fn numbers(
    db: &Connection,
    sql: &str,
    campaign: i64,
    read: fn(&rusqlite::Row<'_>) -> rusqlite::Result<CampaignNumber>,
) -> Result<Vec<CampaignNumber>, Error> {
    Ok(db.prepare_cached(sql)?.query_map([campaign], read)?.collect::<Result<_, _>>()?)
}

#[async_trait]
impl MessageStore for SqliteStore {
    async fn messages(
        &self,
        account: AccountId,
        filter: MessageFilter,
    ) -> Result<(Vec<MessageRecord>, i64, i64), Error> {
        let page = filter.page.clamped();
        self.db
            .read(move |db| {
                // The counts and the page from one snapshot.
                let _snapshot = db.unchecked_transaction()?;
                let (conditions, needs_campaign) = filter.conditions(account);
                let period = filter.base(account);
                let total =
                    count(db, &format!("SELECT COUNT(*) FROM messages m WHERE {}", period.sqlite()), period.values())?;
                let join = if needs_campaign { "JOIN campaigns c ON c.id = m.campaign_id" } else { "" };
                let kept = if conditions.values().len() == period.values().len() {
                    total
                } else {
                    let sql = format!("SELECT COUNT(*) FROM messages m {join} WHERE {}", conditions.sqlite());
                    count(db, &sql, conditions.values())?
                };
                let order = filter.order.sql();
                let sql = format!(
                    "SELECT {MESSAGE_COLUMNS} FROM messages m JOIN campaigns c ON c.id = m.campaign_id WHERE {}
                     ORDER BY m.created_at {order}, m.id {order} LIMIT {} OFFSET {}",
                    conditions.sqlite(),
                    page.length,
                    page.start
                );
                let mut statement = db.prepare_cached(&sql)?;
                let rows = statement.query_map(params_from_iter(conditions.values()), |row| read_message(row))?;
                Ok((rows.collect::<Result<_, _>>()?, total, kept))
            })
            .await
    }

    async fn replies(&self, account: AccountId, filter: ReplyFilter) -> Result<(Vec<ReplyRecord>, i64), Error> {
        let page = filter.page.clamped();
        self.db
            .read(move |db| {
                // The count and the page from one snapshot.
                let _snapshot = db.unchecked_transaction()?;
                let conditions = filter.conditions(account);
                let total = count(
                    db,
                    &format!("SELECT COUNT(*) FROM replies r WHERE {}", conditions.sqlite()),
                    conditions.values(),
                )?;
                let order = filter.order.sql();
                let sql = format!(
                    "SELECT {REPLY_COLUMNS} FROM replies r LEFT JOIN messages m ON m.id = r.message_id WHERE {}
                     ORDER BY r.received_at {order}, r.id {order} LIMIT {} OFFSET {}",
                    conditions.sqlite(),
                    page.length,
                    page.start
                );
                let mut statement = db.prepare_cached(&sql)?;
                let rows = statement.query_map(params_from_iter(conditions.values()), |row| read_reply(row))?;
                Ok((rows.collect::<Result<_, _>>()?, total))
            })
            .await
    }

    async fn campaign_replies(&self, account: AccountId, campaign: i64) -> Result<Option<Vec<ReplyRecord>>, Error> {
        self.db
            .read(move |db| {
                if !owns_campaign(db, account, campaign)? {
                    return Ok(None);
                }
                let sql = format!(
                    "SELECT {REPLY_COLUMNS} FROM replies r JOIN messages m ON m.id = r.message_id
                     WHERE m.campaign_id = ? ORDER BY r.id"
                );
                let mut statement = db.prepare_cached(&sql)?;
                let rows = statement.query_map([campaign], |row| read_reply(row))?;
                Ok(Some(rows.collect::<Result<_, _>>()?))
            })
            .await
    }

    async fn campaign_stops(&self, account: AccountId, campaign: i64) -> Result<Option<Vec<CampaignNumber>>, Error> {
        self.db
            .read(move |db| {
                if !owns_campaign(db, account, campaign)? {
                    return Ok(None);
                }
                let sql = "SELECT id, number, info1, info2, info3, info4, created_at FROM blacklist
                           WHERE campaign_id = ? AND source = 'stop' ORDER BY id";
                Ok(Some(numbers(db, sql, campaign, |row| read_stopped(row))?))
            })
            .await
    }

    async fn campaign_npai(&self, account: AccountId, campaign: i64) -> Result<Option<Vec<CampaignNumber>>, Error> {
        self.db
            .read(move |db| {
                if !owns_campaign(db, account, campaign)? {
                    return Ok(None);
                }
                let sql = format!(
                    "SELECT id, number, info, COALESCE(delivered_at, created_at) FROM messages
                     WHERE campaign_id = ? AND delivery = {} AND number > 0 ORDER BY id",
                    DeliveryCode::InvalidDestination.code()
                );
                Ok(Some(numbers(db, &sql, campaign, |row| read_undeliverable(row))?))
            })
            .await
    }

    async fn blacklist_campaign_npai(
        &self,
        account: AccountId,
        campaign: i64,
        now: DateTime<Utc>,
    ) -> Result<Option<i64>, Error> {
        self.db
            .write(move |db| {
                if !owns_campaign(db, account, campaign)? {
                    return Ok(None);
                }
                let added = db.execute(
                    &format!(
                        "INSERT INTO blacklist (account_id, number, info1, info2, info3, info4, campaign_id, created_at, source)
                         SELECT ?, number, COALESCE(json_extract(info, '$[0]'), ''), COALESCE(json_extract(info, '$[1]'), ''),
                                COALESCE(json_extract(info, '$[2]'), ''), COALESCE(json_extract(info, '$[3]'), ''), ?, ?, 'api'
                         FROM messages WHERE campaign_id = ? AND delivery = {} AND number > 0
                         ON CONFLICT (account_id, number) DO NOTHING",
                        DeliveryCode::InvalidDestination.code()
                    ),
                    params![account, campaign, time::store(now), campaign],
                )?;
                Ok(Some(added as i64))
            })
            .await
    }
}
