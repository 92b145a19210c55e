//! The live nodes: each `texto serve` on PostgreSQL registers a row and beats every second,
//! on a connection of its own (a pool busy with large campaigns must not delay the beat).
//! Beats are written and judged with the database's clock, so nodes whose clocks disagree
//! still agree on who is alive. A node silent for 10 s is dead: its claims (queued messages
//! being handed over, webhook lanes, alert notices) are released for the others to take.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use deadpool_postgres::Pool;
use tokio_postgres::NoTls;

use crate::Error;

/// How often a node beats.
const BEAT: Duration = Duration::from_secs(1);

/// The database's time `ago` (an interval: `0 seconds`, `1 day`) before now, as SQL that
/// writes it the way `store::time` stores times.
fn db_time(ago: &str) -> String {
    format!(r#"to_char((clock_timestamp() - interval '{ago}') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')"#)
}

/// The `WHERE` condition of a node id (`column`) that is not alive: no such node, or one
/// silent for 10 s by the database's clock.
pub(super) fn not_alive(column: &str) -> String {
    format!("{column} NOT IN (SELECT id FROM nodes WHERE heartbeat_at >= {})", db_time("10 seconds"))
}

/// The statement that deletes the rows of nodes silent for a day.
pub(super) fn forget_long_dead() -> String {
    format!("DELETE FROM nodes WHERE heartbeat_at < {}", db_time("1 day"))
}

/// Registers a node; its id.
pub(super) async fn register(pool: &Pool) -> Result<i64, Error> {
    let now = db_time("0 seconds");
    let row = pool
        .get()
        .await?
        .query_one(&format!("INSERT INTO nodes (started_at, heartbeat_at) VALUES ({now}, {now}) RETURNING id"), &[])
        .await?;
    Ok(row.get(0))
}

/// Whether another node may have sent in the last hour (the anti-flood window) since this one
/// started; learnt at each beat. Until the first beat, it may.
#[derive(Debug)]
pub(super) struct Peers(AtomicBool);

impl Default for Peers {
    fn default() -> Peers {
        Peers(AtomicBool::new(true))
    }
}

impl Peers {
    /// Whether another node may have written campaigns that this node's window lacks.
    pub(super) fn any(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Beats for `node` on its own connection to `url` until the process ends or `pool` is
/// closed (a failed beat is logged, and the connection made again); keeps `peers` up to date.
pub(super) async fn keep_alive(url: String, pool: Pool, node: i64, peers: Arc<Peers>) {
    // A node that beat last before this one started wrote nothing its window lacks: the
    // window was loaded from the database after this node registered.
    let beat = format!(
        "WITH beat AS (UPDATE nodes SET heartbeat_at = {} WHERE id = $1)
         SELECT EXISTS (SELECT 1 FROM nodes other, nodes me WHERE me.id = $1 AND other.id <> $1
                        AND other.heartbeat_at >= me.started_at AND other.heartbeat_at >= {})",
        db_time("0 seconds"),
        db_time("1 hour")
    );
    let mut connection: Option<tokio_postgres::Client> = None;
    loop {
        tokio::time::sleep(BEAT).await;
        if pool.is_closed() {
            return;
        }
        if connection.as_ref().is_none_or(tokio_postgres::Client::is_closed) {
            connection = match tokio_postgres::connect(&url, NoTls).await {
                Ok((client, driver)) => {
                    tokio::spawn(driver);
                    Some(client)
                }
                Err(error) => {
                    tracing::warn!(%error, node, "the node's heartbeat could not connect");
                    continue;
                }
            };
        }
        let Some(client) = &connection else { continue };
        match client.query_one(&beat, &[&node]).await {
            Ok(row) => peers.0.store(row.get(0), Ordering::Relaxed),
            Err(error) => {
                tracing::warn!(%error, node, "the node's heartbeat could not be written");
                peers.0.store(true, Ordering::Relaxed);
                connection = None;
            }
        }
    }
}
