//! The outbox in SQLite, for the webhook sender.

use std::collections::HashSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::{SqliteStore, time};
use crate::{
    Error,
    store::{
        AccountId, Attempt, DueEvent, OutboxStore,
        outbox::{self, EVENT_COLUMNS, read_due_event},
    },
};

#[async_trait]
impl OutboxStore for SqliteStore {
    async fn due_webhooks(&self, now: DateTime<Utc>, active: Vec<i64>, limit: usize) -> Result<Vec<i64>, Error> {
        self.db
            .read(move |db| {
                // One statement whatever the number of running lanes: they are read too (hence
                // the larger limit) and left out here.
                let mut query = db.prepare_cached(
                    "SELECT w.id FROM webhooks w
                     JOIN outbox o ON o.id = (SELECT id FROM outbox WHERE webhook_id = w.id AND state = 'pending' ORDER BY id LIMIT 1)
                     WHERE w.status = 'live' AND o.next_at <= ? ORDER BY o.id LIMIT ?",
                )?;
                let running: HashSet<i64> = active.into_iter().collect();
                let due = query.query_map(params![time::store(now), (limit + running.len()) as i64], |row| row.get::<_, i64>(0))?;
                let mut webhooks = Vec::new();
                for webhook in due {
                    let webhook = webhook?;
                    if !running.contains(&webhook) && webhooks.len() < limit {
                        webhooks.push(webhook);
                    }
                }
                Ok(webhooks)
            })
            .await
    }

    async fn next_events(&self, webhook_id: i64, now: DateTime<Utc>, limit: usize) -> Result<Vec<DueEvent>, Error> {
        self.db
            .read(move |db| {
                let mut query = db.prepare_cached(&format!(
                    "SELECT {EVENT_COLUMNS}, o.next_at <= ? FROM outbox o JOIN webhooks w ON w.id = o.webhook_id
                     WHERE o.webhook_id = ? AND o.state = 'pending' AND w.status = 'live' ORDER BY o.id LIMIT ?"
                ))?;
                let mut events = Vec::new();
                let mut rows = query.query(params![time::store(now), webhook_id, limit as i64])?;
                while let Some(row) = rows.next()? {
                    if !row.get::<_, bool>(9)? {
                        break;
                    }
                    events.push(read_due_event(row)?);
                }
                Ok(events)
            })
            .await
    }

    async fn record_attempts(&self, attempts: Vec<Attempt>) -> Result<bool, Error> {
        self.db
            .write(move |db| {
                let mut live = true;
                for Attempt { event, result, next, at } in &attempts {
                    let (state, next_at, keep_schedule) = next.stored();
                    let moved = db
                        .prepare_cached("UPDATE outbox SET attempts = attempts + 1, state = coalesce(?, state), next_at = CASE WHEN ? THEN next_at ELSE ? END WHERE id = ?")?
                        .execute(params![state, keep_schedule, next_at, event.id])?;
                    if moved == 0 {
                        live = false;
                        continue;
                    }
                    db.prepare_cached(
                        "INSERT INTO webhook_deliveries (webhook_id, delivery_id, event, body, attempt, http_code, latency_ms, error, created_at, outbox_id)
                         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    )?
                    .execute(params![
                        event.webhook_id, event.delivery_id, event.event, event.body, event.attempts + 1, result.http_code, result.latency_ms, result.error,
                        time::store(*at), event.id
                    ])?;
                    let status: Option<String> = db
                        .prepare_cached("UPDATE webhooks SET last_http_code = ? WHERE id = ? RETURNING status")?
                        .query_row(params![result.http_code.unwrap_or(0), event.webhook_id], |row| row.get(0))
                        .optional()?;
                    live &= status.as_deref() == Some("live");
                }
                Ok(live)
            })
            .await
    }

    async fn event_of_attempt(
        &self,
        account: AccountId,
        webhook_id: i64,
        attempt_id: i64,
    ) -> Result<Option<DueEvent>, Error> {
        self.db
            .read(move |db| {
                Ok(db
                    .prepare_cached(&format!(
                        "SELECT {EVENT_COLUMNS} FROM webhook_deliveries d JOIN outbox o ON o.id = d.outbox_id JOIN webhooks w ON w.id = o.webhook_id
                         WHERE d.id = ? AND w.id = ? AND w.account_id = ?"
                    ))?
                    .query_row([attempt_id, webhook_id, account], |row| read_due_event(row))
                    .optional()?)
            })
            .await
    }

    async fn prune(&self, before: DateTime<Utc>, limit: usize) -> Result<u64, Error> {
        let before = time::store(before);
        self.db
            .write(move |db| {
                let mut gone = 0;
                for (oldest, delete) in outbox::OLDEST.iter().zip(outbox::DELETE_UP_TO) {
                    let rows: Vec<(i64, String)> = db
                        .prepare_cached(&oldest.replace("{limit}", "?"))?
                        .query_map([limit as i64], |row| Ok((row.get(0)?, row.get(1)?)))?
                        .collect::<Result<_, _>>()?;
                    if let Some(last) = outbox::last_to_prune(rows, &before) {
                        gone += db.prepare_cached(&delete.replace("{last}", "?"))?.execute([last])? as u64;
                    }
                }
                Ok(gone)
            })
            .await
    }
}
