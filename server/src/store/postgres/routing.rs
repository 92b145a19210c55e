//! Connectors, routes and their status in PostgreSQL (the statements shared with SQLite).

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{PgStore, query};
use crate::{
    Error,
    operator::routing::{ConnectorName, Route},
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

impl PgStore {
    /// This node's name in the status rows.
    fn node_label(&self) -> String {
        format!("node {}", self.node)
    }
}

#[async_trait]
impl RoutingStore for PgStore {
    async fn connectors(&self) -> Result<Vec<ConnectorConfig>, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, CONNECTORS, &[]).await?;
        Ok(runnable_connectors(rows.iter().map(|row| (row.get(0), row.get(1), row.get(2)))))
    }

    async fn save_connector(&self, connector: &ConnectorConfig) -> Result<(), Error> {
        let (name, url, now) = (connector.name.as_str(), connector.target.url(), time::store(Utc::now()));
        let client = self.pool.get().await?;
        query(&client, SAVE_CONNECTOR, &[&name, &url, &connector.enabled, &now]).await?;
        Ok(())
    }

    async fn enable_connector(&self, name: &ConnectorName, enabled: bool) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(ENABLE_CONNECTOR).await?;
        Ok(client.execute(&statement, &[&name.as_str(), &enabled, &time::store(Utc::now())]).await? > 0)
    }

    async fn remove_connector(&self, name: &ConnectorName) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        Ok(client.execute(REMOVE_CONNECTOR, &[&name.as_str()]).await? > 0)
    }

    async fn routes(&self) -> Result<Vec<RouteRecord>, Error> {
        let client = self.pool.get().await?;
        query(&client, ROUTES, &[])
            .await?
            .iter()
            .map(|row| {
                let first = (row.get(0), row.get(1), row.get(2), row.get(3));
                route_from_columns((first.0, first.1, first.2, first.3, row.get(4), row.get(5), row.get(6), row.get(7)))
            })
            .collect()
    }

    async fn add_route(&self, route: &Route) -> Result<i64, Error> {
        let (priority, destination, account, pushtype, connectors) = route_columns(route);
        let client = self.pool.get().await?;
        let now = time::store(Utc::now());
        let rows =
            query(&client, ADD_ROUTE, &[&priority, &destination, &account, &pushtype, &connectors, &now, &route.plan])
                .await?;
        Ok(rows.first().map(|row| row.get(0)).unwrap_or_default())
    }

    async fn remove_route(&self, id: i64) -> Result<bool, Error> {
        let client = self.pool.get().await?;
        Ok(client.execute(REMOVE_ROUTE, &[&id]).await? > 0)
    }

    async fn report_connectors(&self, statuses: &[ConnectorStatus]) -> Result<(), Error> {
        let node = self.node_label();
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        tx.execute(CLEAR_STATUS, &[&node]).await?;
        let insert = tx.prepare_cached(REPORT_STATUS).await?;
        for s in statuses {
            let at = status_time(s.updated_at);
            let counts =
                [s.binds, s.binds_up, s.in_flight, s.handed, s.errors, s.receipts_outstanding].map(|n| n as i64);
            tx.execute(
                &insert,
                &[
                    &node,
                    &s.name.as_str(),
                    &counts[0],
                    &counts[1],
                    &counts[2],
                    &s.per_second,
                    &counts[3],
                    &counts[4],
                    &s.last_error,
                    &counts[5],
                    &at,
                ],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn record_traffic(&self, at: DateTime<Utc>, handed: &[(ConnectorName, u64)]) -> Result<(), Error> {
        let (minute, oldest) = traffic_minutes(at);
        let node = self.node_label();
        let client = self.pool.get().await?;
        let add = client.prepare_cached(ADD_TRAFFIC).await?;
        for (name, count) in handed.iter().filter(|(_, n)| *n > 0) {
            client.execute(&add, &[&minute, &node, &name.as_str(), &(*count as i64)]).await?;
        }
        client.execute(PRUNE_TRAFFIC, &[&oldest]).await?;
        Ok(())
    }

    async fn traffic(&self, since: DateTime<Utc>) -> Result<Vec<(String, String, i64)>, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, TRAFFIC, &[&traffic_minutes(since).0]).await?;
        Ok(rows.iter().map(|row| (row.get(0), row.get(1), row.get(2))).collect())
    }

    async fn account_limits(&self) -> Result<Vec<(AccountId, i64)>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, ACCOUNT_LIMITS, &[]).await?.iter().map(|row| (row.get(0), row.get(1))).collect())
    }

    async fn set_account_limit(&self, account: AccountId, per_second: Option<i64>) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client.execute(SET_ACCOUNT_LIMIT, &[&account, &per_second]).await?;
        Ok(())
    }

    async fn connector_statuses(&self, since: DateTime<Utc>) -> Result<Vec<ConnectorStatus>, Error> {
        let client = self.pool.get().await?;
        let rows = query(&client, STATUSES, &[&status_time(since)]).await?;
        rows.iter()
            .map(|row| {
                Ok(ConnectorStatus {
                    node: row.get(0),
                    name: row.get::<_, &str>(1).parse().map_err(Error::Stored)?,
                    binds: row.get::<_, i64>(2) as u64,
                    binds_up: row.get::<_, i64>(3) as u64,
                    in_flight: row.get::<_, i64>(4) as u64,
                    per_second: row.get(5),
                    handed: row.get::<_, i64>(6) as u64,
                    errors: row.get::<_, i64>(7) as u64,
                    last_error: row.get(8),
                    receipts_outstanding: row.get::<_, i64>(9) as u64,
                    updated_at: time::load(row.get(10)),
                })
            })
            .collect()
    }
}
