//! The live nodes: each `texto serve` on PostgreSQL registers a row and beats every second.
//! A node silent for [`DEAD_AFTER`] is dead: its claims (queued messages being handed over,
//! webhook lanes) are released for the others to take.

use std::time::Duration;

use chrono::{DateTime, Utc};
use deadpool_postgres::Pool;

use super::time;
use crate::Error;

/// How often a node beats.
const BEAT: Duration = Duration::from_secs(1);
/// How long a node may stay silent before it counts as dead.
pub(super) const DEAD_AFTER: chrono::Duration = chrono::Duration::seconds(10);

/// Registers a node; its id.
pub(super) async fn register(pool: &Pool, now: DateTime<Utc>) -> Result<i64, Error> {
    let at = time::store(now);
    let row = pool.get().await?.query_one("INSERT INTO nodes (started_at, heartbeat_at) VALUES ($1, $1) RETURNING id", &[&at]).await?;
    Ok(row.get(0))
}

/// Beats for `node` until the process ends or the pool is closed (a failed beat is logged
/// and tried again).
pub(super) async fn keep_alive(pool: Pool, node: i64) {
    loop {
        tokio::time::sleep(BEAT).await;
        if pool.is_closed() {
            return;
        }
        let beat = async {
            let client = pool.get().await?;
            client.execute("UPDATE nodes SET heartbeat_at = $1 WHERE id = $2", &[&time::store(Utc::now()), &node]).await?;
            Ok::<_, Error>(())
        };
        if let Err(error) = beat.await {
            tracing::warn!(%error, node, "the node's heartbeat could not be written");
        }
    }
}

/// The `WHERE` condition of a node id (`column`) that is not alive at `$n` (the stored time
/// [`DEAD_AFTER`] ago): no such node, or one silent since then.
pub(super) fn not_alive(column: &str, since_param: usize) -> String {
    format!("{column} NOT IN (SELECT id FROM nodes WHERE heartbeat_at >= ${since_param})")
}
