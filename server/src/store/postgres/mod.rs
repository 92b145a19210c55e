//! The PostgreSQL implementation of the store, for several `texto serve` nodes on one
//! database: a pool of tokio-postgres connections, the same tables as SQLite, and claims that
//! let the nodes share the delivery work (see [`nodes`]).

mod ab_tests;
mod account_cache;
mod account_contacts;
mod accounts;
mod approval;
mod arrivals;
mod audit;
mod balance_alert;
mod campaign;
mod claims;
mod clicks;
mod consumption;
mod conversations;
mod conversions;
mod daily;
mod delivery;
mod drafts;
mod events;
mod flood_sync;
mod journey_plans;
mod journeys;
mod keyword_replies;
mod keywords;
mod list_upkeep;
mod lists;
mod messages;
mod migrate;
mod moderation;
mod nodes;
mod notification;
mod number_lists;
mod operators;
mod outbox;
mod plans;
mod report;
mod retention;
mod routing;
mod segments;
mod senders;
mod signups;
mod simulator;
mod sub_accounts;
mod team;
mod team_rules;
mod templates;
mod tokens;
mod webhooks;

use std::{sync::Arc, time::Duration as StdDuration};

use chrono::{DateTime, Duration, Utc};
use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::{IsolationLevel, NoTls, Row, types::ToSql};

use self::account_cache::AccountCache;
use super::{flood_window::FloodWindow, time};
use crate::Error;

/// Connections a node keeps open at most.
const POOL_SIZE: usize = 16;

/// PostgreSQL behind the [`super::Store`] traits.
#[derive(Clone)]
pub(crate) struct PgStore {
    pool: Pool,
    /// What this node keeps in memory of the database.
    memory: Arc<NodeMemory>,
    /// Whether other nodes send too (else this node's window holds every recent send).
    peers: Arc<nodes::Peers>,
    /// This node's row in `nodes`; 0 for the operator's commands, which claim nothing.
    node: i64,
    /// A serving node's group commit for small campaigns (the commands write theirs alone).
    batcher: Option<campaign::Batcher>,
}

impl PgStore {
    /// A store for the operator's commands, on a migrated database.
    pub(crate) async fn for_commands(url: &str) -> Result<PgStore, Error> {
        Ok(PgStore { pool: connect(url).await?, memory: Arc::default(), peers: Arc::default(), node: 0, batcher: None })
    }

    /// A store for a serving node: registered in `nodes` (its heartbeat kept by a task), with
    /// the anti-flood window filled from the last hour of messages.
    pub(crate) async fn for_serving(url: &str, now: DateTime<Utc>) -> Result<PgStore, Error> {
        let pool = connect(url).await?;
        let node = nodes::register(&pool).await?;
        let peers = Arc::new(nodes::Peers::default());
        tokio::spawn(nodes::keep_alive(url.to_owned(), pool.clone(), node, Arc::clone(&peers)));
        let flood = FloodWindow::default();
        // The window and the campaigns it holds are read in one snapshot.
        let mut client = pool.get().await?;
        let tx =
            client.build_transaction().isolation_level(IsolationLevel::RepeatableRead).read_only(true).start().await?;
        let rows = tx
            .query(
                // Account by account, on the index by account and time.
                "SELECT m.account_id, m.number, m.text_hash, m.created_at FROM accounts a
                 JOIN messages m ON m.account_id = a.id AND m.created_at >= $1",
                &[&time::store(now - Duration::hours(1))],
            )
            .await?;
        for row in rows {
            let number: i64 = row.get(1);
            flood.record(row.get(0), [number as u64], row.get(2), time::load(row.get(3)));
        }
        let synced = flood_sync::Synced::loaded(&tx).await?;
        tx.commit().await?;
        let memory = Arc::new(NodeMemory { flood, synced, accounts: AccountCache::default() });
        // The batcher writes on a connection of its own, never queued behind the requests' reads.
        let batcher = Some(campaign::Batcher::start(new_pool(url, 1)?, Arc::clone(&memory)));
        Ok(PgStore { pool, memory, peers, node, batcher })
    }
}

