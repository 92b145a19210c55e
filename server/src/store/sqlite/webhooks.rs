//! Webhooks and their request log in SQLite.

use async_trait::async_trait;
use rusqlite::{
    OptionalExtension, params, params_from_iter,
    types::{FromSql, FromSqlError, FromSqlResult, Value, ValueRef},
};

use super::SqliteStore;
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
fn stored_name<T>(value: ValueRef<'_>, parse: fn(&str) -> Option<T>) -> FromSqlResult<T> {
    let name = value.as_str()?;
    parse(name).ok_or_else(|| FromSqlError::Other(format!("unknown webhook type or status {name:?}").into()))
}

impl FromSql for WebhookType {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<WebhookType> {
        stored_name(value, WebhookType::parse)
    }
}

impl FromSql for WebhookStatus {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<WebhookStatus> {
        stored_name(value, WebhookStatus::parse)
    }
}

#[async_trait]
impl WebhookStore for SqliteStore {
    async fn create_webhook(&self, account: AccountId, new: NewWebhook<'_>) -> Result<WebhookRecord, Error> {
        let (kind, url, secret) = (new.kind.as_str(), new.url.to_owned(), new.secret.map(str::to_owned));
        self.db
            .write(move |db| {
                Ok(db.query_row(
                    &format!("INSERT INTO webhooks (account_id, type, url, secret) VALUES (?, ?, ?, ?) RETURNING {WEBHOOK_FIELDS}"),
                    params![account, kind, url, secret],
                    |row| read_webhook(row),
                )?)
            })
            .await
    }

    async fn webhooks(&self, account: AccountId, page: Page) -> Result<(Vec<WebhookRecord>, i64), Error> {
        let page = page.clamped();
        self.db
            .read(move |db| {
                let total: i64 =
                    db.query_row("SELECT COUNT(*) FROM webhooks WHERE account_id = ?", [account], |row| row.get(0))?;
                let mut query = db.prepare_cached(&format!(
                    "SELECT {WEBHOOK_FIELDS} FROM webhooks WHERE account_id = ? ORDER BY id LIMIT ? OFFSET ?"
                ))?;
                let webhooks = query
                    .query_map([account, page.length, page.start], |row| read_webhook(row))?
                    .collect::<Result<_, _>>()?;
                Ok((webhooks, total))
            })
            .await
    }

    async fn update_webhook(&self, account: AccountId, id: i64, change: WebhookChange) -> Result<WebhookRecord, Error> {
        let mut sql = String::from("UPDATE webhooks SET id = id");
        let mut values = Vec::new();
        let mut set = |column: &str, value: Value| {
            sql.push_str(&format!(", {column} = ?"));
            values.push(value);
        };
        if let Some(kind) = change.kind {
            set("type", Value::Text(kind.as_str().to_owned()));
        }
        if let Some(url) = change.url {
            set("url", Value::Text(url));
        }
        if let Some(secret) = change.secret {
            set("secret", secret.map_or(Value::Null, Value::Text));
        }
        if let Some(status) = change.status {
            set("status", Value::Text(status.as_str().to_owned()));
        }
        sql.push_str(&format!(" WHERE id = ? AND account_id = ? RETURNING {WEBHOOK_FIELDS}"));
        values.extend([Value::Integer(id), Value::Integer(account)]);
        self.db
            .write(move |db| {
                db.query_row(&sql, params_from_iter(values), |row| read_webhook(row))
                    .optional()?
                    .ok_or_else(|| not_found(id))
            })
            .await
    }

    async fn delete_webhook(&self, account: AccountId, id: i64) -> Result<(), Error> {
        self.db
            .write(move |db| {
                // The log goes with it (ON DELETE CASCADE).
                match db.execute("DELETE FROM webhooks WHERE id = ? AND account_id = ?", [id, account])? {
                    0 => Err(not_found(id)),
                    _ => Ok(()),
                }
            })
            .await
    }

    async fn webhook_log(&self, account: AccountId, id: i64, page: Page) -> Result<(Vec<DeliveryRecord>, i64), Error> {
        let page = page.clamped();
        self.db
            .read(move |db| {
                let db = db.unchecked_transaction()?;
                let total: i64 = db
                    .query_row(
                        "SELECT (SELECT COUNT(*) FROM webhook_deliveries WHERE webhook_id = webhooks.id) FROM webhooks WHERE id = ? AND account_id = ?",
                        [id, account],
                        |row| row.get(0),
                    )
                    .optional()?
                    .ok_or_else(|| not_found(id))?;
                let mut query = db.prepare_cached(
                    "SELECT d.delivery_id, d.event, d.body, d.attempt, d.http_code, d.latency_ms, d.error, d.created_at, d.id, o.state
                     FROM webhook_deliveries d LEFT JOIN outbox o ON o.id = d.outbox_id
                     WHERE d.webhook_id = ? ORDER BY d.id DESC LIMIT ? OFFSET ?",
                )?;
                let entries = query
                    .query_map([id, page.length, page.start], |row| read_delivery(row))?
                    .collect::<Result<_, _>>()?;
                Ok((entries, total))
            })
            .await
    }
}
