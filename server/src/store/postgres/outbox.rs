//! The outbox in PostgreSQL, for the webhook senders of several nodes: a node takes a
//! webhook's lane with a lease (`webhooks.lane_node` until `lane_until`), renewed each time
//! the lane reads events and by each attempt it stores; a lane whose lease was lost stops, so
//! one webhook's events go out from one node at a time, in order. A lease lapses when its
//! lane has been idle for [`LEASE`] or its node is dead.

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use tokio_postgres::types::ToSql;

use super::{PgStore, nodes, time};
use crate::{
    Error,
    store::{
        AccountId, Attempt, DueEvent, OutboxStore,
        outbox::{self, EVENT_COLUMNS, read_due_event},
    },
};

/// How long a lane stays with its node after its last claim, read or attempt (longer than an
/// attempt's 10 s plus a wait for a place in the sender's pool).
const LEASE: Duration = Duration::seconds(60);

/// `pending(webhook_id)`: the webhooks with a pending event, found by skipping along
/// `outbox_pending` from one to the next (one index probe each, however many events).
const PENDING_WEBHOOKS: &str = "WITH RECURSIVE pending(webhook_id) AS (
         (SELECT webhook_id FROM outbox WHERE state = 'pending' ORDER BY webhook_id, id LIMIT 1)
         UNION ALL
         SELECT (SELECT o.webhook_id FROM outbox o WHERE o.state = 'pending' AND o.webhook_id > p.webhook_id
                 ORDER BY o.webhook_id, o.id LIMIT 1)
         FROM pending p WHERE p.webhook_id IS NOT NULL)";

#[async_trait]
impl OutboxStore for PgStore {
    async fn due_webhooks(&self, now: DateTime<Utc>, active: Vec<i64>, limit: usize) -> Result<Vec<i64>, Error> {
        let client = self.pool.get().await?;
        // Among the webhooks with a pending event only (a live webhook with none is never
        // due, and there may be many).
        let claim = client
            .prepare_cached(&format!(
                "{PENDING_WEBHOOKS}
                 UPDATE webhooks SET lane_node = $1, lane_until = $2 WHERE id IN (
                     SELECT w.id FROM pending p JOIN webhooks w ON w.id = p.webhook_id
                     JOIN LATERAL (SELECT id, next_at FROM outbox WHERE webhook_id = w.id AND state = 'pending' ORDER BY id LIMIT 1) o ON true
                     WHERE w.status = 'live' AND o.next_at <= $3 AND w.id <> ALL($4)
                       AND (w.lane_node IS NULL OR w.lane_node = $1 OR w.lane_until < $3 OR {})
                     ORDER BY o.id LIMIT $5
                     FOR NO KEY UPDATE OF w SKIP LOCKED)
                 RETURNING id",
                nodes::not_alive("w.lane_node")
            ))
            .await?;
        let at = time::store(now);
        let rows =
            client.query(&claim, &[&self.node, &time::store(now + LEASE), &at, &active, &(limit as i64)]).await?;
        Ok(rows.iter().map(|row| row.get(0)).collect())
    }

    async fn next_events(&self, webhook_id: i64, now: DateTime<Utc>, limit: usize) -> Result<Vec<DueEvent>, Error> {
        let client = self.pool.get().await?;
        let renew = client
            .prepare_cached(
                "UPDATE webhooks SET lane_until = $1 WHERE id = $2 AND lane_node = $3 AND status = 'live' RETURNING id",
            )
            .await?;
        if client.query_opt(&renew, &[&time::store(now + LEASE), &webhook_id, &self.node]).await?.is_none() {
            // Paused, deleted, or its lane lost to another node: this lane ends.
            return Ok(Vec::new());
        }
        let query = client
            .prepare_cached(&format!(
                "SELECT {EVENT_COLUMNS}, o.next_at <= $1 FROM outbox o JOIN webhooks w ON w.id = o.webhook_id
                 WHERE o.webhook_id = $2 AND o.state = 'pending' AND w.status = 'live' ORDER BY o.id LIMIT $3"
            ))
            .await?;
        let rows = client.query(&query, &[&time::store(now), &webhook_id, &(limit as i64)]).await?;
        Ok(rows.iter().take_while(|row| row.get::<_, bool>(9)).map(read_due_event).collect::<Result<_, _>>()?)
    }

