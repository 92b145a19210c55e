//! Messages and replies one by one, in PostgreSQL.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use deadpool_postgres::GenericClient;
use futures_util::future::try_join;
use texto_core::DeliveryCode;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId, CampaignNumber, MessageFilter, MessageRecord, MessageStore, ReplyFilter, ReplyRecord, SqlValue,
        messages::{read_message, read_reply, read_stopped, read_undeliverable},
        time,
    },
};

/// The columns [`message`] reads, from `messages m JOIN campaigns c`.
const MESSAGE_COLUMNS: &str = "m.id, m.campaign_id, m.gsmsmsid, m.number, m.country, m.cost, m.delivery, \
     m.created_at, m.delivered_at, m.info, c.text, c.sender, c.pushtype, c.links, c.variants,
     COALESCE(m.variant, c.ab_winner)";

/// The columns [`reply`] reads, from `replies r LEFT JOIN messages m`.
const REPLY_COLUMNS: &str = "r.id, m.campaign_id, r.number, r.text, r.received_at, m.info";

fn values(values: &[SqlValue]) -> Vec<&(dyn tokio_postgres::types::ToSql + Sync)> {
    values.iter().map(SqlValue::as_postgres).collect()
}

async fn count(db: &impl GenericClient, sql: &str, params: &[SqlValue]) -> Result<i64, Error> {
    Ok(query(db, sql, &values(params)).await?.first().map_or(0, |row| row.get(0)))
}

async fn owns_campaign(db: &impl GenericClient, account: AccountId, campaign: i64) -> Result<bool, Error> {
    Ok(!query(db, "SELECT 1 FROM campaigns WHERE id = $1 AND account_id = $2", &[&campaign, &account])
        .await?
        .is_empty())
}

#[async_trait]
impl MessageStore for PgStore {
    async fn messages(
        &self,
        account: AccountId,
        filter: MessageFilter,
    ) -> Result<(Vec<MessageRecord>, i64, i64), Error> {
        let page = filter.page.clamped();
        let client = self.pool.get().await?;
        let (conditions, needs_campaign) = filter.conditions(account);
        let period = filter.base(account);
        let order = filter.order.sql();
        let sql = format!(
            "SELECT {MESSAGE_COLUMNS} FROM messages m JOIN campaigns c ON c.id = m.campaign_id WHERE {}
             ORDER BY m.created_at {order}, m.id {order} LIMIT {} OFFSET {}",
            conditions.postgres(1),
            page.length,
            page.start
        );
        let params = values(conditions.values());
        let (total, rows) = try_join(
            count(&client, &format!("SELECT COUNT(*) FROM messages m WHERE {}", period.postgres(1)), period.values()),
            query(&client, &sql, &params),
        )
        .await?;
        let kept = if conditions.values().len() == period.values().len() {
            total
        } else {
            let join = if needs_campaign { "JOIN campaigns c ON c.id = m.campaign_id" } else { "" };
            let sql = format!("SELECT COUNT(*) FROM messages m {join} WHERE {}", conditions.postgres(1));
            count(&client, &sql, conditions.values()).await?
        };
        Ok((rows.iter().map(read_message).collect::<Result<_, _>>()?, total, kept))
    }

    async fn replies(&self, account: AccountId, filter: ReplyFilter) -> Result<(Vec<ReplyRecord>, i64), Error> {
        let page = filter.page.clamped();
        let client = self.pool.get().await?;
        let conditions = filter.conditions(account);
        let order = filter.order.sql();
        let sql = format!(
            "SELECT {REPLY_COLUMNS} FROM replies r LEFT JOIN messages m ON m.id = r.message_id WHERE {}
             ORDER BY r.received_at {order}, r.id {order} LIMIT {} OFFSET {}",
            conditions.postgres(1),
            page.length,
            page.start
        );
        let params = values(conditions.values());
        let (total, rows) = try_join(
            count(
                &client,
                &format!("SELECT COUNT(*) FROM replies r WHERE {}", conditions.postgres(1)),
                conditions.values(),
            ),
            query(&client, &sql, &params),
        )
        .await?;
        Ok((rows.iter().map(read_reply).collect::<Result<_, _>>()?, total))
    }

    async fn campaign_replies(&self, account: AccountId, campaign: i64) -> Result<Option<Vec<ReplyRecord>>, Error> {
        let client = self.pool.get().await?;
        if !owns_campaign(&client, account, campaign).await? {
            return Ok(None);
        }
        let sql = format!(
            "SELECT {REPLY_COLUMNS} FROM replies r JOIN messages m ON m.id = r.message_id WHERE m.campaign_id = $1 ORDER BY r.id"
        );
        Ok(Some(query(&client, &sql, &[&campaign]).await?.iter().map(read_reply).collect::<Result<_, _>>()?))
    }

    async fn campaign_stops(&self, account: AccountId, campaign: i64) -> Result<Option<Vec<CampaignNumber>>, Error> {
        let client = self.pool.get().await?;
        if !owns_campaign(&client, account, campaign).await? {
            return Ok(None);
        }
        let rows = query(
            &client,
            "SELECT id, number, info1, info2, info3, info4, created_at FROM blacklist
             WHERE campaign_id = $1 AND source = 'stop' ORDER BY id",
            &[&campaign],
        )
        .await?;
        Ok(Some(rows.iter().map(read_stopped).collect::<Result<_, _>>()?))
    }

    async fn campaign_npai(&self, account: AccountId, campaign: i64) -> Result<Option<Vec<CampaignNumber>>, Error> {
        let client = self.pool.get().await?;
        if !owns_campaign(&client, account, campaign).await? {
            return Ok(None);
        }
        let sql = format!(
            "SELECT id, number, info, COALESCE(delivered_at, created_at) FROM messages
             WHERE campaign_id = $1 AND delivery = {} AND number > 0 ORDER BY id",
            DeliveryCode::InvalidDestination.code()
        );
        Ok(Some(query(&client, &sql, &[&campaign]).await?.iter().map(read_undeliverable).collect::<Result<_, _>>()?))
    }

    async fn blacklist_campaign_npai(
        &self,
        account: AccountId,
        campaign: i64,
        now: DateTime<Utc>,
    ) -> Result<Option<i64>, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        if !owns_campaign(&tx, account, campaign).await? {
            return Ok(None);
        }
        let sql = format!(
            "INSERT INTO blacklist (account_id, number, info1, info2, info3, info4, campaign_id, created_at, source)
             SELECT $1, number, COALESCE(info::json->>0, ''), COALESCE(info::json->>1, ''), COALESCE(info::json->>2, ''),
                    COALESCE(info::json->>3, ''), $2, $3, 'api'
             FROM messages WHERE campaign_id = $2 AND delivery = {} AND number > 0
             ON CONFLICT (account_id, number) DO NOTHING",
            DeliveryCode::InvalidDestination.code()
        );
        let added = tx.execute(&sql, &[&account, &campaign, &time::store(now)]).await?;
        super::accounts::changed(&tx, account).await?;
        tx.commit().await?;
        Ok(Some(added as i64))
    }
}
