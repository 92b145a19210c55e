//! Webhooks and their request log in PostgreSQL.

use std::error::Error as StdError;

use async_trait::async_trait;
use tokio_postgres::{
    IsolationLevel,
    types::{FromSql, ToSql, Type},
};

use super::PgStore;
use crate::{
    Error,
    store::{
        AccountId, DeliveryRecord, NewWebhook, Page, WebhookChange, WebhookRecord, WebhookStatus, WebhookStore,
        WebhookType,
        webhooks::{WEBHOOK_FIELDS, read_delivery, read_webhook},
    },
};

fn not_found(id: i64) -> Error {
    Error::NotFound(format!("webhook {id}"))
}

/// A type or status the schema's CHECK would refuse reads as a database error.
fn stored_name<T>(ty: &Type, raw: &[u8], parse: fn(&str) -> Option<T>) -> Result<T, Box<dyn StdError + Sync + Send>> {
    let name = <&str as FromSql>::from_sql(ty, raw)?;
    parse(name).ok_or_else(|| format!("unknown webhook type or status {name:?}").into())
}

impl<'a> FromSql<'a> for WebhookType {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<WebhookType, Box<dyn StdError + Sync + Send>> {
        stored_name(ty, raw, WebhookType::parse)
    }

    fn accepts(ty: &Type) -> bool {
        <&str as FromSql>::accepts(ty)
    }
}

impl<'a> FromSql<'a> for WebhookStatus {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<WebhookStatus, Box<dyn StdError + Sync + Send>> {
        stored_name(ty, raw, WebhookStatus::parse)
    }

    fn accepts(ty: &Type) -> bool {
        <&str as FromSql>::accepts(ty)
    }
}

#[async_trait]
impl WebhookStore for PgStore {
    async fn create_webhook(&self, account: AccountId, new: NewWebhook<'_>) -> Result<WebhookRecord, Error> {
        let client = self.pool.get().await?;
        let row = client
            .query_one(
                &format!("INSERT INTO webhooks (account_id, type, url, secret) VALUES ($1, $2, $3, $4) RETURNING {WEBHOOK_FIELDS}"),
                &[&account, &new.kind.as_str(), &new.url, &new.secret],
            )
            .await?;
        Ok(read_webhook(&row)?)
    }

    async fn webhooks(&self, account: AccountId, page: Page) -> Result<(Vec<WebhookRecord>, i64), Error> {
        let page = page.clamped();
        let client = self.pool.get().await?;
        let total: i64 =
            client.query_one("SELECT COUNT(*) FROM webhooks WHERE account_id = $1", &[&account]).await?.get(0);
        let query = client
            .prepare_cached(&format!(
                "SELECT {WEBHOOK_FIELDS} FROM webhooks WHERE account_id = $1 ORDER BY id LIMIT $2 OFFSET $3"
            ))
            .await?;
        let webhooks = client
            .query(&query, &[&account, &page.length, &page.start])
            .await?
            .iter()
            .map(read_webhook)
            .collect::<Result<_, _>>()?;
        Ok((webhooks, total))
    }

    async fn update_webhook(&self, account: AccountId, id: i64, change: WebhookChange) -> Result<WebhookRecord, Error> {
        let mut sql = String::from("UPDATE webhooks SET id = id");
        let mut values: Vec<Box<dyn ToSql + Sync + Send>> = Vec::new();
        let mut set = |column: &str, value: Box<dyn ToSql + Sync + Send>| {
            values.push(value);
            sql.push_str(&format!(", {column} = ${}", values.len()));
        };
        if let Some(kind) = change.kind {
            set("type", Box::new(kind.as_str()));
        }
        if let Some(url) = change.url {
            set("url", Box::new(url));
        }
        if let Some(secret) = change.secret {
            set("secret", Box::new(secret));
        }
        if let Some(status) = change.status {
            set("status", Box::new(status.as_str()));
        }
        sql.push_str(&format!(
            " WHERE id = ${} AND account_id = ${} RETURNING {WEBHOOK_FIELDS}",
            values.len() + 1,
            values.len() + 2
        ));
        values.extend([Box::new(id) as Box<dyn ToSql + Sync + Send>, Box::new(account)]);
        let params: Vec<&(dyn ToSql + Sync)> =
            values.iter().map(|value| value.as_ref() as &(dyn ToSql + Sync)).collect();
        let client = self.pool.get().await?;
        let row = client.query_opt(&sql, &params).await?.ok_or_else(|| not_found(id))?;
        Ok(read_webhook(&row)?)
    }

    async fn delete_webhook(&self, account: AccountId, id: i64) -> Result<(), Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // The log goes with it (ON DELETE CASCADE); its events, which no key ties to it, too.
        if tx.execute("DELETE FROM webhooks WHERE id = $1 AND account_id = $2", &[&id, &account]).await? == 0 {
            return Err(not_found(id));
        }
        tx.execute("DELETE FROM outbox WHERE webhook_id = $1", &[&id]).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn webhook_log(&self, account: AccountId, id: i64, page: Page) -> Result<(Vec<DeliveryRecord>, i64), Error> {
        let page = page.clamped();
        let mut client = self.pool.get().await?;
        // One snapshot: the count and the page agree while senders keep logging attempts.
        let tx =
            client.build_transaction().isolation_level(IsolationLevel::RepeatableRead).read_only(true).start().await?;
        let total: i64 = tx
            .query_opt(
                "SELECT (SELECT COUNT(*) FROM webhook_deliveries WHERE webhook_id = webhooks.id) FROM webhooks WHERE id = $1 AND account_id = $2",
                &[&id, &account],
            )
            .await?
            .ok_or_else(|| not_found(id))?
            .get(0);
        let query = tx
            .prepare_cached(
                "SELECT d.delivery_id, d.event, d.body, d.attempt, d.http_code, d.latency_ms, d.error, d.created_at, d.id, o.state
                 FROM webhook_deliveries d LEFT JOIN outbox o ON o.id = d.outbox_id
                 WHERE d.webhook_id = $1 ORDER BY d.id DESC LIMIT $2 OFFSET $3",
            )
            .await?;
        let entries = tx
            .query(&query, &[&id, &page.length, &page.start])
            .await?
            .iter()
            .map(read_delivery)
            .collect::<Result<_, _>>()?;
        tx.commit().await?;
        Ok((entries, total))
    }
}