/// What a node keeps in memory of the database, shared by its requests and its campaign writer.
#[derive(Default)]
struct NodeMemory {
    /// The last hour of sends, for anti-flood.
    flood: FloodWindow,
    /// Which campaigns of each account the anti-flood window holds.
    synced: flood_sync::Synced,
    /// The sending accounts' copies.
    accounts: AccountCache,
}

#[cfg(test)]
impl PgStore {
    /// Runs `sql` as a test's set-up.
    pub(crate) async fn execute_batch(&self, sql: &str) -> Result<(), Error> {
        Ok(self.pool.get().await?.batch_execute(sql).await?)
    }

    /// This node's id.
    pub(crate) fn node(&self) -> i64 {
        self.node
    }

    /// Closes the pool: the node stops beating, as if it died.
    pub(crate) fn close(&self) {
        self.pool.close();
    }
}

/// A pool on `url`, with the schema brought up to date.
async fn connect(url: &str) -> Result<Pool, Error> {
    let pool = new_pool(url, POOL_SIZE)?;
    wait_until_reachable(&pool, &START_UP_WAITS).await?;
    migrate::run(&pool).await?;
    Ok(pool)
}

/// The waits between tries to reach PostgreSQL at start-up: 0.5 s doubling up to 8 s, about a
/// minute in all, so that a node started with (or just before) its database comes up with it.
const START_UP_WAITS: [StdDuration; 10] = [
    StdDuration::from_millis(500),
    StdDuration::from_secs(1),
    StdDuration::from_secs(2),
    StdDuration::from_secs(4),
    StdDuration::from_secs(8),
    StdDuration::from_secs(8),
    StdDuration::from_secs(8),
    StdDuration::from_secs(8),
    StdDuration::from_secs(8),
    StdDuration::from_secs(8),
];

/// Returns once a connection can be had, trying again after each of `waits` while the
/// database is unreachable (each try logged); any other error ends the wait at once.
async fn wait_until_reachable(pool: &Pool, waits: &[StdDuration]) -> Result<(), Error> {
    for (attempt, wait) in waits.iter().enumerate() {
        match pool.get().await.map_err(Error::from) {
            Ok(_) => return Ok(()),
            Err(Error::DatabaseDown(fault)) => {
                tracing::warn!(%fault, attempt = attempt + 1, retry_in = ?wait, "PostgreSQL is not reachable yet");
                tokio::time::sleep(*wait).await;
            }
            Err(other) => return Err(other),
        }
    }
    drop(pool.get().await?);
    Ok(())
}

/// Runs `sql`, prepared once per connection, with `params`.
pub(super) async fn query(
    db: &impl GenericClient,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Vec<Row>, Error> {
    let statement = db.prepare_cached(sql).await?;
    Ok(db.query(&statement, params).await?)
}

/// A pool of at most `size` connections on `url`.
fn new_pool(url: &str, size: usize) -> Result<Pool, Error> {
    let mut config: tokio_postgres::Config =
        url.parse().map_err(|e| Error::Command(format!("--db {url:?} is not a PostgreSQL URL: {e}")))?;
    // No JIT: the store's statements are short, and compiling one (which PostgreSQL does when
    // its estimate is large, as for a generic plan over big tables) takes far longer than
    // running it.
    let options = format!("{} -c jit=off", config.get_options().unwrap_or_default());
    config.options(options.trim());
    let manager = Manager::from_config(config, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
    Pool::builder(manager)
        .max_size(size)
        .wait_timeout(Some(StdDuration::from_secs(30)))
        .runtime(deadpool_postgres::Runtime::Tokio1)
        .build()
        .map_err(|e| Error::Command(format!("the PostgreSQL pool: {e}")))
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::{new_pool, wait_until_reachable};
    use crate::{Error, store::faults::DatabaseFault};

    #[tokio::test]
    async fn the_start_up_wait_tries_again_and_gives_up_unreachable() {
        let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a port").port();
        let pool = new_pool(&format!("postgres://texto@127.0.0.1:{port}/texto"), 1).expect("a pool");
        let started = Instant::now();
        let waited = wait_until_reachable(&pool, &[Duration::from_millis(100), Duration::from_millis(200)]).await;
        assert!(matches!(waited, Err(Error::DatabaseDown(DatabaseFault::Unreachable))), "{waited:?}");
        assert!(started.elapsed() >= Duration::from_millis(300), "both waits were taken");
    }
}
