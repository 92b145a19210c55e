//! Keeps the running connectors and routes as the database says, and reports the connectors'
//! status there, once a second: what `texto connector …` and `texto route …` change reaches
//! every node within a second, without a restart.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::{clock::Clock, connectors::Connectors, throttle::Throttle};
use crate::{
    Error,
    carrier::Carrier,
    operator::routing::Routes,
    store::{PlanStore, RoutingStore},
};

/// One pass per [`ConnectorSync::step`].
pub(crate) struct ConnectorSync {
    pub(crate) store: Arc<dyn RoutingStore>,
    /// Which account is on which plan, for the routes that match a plan.
    pub(crate) plans: Arc<dyn PlanStore>,
    pub(crate) connectors: Arc<Connectors>,
    pub(crate) throttle: Arc<Throttle>,
    pub(crate) clock: Arc<dyn Clock>,
}

impl ConnectorSync {
    /// Applies the stored connectors, routes and account limits, unbinds the connectors that
    /// went, reports the status.
    pub(crate) async fn step(&self) -> Result<(), Error> {
        self.throttle.set_limits(&self.store.account_limits().await?, std::time::Instant::now());
        let configs = self.store.connectors().await?;
        let routes = Routes::new(self.store.routes().await?.into_iter().map(|record| record.route).collect());
        // The accounts' plans, read only when a route matches a plan.
        let routes = if routes.by_plan() { routes.with_plans(self.plans.account_plans().await?) } else { routes };
        for connector in self.connectors.apply(&configs, routes) {
            tracing::info!(connector = %connector.name, "stopping a connector");
            // Its submits still in flight are answered "retry" and go by another connector.
            tokio::spawn(async move { connector.close().await });
        }
        let now = self.clock.now();
        self.store.record_traffic(now, &self.connectors.traffic()).await?;
        self.store.report_connectors(&self.connectors.statuses(now)).await
    }
}

/// Steps every second until stopped (the first step ran before the dispatcher started).
pub(crate) async fn run(sync: ConnectorSync, stop: CancellationToken) {
    crate::operator::settings_reload::run("connectors and routes", stop, || sync.step()).await;
}
