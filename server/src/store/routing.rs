//! Connectors, routes and the connectors' live status (migrations `0022_operator`
//! and PostgreSQL's `0019`). The operator's commands write them; every node reads them each
//! second ([`crate::delivery`]), so a change reaches a running texto without a restart.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use texto_core::PushType;

use super::{AccountId, time};
use crate::{
    Error,
    carrier::{SmppTarget, SmscUrl},
    operator::routing::{ConnectorName, Destination, Route},
};

/// A connector as the operator defined it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConnectorConfig {
    /// Its name (never `default`, which `--smsc` defines).
    pub(crate) name: ConnectorName,
    /// The SMSC and how to use it.
    pub(crate) target: SmppTarget,
    /// Whether texto binds to it.
    pub(crate) enabled: bool,
}

/// A route as stored, with the name of the account it is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RouteRecord {
    /// The route.
    pub(crate) route: Route,
    /// The name of `route.account`.
    pub(crate) account_name: Option<String>,
}

/// What one node sees of one connector, reported each second.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ConnectorStatus {
    /// The node: `local` on SQLite, `node N` on PostgreSQL.
    pub(crate) node: String,
    /// The connector.
    pub(crate) name: ConnectorName,
    /// Binds it should keep up.
    pub(crate) binds: u64,
    /// Binds up now.
    pub(crate) binds_up: u64,
    /// Submits waiting for their answer.
    pub(crate) in_flight: u64,
    /// Messages the SMSC took per second, over the last report's interval.
    pub(crate) per_second: f64,
    /// Messages the SMSC took since the node started.
    pub(crate) handed: u64,
    /// Submits refused or cut off since the node started.
    pub(crate) errors: u64,
    /// The last thing that went wrong (a refused bind, a dropped link, a refusal).
    pub(crate) last_error: Option<String>,
    /// Messages taken since the node started whose final receipt has not come.
    pub(crate) receipts_outstanding: u64,
    /// When it was reported.
    pub(crate) updated_at: DateTime<Utc>,
}

/// Where connectors, routes and their status live.
#[async_trait]
pub(crate) trait RoutingStore: Send + Sync {
    /// Every connector the operator defined, by name.
    async fn connectors(&self) -> Result<Vec<ConnectorConfig>, Error>;
    /// Creates the connector, or replaces the one of that name.
    async fn save_connector(&self, connector: &ConnectorConfig) -> Result<(), Error>;
    /// Enables or disables a connector; `false` when there is none of that name.
    async fn enable_connector(&self, name: &ConnectorName, enabled: bool) -> Result<bool, Error>;
    /// Deletes a connector; `false` when there is none of that name.
    async fn remove_connector(&self, name: &ConnectorName) -> Result<bool, Error>;
    /// Every route, in the order they are tried.
    async fn routes(&self) -> Result<Vec<RouteRecord>, Error>;
    /// Adds a route (its `id` is ignored); returns its id.
    async fn add_route(&self, route: &Route) -> Result<i64, Error>;
    /// Deletes a route; `false` when there is none of that id.
    async fn remove_route(&self, id: i64) -> Result<bool, Error>;
    /// Replaces this node's status rows by `statuses`.
    async fn report_connectors(&self, statuses: &[ConnectorStatus]) -> Result<(), Error>;
    /// Every node's status rows reported since `since`.
    async fn connector_statuses(&self, since: DateTime<Utc>) -> Result<Vec<ConnectorStatus>, Error>;
    /// Adds what this node handed to each connector (`handed`) to the minute `at` falls in, and
    /// forgets minutes over two hours old.
    async fn record_traffic(&self, at: DateTime<Utc>, handed: &[(ConnectorName, u64)]) -> Result<(), Error>;
    /// Messages handed to each connector per minute since `since`, all nodes together:
    /// (minute as stored, connector, messages), by minute then connector.
    async fn traffic(&self, since: DateTime<Utc>) -> Result<Vec<(String, String, i64)>, Error>;
    /// The accounts with a throughput limit, and their messages a second.
    async fn account_limits(&self) -> Result<Vec<(AccountId, i64)>, Error>;
    /// Sets (or, with `None`, removes) an account's throughput limit.
    async fn set_account_limit(&self, account: AccountId, per_second: Option<i64>) -> Result<(), Error>;
}

/// Adds to a minute's count (`$1` minute, `$2` node, `$3` connector, `$4` messages).
pub(crate) const ADD_TRAFFIC: &str =
    "INSERT INTO connector_traffic (minute, node, name, handed) VALUES ($1, $2, $3, $4)
     ON CONFLICT (minute, node, name) DO UPDATE SET handed = connector_traffic.handed + excluded.handed";
/// Forgets the minutes before `$1`.
pub(crate) const PRUNE_TRAFFIC: &str = "DELETE FROM connector_traffic WHERE minute < $1";
/// The minutes since `$1`, all nodes together.
pub(crate) const TRAFFIC: &str =
    "SELECT minute, name, CAST(SUM(handed) AS BIGINT) FROM connector_traffic WHERE minute >= $1
     GROUP BY minute, name ORDER BY minute, name";

/// The stored minute `at` falls in, and the first minute kept at `at` (two hours before).
pub(crate) fn traffic_minutes(at: DateTime<Utc>) -> (String, String) {
    let minute = at.timestamp() - at.timestamp().rem_euclid(60);
    let stored = |seconds: i64| time::store(DateTime::from_timestamp(seconds, 0).unwrap_or_default());
    (stored(minute), stored(minute - 2 * 3600))
}

