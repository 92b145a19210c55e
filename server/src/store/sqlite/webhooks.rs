//! Webhooks and their request log in SQLite.

use async_trait::async_trait;
use sqlx::{QueryBuilder, Row, Sqlite, sqlite::SqliteRow};

use super::{SqliteStore, time};
use crate::{
    Error,
    store::{AccountId, DeliveryRecord, NewWebhook, Page, WebhookChange, WebhookRecord, WebhookStatus, WebhookStore, WebhookType},
};

const WEBHOOK_COLUMNS: &str = "SELECT id, type, url, secret, status, last_http_code FROM webhooks";

fn not_found(id: i64) -> Error {
    Error::NotFound(format!("webhook {id}"))
}

/// A webhook row; a type or status the schema's CHECK would refuse reads as a database error.
fn record(row: &SqliteRow) -> Result<WebhookRecord, Error> {
    let kind: &str = row.try_get(1)?;
    let status: &str = row.try_get(4)?;
    let corrupt = |what: &str, value: &str| Error::Database(sqlx::Error::Decode(format!("webhook {what} {value:?}").into()));
    Ok(WebhookRecord {
        id: row.try_get(0)?,
        kind: WebhookType::parse(kind).ok_or_else(|| corrupt("type", kind))?,
        url: row.try_get(2)?,
        secret: row.try_get(3)?,
        status: WebhookStatus::parse(status).ok_or_else(|| corrupt("status", status))?,
        last_http_code: row.try_get(5)?,
    })
}

#[async_trait]
impl WebhookStore for SqliteStore {
    async fn create_webhook(&self, account: AccountId, new: NewWebhook<'_>) -> Result<WebhookRecord, Error> {
        let row = sqlx::query(
            "INSERT INTO webhooks (account_id, type, url, secret) VALUES (?, ?, ?, ?)
             RETURNING id, type, url, secret, status, last_http_code",
        )
        .bind(account)
        .bind(new.kind.as_str())
        .bind(new.url)
        .bind(new.secret)
        .fetch_one(&self.write)
        .await?;
        record(&row)
    }

    async fn webhooks(&self, account: AccountId, page: Page) -> Result<(Vec<WebhookRecord>, i64), Error> {
        let page = page.clamped();
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM webhooks WHERE account_id = ?").bind(account).fetch_one(&self.read).await?;
        let rows = sqlx::query(&format!("{WEBHOOK_COLUMNS} WHERE account_id = ? ORDER BY id LIMIT ? OFFSET ?"))
            .bind(account)
            .bind(page.length)
            .bind(page.start)
            .fetch_all(&self.read)
            .await?;
        Ok((rows.iter().map(record).collect::<Result<_, _>>()?, total))
    }

    async fn update_webhook(&self, account: AccountId, id: i64, change: WebhookChange) -> Result<WebhookRecord, Error> {
        let mut update = QueryBuilder::<Sqlite>::new("UPDATE webhooks SET id = id");
        if let Some(kind) = change.kind {
            update.push(", type = ").push_bind(kind.as_str());
        }
        if let Some(url) = change.url {
            update.push(", url = ").push_bind(url);
        }
        if let Some(secret) = change.secret {
            update.push(", secret = ").push_bind(secret);
        }
        if let Some(status) = change.status {
            update.push(", status = ").push_bind(status.as_str());
        }
        update.push(" WHERE id = ").push_bind(id).push(" AND account_id = ").push_bind(account);
        update.push(" RETURNING id, type, url, secret, status, last_http_code");
        let row = update.build().fetch_optional(&self.write).await?.ok_or_else(|| not_found(id))?;
        record(&row)
    }

    async fn delete_webhook(&self, account: AccountId, id: i64) -> Result<(), Error> {
        // The log goes with it (ON DELETE CASCADE).
        let done = sqlx::query("DELETE FROM webhooks WHERE id = ? AND account_id = ?").bind(id).bind(account).execute(&self.write).await?;
        if done.rows_affected() == 0 {
            return Err(not_found(id));
        }
        Ok(())
    }

    async fn webhook_log(&self, account: AccountId, id: i64, page: Page) -> Result<(Vec<DeliveryRecord>, i64), Error> {
        let page = page.clamped();
        let mut tx = self.read.begin().await?;
        let total: Option<i64> = sqlx::query_scalar(
            "SELECT (SELECT COUNT(*) FROM webhook_deliveries WHERE webhook_id = webhooks.id) FROM webhooks WHERE id = ? AND account_id = ?",
        )
        .bind(id)
        .bind(account)
        .fetch_optional(&mut *tx)
        .await?;
        let total = total.ok_or_else(|| not_found(id))?;
        let rows = sqlx::query(
            "SELECT delivery_id, event, body, attempt, http_code, latency_ms, error, created_at FROM webhook_deliveries
             WHERE webhook_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
        )
        .bind(id)
        .bind(page.length)
        .bind(page.start)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        let entry = |row: &SqliteRow| -> Result<DeliveryRecord, sqlx::Error> {
            Ok(DeliveryRecord {
                delivery_id: row.try_get(0)?,
                event: row.try_get(1)?,
                body: row.try_get(2)?,
                attempt: row.try_get(3)?,
                http_code: row.try_get(4)?,
                latency_ms: row.try_get(5)?,
                error: row.try_get(6)?,
                at: time::load(row.try_get(7)?),
            })
        };
        Ok((rows.iter().map(entry).collect::<Result<_, _>>()?, total))
    }
}
