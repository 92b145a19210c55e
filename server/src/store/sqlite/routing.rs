//! Connectors, routes and their status in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::params;

use super::{SqliteStore, numbered};
use crate::{
    Error,
    operator::routing::ConnectorName,
    store::{
        AccountId,
        routing::{
            ACCOUNT_LIMITS, ADD_ROUTE, ADD_TRAFFIC, CLEAR_STATUS, CONNECTORS, ConnectorConfig, ConnectorStatus,
            ENABLE_CONNECTOR, PRUNE_TRAFFIC, REMOVE_CONNECTOR, REMOVE_ROUTE, REPORT_STATUS, ROUTES, RouteRecord,
            RoutingStore, SAVE_CONNECTOR, SET_ACCOUNT_LIMIT, STATUSES, TRAFFIC, route_columns, route_from_columns,
            runnable_connectors, status_time, traffic_minutes,
        },
        time,
    },
};

/// The one node an SQLite database serves.
const NODE: &str = "local";

#[async_trait]
impl RoutingStore for SqliteStore {
    async fn connectors(&self) -> Result<Vec<ConnectorConfig>, Error> {
        self.db
            .read(|db| {
                let mut statement = db.prepare_cached(CONNECTORS)?;
                let rows = statement
                    .query_map([], |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, row.get(2)?)))?
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(runnable_connectors(rows.iter().map(|(name, url, enabled)| (name.as_str(), url.as_str(), *enabled))))
            })
            .await
    }

    async fn save_connector(&self, connector: &ConnectorConfig) -> Result<(), Error> {
        let (name, url, enabled) = (connector.name.to_string(), connector.target.url(), connector.enabled);
        let now = time::store(Utc::now());
        self.db
            .write(move |db| {
                db.prepare_cached(&numbered(SAVE_CONNECTOR))?.execute(params![name, url, enabled, now])?;
                Ok(())
            })
            .await
    }

    async fn enable_connector(&self, name: &ConnectorName, enabled: bool) -> Result<bool, Error> {
        let (name, now) = (name.to_string(), time::store(Utc::now()));
        self.db
            .write(move |db| {
                Ok(db.prepare_cached(&numbered(ENABLE_CONNECTOR))?.execute(params![name, enabled, now])? > 0)
            })
            .await
    }

    async fn remove_connector(&self, name: &ConnectorName) -> Result<bool, Error> {
        let name = name.to_string();
        self.db.write(move |db| Ok(db.prepare_cached(&numbered(REMOVE_CONNECTOR))?.execute([name])? > 0)).await
    }

    async fn routes(&self) -> Result<Vec<RouteRecord>, Error> {
        self.db
            .read(|db| {
                let mut statement = db.prepare_cached(ROUTES)?;
                let rows = statement
                    .query_map([], |row| {
                        let first = (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?);
                        Ok((first.0, first.1, first.2, first.3, row.get(4)?, row.get(5)?, row.get(6)?, row.get(7)?))
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                rows.into_iter().map(route_from_columns).collect()
            })
            .await
    }

    async fn add_route(&self, route: &crate::operator::routing::Route) -> Result<i64, Error> {
        let (priority, destination, account, pushtype, connectors) = route_columns(route);
        let (now, plan) = (time::store(Utc::now()), route.plan.clone());
        self.db
            .write(move |db| {
                Ok(db
                    .prepare_cached(&numbered(ADD_ROUTE))?
                    .query_row(params![priority, destination, account, pushtype, connectors, now, plan], |row| {
                        row.get(0)
                    })?)
            })
            .await
    }

    async fn remove_route(&self, id: i64) -> Result<bool, Error> {
        self.db.write(move |db| Ok(db.prepare_cached(&numbered(REMOVE_ROUTE))?.execute([id])? > 0)).await
    }

    async fn report_connectors(&self, statuses: &[ConnectorStatus]) -> Result<(), Error> {
        let statuses = statuses.to_vec();
        self.db
            .write(move |db| {
                db.prepare_cached(&numbered(CLEAR_STATUS))?.execute([NODE])?;
                let mut insert = db.prepare_cached(&numbered(REPORT_STATUS))?;
                for s in statuses {
                    insert.execute(params![
                        NODE,
                        s.name.as_str(),
                        s.binds as i64,
                        s.binds_up as i64,
                        s.in_flight as i64,
                        s.per_second,
                        s.handed as i64,
                        s.errors as i64,
                        s.last_error,
                        s.receipts_outstanding as i64,
                        status_time(s.updated_at),
                    ])?;
                }
                Ok(())
            })
            .await
    }

    async fn record_traffic(&self, at: DateTime<Utc>, handed: &[(ConnectorName, u64)]) -> Result<(), Error> {
        let (minute, oldest) = traffic_minutes(at);
        let handed: Vec<(String, i64)> = handed.iter().map(|(name, n)| (name.to_string(), *n as i64)).collect();
        self.db
            .write(move |db| {
                let mut add = db.prepare_cached(&numbered(ADD_TRAFFIC))?;
                for (name, count) in handed.iter().filter(|(_, n)| *n > 0) {
                    add.execute(params![minute, NODE, name, count])?;
                }
                db.prepare_cached(&numbered(PRUNE_TRAFFIC))?.execute([oldest])?;
                Ok(())
            })
            .await
    }

    async fn traffic(&self, since: DateTime<Utc>) -> Result<Vec<(String, String, i64)>, Error> {
        let since = traffic_minutes(since).0;
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(TRAFFIC))?;
                let rows = statement.query_map([since], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn account_limits(&self) -> Result<Vec<(AccountId, i64)>, Error> {
        self.db
            .read(|db| {
                let mut statement = db.prepare_cached(ACCOUNT_LIMITS)?;
                let rows = statement.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn set_account_limit(&self, account: AccountId, per_second: Option<i64>) -> Result<(), Error> {
        self.db
            .write(move |db| {
                db.prepare_cached(&numbered(SET_ACCOUNT_LIMIT))?.execute(params![account, per_second])?;
                Ok(())
            })
            .await
    }

    async fn connector_statuses(&self, since: DateTime<Utc>) -> Result<Vec<ConnectorStatus>, Error> {
        let since = status_time(since);
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(STATUSES))?;
                let rows = statement.query_map([since], |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, String>(1)?,
                        [row.get::<_, i64>(2)?, row.get(3)?, row.get(4)?],
                        row.get::<_, f64>(5)?,
                        [row.get::<_, i64>(6)?, row.get(7)?],
                        row.get::<_, Option<String>>(8)?,
                        row.get::<_, i64>(9)?,
                        row.get::<_, String>(10)?,
                    ))
                })?;
                let mut statuses = Vec::new();
                for row in rows {
                    let (
                        node,
                        name,
                        [binds, binds_up, in_flight],
                        per_second,
                        [handed, errors],
                        last_error,
                        outstanding,
                        at,
                    ) = row?;
                    statuses.push(ConnectorStatus {
                        node,
                        name: name.parse().map_err(Error::Stored)?,
                        binds: binds as u64,
                        binds_up: binds_up as u64,
                        in_flight: in_flight as u64,
                        per_second,
                        handed: handed as u64,
                        errors: errors as u64,
                        last_error,
                        receipts_outstanding: outstanding as u64,
                        updated_at: time::load(&at),
                    });
                }
                Ok(statuses)
            })
            .await
    }
}