/// The accounts with a throughput limit, and the suspended ones (and their sub-accounts) at 0:
/// their messages wait.
pub(crate) const ACCOUNT_LIMITS: &str =
    "SELECT a.id, CASE WHEN a.suspended_at IS NOT NULL OR p.suspended_at IS NOT NULL THEN 0 ELSE a.per_second END
     FROM accounts a LEFT JOIN accounts p ON p.id = a.parent_id
     WHERE a.per_second IS NOT NULL OR a.suspended_at IS NOT NULL OR p.suspended_at IS NOT NULL";
/// Sets an account's limit (`$1` account, `$2` messages a second or NULL).
pub(crate) const SET_ACCOUNT_LIMIT: &str = "UPDATE accounts SET per_second = $2 WHERE id = $1";

/// Every connector.
pub(crate) const CONNECTORS: &str = "SELECT name, url, enabled FROM connectors ORDER BY name";
/// Creates or replaces a connector (`$1` name, `$2` URL, `$3` enabled, `$4` now).
pub(crate) const SAVE_CONNECTOR: &str =
    "INSERT INTO connectors (name, url, enabled, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (name) DO UPDATE SET url = excluded.url, enabled = excluded.enabled, updated_at = excluded.updated_at";
/// Enables or disables one (`$1` name, `$2` enabled, `$3` now).
pub(crate) const ENABLE_CONNECTOR: &str = "UPDATE connectors SET enabled = $2, updated_at = $3 WHERE name = $1";
/// Deletes one (`$1` name).
pub(crate) const REMOVE_CONNECTOR: &str = "DELETE FROM connectors WHERE name = $1";
/// Every route with its account's name, in the order they are tried.
pub(crate) const ROUTES: &str =
    "SELECT r.id, r.priority, r.destination, r.account_id, r.pushtype, r.connectors, a.name, r.plan FROM routes r
     LEFT JOIN accounts a ON a.id = r.account_id ORDER BY r.priority DESC, r.id";
/// Adds a route (`$1` priority, `$2` destination, `$3` account, `$4` push type, `$5` connectors,
/// `$6` now, `$7` plan).
pub(crate) const ADD_ROUTE: &str = "INSERT INTO routes (priority, destination, account_id, pushtype, connectors, created_at, plan) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id";
/// Deletes a route (`$1` id).
pub(crate) const REMOVE_ROUTE: &str = "DELETE FROM routes WHERE id = $1";
/// Deletes a node's status rows (`$1` node).
pub(crate) const CLEAR_STATUS: &str = "DELETE FROM connector_status WHERE node = $1";
/// Stores one status row.
pub(crate) const REPORT_STATUS: &str = "INSERT INTO connector_status
     (node, name, binds, binds_up, in_flight, per_second, handed, errors, last_error, receipts_outstanding, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";
/// The status rows reported since `$1`.
pub(crate) const STATUSES: &str =
    "SELECT node, name, binds, binds_up, in_flight, per_second, handed, errors, last_error,
     receipts_outstanding, updated_at FROM connector_status WHERE updated_at >= $1 ORDER BY name, node";

/// The connectors read back that can run. A row that no longer parses (a `ca=` path written by
/// an older texto, where `ca=` now names a file in `--ca-dir`) is left out and logged, so that
/// one such connector stops alone rather than every connector of every node with it.
pub(crate) fn runnable_connectors<'a>(rows: impl Iterator<Item = (&'a str, &'a str, bool)>) -> Vec<ConnectorConfig> {
    rows.filter_map(|(name, url, enabled)| match connector_from_columns(name, url, enabled) {
        Ok(connector) => Some(connector),
        Err(error) => {
            tracing::error!(%error, "a stored connector cannot run: save it again (texto connector add)");
            None
        }
    })
    .collect()
}

/// A connector read back: its URL must be an `smpp://` one.
fn connector_from_columns(name: &str, url: &str, enabled: bool) -> Result<ConnectorConfig, Error> {
    let bad = |why: String| Error::Stored(format!("connector {name:?}: {why}"));
    let name = name.parse().map_err(bad)?;
    match url.parse::<SmscUrl>().map_err(bad)? {
        SmscUrl::Smpp(target) => Ok(ConnectorConfig { name, target, enabled }),
        SmscUrl::Builtin(_) => Err(bad("builtin is not a connector URL".into())),
    }
}

/// The columns of a route but its id: priority, destination, account, push type, connectors.
pub(crate) fn route_columns(route: &Route) -> (i64, Option<String>, Option<AccountId>, Option<&'static str>, String) {
    (
        route.priority,
        route.destination.as_ref().map(Destination::to_column),
        route.account,
        route.pushtype.map(PushType::as_str),
        route.connectors.iter().map(ConnectorName::as_str).collect::<Vec<_>>().join(","),
    )
}

/// The columns of [`ROUTES`]: id, priority, destination, account, push type, connectors,
/// the account's name and the plan.
pub(crate) type RouteColumns =
    (i64, i64, Option<String>, Option<AccountId>, Option<String>, String, Option<String>, Option<String>);

/// A route read back from the columns of [`ROUTES`].
pub(crate) fn route_from_columns(
    (id, priority, destination, account, pushtype, connectors, account_name, plan): RouteColumns,
) -> Result<RouteRecord, Error> {
    let bad = |why: String| Error::Stored(format!("route {id}: {why}"));
    let route = Route {
        id,
        priority,
        destination: destination.as_deref().map(Destination::from_column).transpose().map_err(bad)?,
        account,
        pushtype: pushtype
            .as_deref()
            .map(|p| PushType::parse(p).ok_or_else(|| bad(format!("push type {p:?}"))))
            .transpose()?,
        plan,
        connectors: connectors.split(',').map(str::parse).collect::<Result<_, _>>().map_err(bad)?,
    };
    Ok(RouteRecord { route, account_name })
}

/// The stored form of a report time, and its reading.
pub(crate) fn status_time(at: DateTime<Utc>) -> String {
    time::store(at)
}