    async fn record_attempts(&self, attempts: Vec<Attempt>) -> Result<bool, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // A lane's attempt moves only a pending event (another node's lane may have ended it);
        // a resend (which keeps the schedule) logs an attempt of an event in any state.
        let advance = tx
            .prepare_cached(
                "UPDATE outbox SET attempts = attempts + 1, state = coalesce($1, state), next_at = CASE WHEN $2 THEN next_at ELSE $3 END
                 WHERE id = $4 AND (state = 'pending' OR $2)",
            )
            .await?;
        let log = tx
            .prepare_cached(
                "INSERT INTO webhook_deliveries (webhook_id, delivery_id, event, body, attempt, http_code, latency_ms, error, created_at, outbox_id)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .await?;
        let last_code = tx
            .prepare_cached("UPDATE webhooks SET last_http_code = $1, lane_until = CASE WHEN lane_node = $4 THEN $3 ELSE lane_until END WHERE id = $2 RETURNING status")
            .await?;
        let mut live = true;
        for Attempt { event, result, next, at } in &attempts {
            let (state, next_at, keep_schedule) = next.stored();
            if tx.execute(&advance, &[&state, &keep_schedule, &next_at, &event.id]).await? == 0 {
                live = false;
                continue;
            }
            let params: [&(dyn ToSql + Sync); 10] = [
                &event.webhook_id,
                &event.delivery_id,
                &event.event,
                &event.body,
                &(event.attempts + 1),
                &result.http_code,
                &result.latency_ms,
                &result.error,
                &time::store(*at),
                &event.id,
            ];
            tx.execute(&log, &params).await?;
            let status: Option<String> = tx
                .query_opt(
                    &last_code,
                    &[&result.http_code.unwrap_or(0), &event.webhook_id, &time::store(*at + LEASE), &self.node],
                )
                .await?
                .map(|row| row.get(0));
            live &= status.as_deref() == Some("live");
        }
        tx.commit().await?;
        Ok(live)
    }

    async fn event_of_attempt(
        &self,
        account: AccountId,
        webhook_id: i64,
        attempt_id: i64,
    ) -> Result<Option<DueEvent>, Error> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                &format!(
                    "SELECT {EVENT_COLUMNS} FROM webhook_deliveries d JOIN outbox o ON o.id = d.outbox_id JOIN webhooks w ON w.id = o.webhook_id
                     WHERE d.id = $1 AND w.id = $2 AND w.account_id = $3"
                ),
                &[&attempt_id, &webhook_id, &account],
            )
            .await?;
        Ok(row.as_ref().map(read_due_event).transpose()?)
    }

    async fn prune(&self, before: DateTime<Utc>, limit: usize) -> Result<u64, Error> {
        let client = self.pool.get().await?;
        let before = time::store(before);
        let mut gone = 0;
        for (oldest, delete) in outbox::OLDEST.iter().zip(outbox::DELETE_UP_TO) {
            let oldest = client.prepare_cached(&oldest.replace("{limit}", "$1")).await?;
            let rows = client.query(&oldest, &[&(limit as i64)]).await?;
            if let Some(last) = outbox::last_to_prune(rows.iter().map(|row| (row.get(0), row.get(1))), &before) {
                gone += client.execute(&delete.replace("{last}", "$1"), &[&last]).await?;
            }
        }
        // Events raised for a webhook as it was being deleted (no key ties them to it).
        let orphans = client
            .prepare_cached(&format!(
                "{PENDING_WEBHOOKS}
                 DELETE FROM outbox o USING pending p
                 WHERE o.webhook_id = p.webhook_id AND o.state = 'pending' AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = p.webhook_id)"
            ))
            .await?;
        gone += client.execute(&orphans, &[]).await?;
        Ok(gone)
    }
}
