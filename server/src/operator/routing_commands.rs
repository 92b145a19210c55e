//! The operator's commands for connectors and routes (`texto connector …`, `texto route …`).
//! They write the database; running nodes pick the change up within a second.

use std::{fmt::Write as _, sync::Arc};

use chrono::{TimeDelta, Utc};
use texto_core::PushType;

use crate::{
    Error,
    carrier::{CaDir, SmppTarget, SmscUrl, authorities},
    cli::args::{ConnectorAction, RouteAction},
    operator::routing::{ConnectorName, Destination, Route},
    store::{ConnectorConfig, ConnectorStatus, DbLocation, Store},
};

/// A status older than this is not from a running node.
const LIVE_FOR: TimeDelta = TimeDelta::seconds(5);

async fn open(db: impl Into<DbLocation>) -> Result<Arc<dyn Store>, Error> {
    crate::store::for_commands(&db.into()).await
}

/// `texto connector …`; returns what to print.
pub async fn connector(db: impl Into<DbLocation>, action: ConnectorAction) -> Result<String, Error> {
    let store = open(db).await?;
    let missing = |name: &ConnectorName| Error::Command(format!("no connector called {name}"));
    match action {
        ConnectorAction::Add { name, url, disabled, ca_dir } => {
            let target = connector_target(&name, &url, ca_dir.as_ref()).map_err(Error::Command)?;
            let shown = target.shown();
            store.save_connector(&ConnectorConfig { name: name.clone(), target, enabled: !disabled }).await?;
            Ok(format!("connector {name} saved: {shown}{}", if disabled { " (disabled)" } else { "" }))
        }
        ConnectorAction::List => {
            let statuses = store.connector_statuses(Utc::now() - LIVE_FOR).await?;
            Ok(listing(&store.connectors().await?, &statuses))
        }
        ConnectorAction::Enable { name } | ConnectorAction::Disable { name } if name.is_default() => {
            Err(Error::Command("default is the --smsc connector: change --smsc to change it".into()))
        }
        ConnectorAction::Enable { name } => match store.enable_connector(&name, true).await? {
            true => Ok(format!("connector {name} enabled")),
            false => Err(missing(&name)),
        },
        ConnectorAction::Disable { name } => match store.enable_connector(&name, false).await? {
            true => Ok(format!("connector {name} disabled: its routes go to their next connector")),
            false => Err(missing(&name)),
        },
        ConnectorAction::Remove { name } => {
            if let Some(why) = still_routed(store.as_ref(), &name).await? {
                return Err(Error::Command(why));
            }
            match store.remove_connector(&name).await? {
                true => Ok(format!("connector {name} removed")),
                false => Err(missing(&name)),
            }
        }
    }
}

/// The SMSC a connector called `name` may bind to at `url`: an `smpp://` one, and never the
/// name `default` (the `--smsc` connector). Its `ca=` file, if it names one, must hold
/// authorities in `ca_dir`, the `--ca-dir` of the node or command that saves it (each node
/// reads it again from its own on each bind).
pub(crate) fn connector_target(name: &ConnectorName, url: &str, ca_dir: Option<&CaDir>) -> Result<SmppTarget, String> {
    if name.is_default() {
        return Err("default is the --smsc connector: choose another name".into());
    }
    let target = match url.parse::<SmscUrl>().map_err(|why| format!("{url}: {why}"))? {
        SmscUrl::Smpp(target) => target,
        SmscUrl::Builtin(_) => return Err("a connector needs an smpp:// URL".into()),
    };
    if let Some(name) = target.tls.as_ref().and_then(|tls| tls.ca.as_ref()) {
        authorities(name, ca_dir)?;
    }
    Ok(target)
}

/// Why the connector `name` may not be removed: the routes that name it.
pub(crate) async fn still_routed(store: &dyn Store, name: &ConnectorName) -> Result<Option<String>, Error> {
    let used: Vec<i64> = store
        .routes()
        .await?
        .iter()
        .filter(|record| record.route.connectors.contains(name))
        .map(|record| record.route.id)
        .collect();
    Ok((!used.is_empty()).then(|| format!("routes {used:?} name {name}: remove them first")))
}

/// `plan` if it names a price plan (`shipped` included), or why not.
pub(crate) async fn known_plan(store: &dyn Store, plan: &str) -> Result<Result<String, String>, Error> {
    let plan = plan.trim();
    if plan == crate::store::plans::SHIPPED || store.plans().await?.iter().any(|(name, _)| name == plan) {
        Ok(Ok(plan.to_owned()))
    } else {
        Ok(Err(format!("no plan called {plan:?}")))
    }
}

/// Why a route may not name `connectors`: one of them does not exist.
pub(crate) async fn unknown_connector(
    store: &dyn Store,
    connectors: &[ConnectorName],
) -> Result<Option<String>, Error> {
    if connectors.is_empty() {
        return Ok(Some("a route names one connector at least".into()));
    }
    let known = store.connectors().await?;
    Ok(connectors
        .iter()
        .find(|c| !c.is_default() && !known.iter().any(|k| k.name == **c))
        .map(|unknown| format!("no connector called {unknown} (add it first)")))
}

/// One line per connector and node that runs it; defined connectors no node runs say why.
fn listing(configs: &[ConnectorConfig], statuses: &[ConnectorStatus]) -> String {
    let mut out = format!(
        "{:<16} {:<10} {:<10} {:>5} {:>9} {:>7} {:>9} {:>7} {:>12}  {}\n",
        "NAME", "NODE", "STATE", "BINDS", "IN FLIGHT", "MSG/S", "HANDED", "ERRORS", "RECEIPTS DUE", "SMSC / LAST ERROR"
    );
    for status in statuses {
        let config = configs.iter().find(|c| c.name == status.name);
        let state = if status.binds_up > 0 { "up" } else { "down" };
        let smsc = config.map_or_else(|| "--smsc".to_owned(), |c| c.target.shown());
        let _ = writeln!(
            out,
            "{:<16} {:<10} {:<10} {:>5} {:>9} {:>7} {:>9} {:>7} {:>12}  {smsc}{}",
            status.name.as_str(),
            status.node,
            state,
            format!("{}/{}", status.binds_up, status.binds),
            status.in_flight,
            status.per_second,
            status.handed,
            status.errors,
            status.receipts_outstanding,
            status.last_error.as_deref().map(|e| format!(" ({e})")).unwrap_or_default(),
        );
    }
    for config in configs.iter().filter(|c| !statuses.iter().any(|s| s.name == c.name)) {
        let state = if config.enabled { "not running" } else { "disabled" };
        let _ = writeln!(
            out,
            "{:<16} {:<10} {:<10} {:>65}  {}",
            config.name.as_str(),
            "-",
            state,
            "",
            config.target.shown()
        );
    }
    out.trim_end().to_owned()
}

/// `texto route …`; returns what to print.
pub async fn route(db: impl Into<DbLocation>, action: RouteAction) -> Result<String, Error> {
    let store = open(db).await?;
    match action {
        RouteAction::Add { connectors, prefix, country, account, pushtype, plan, priority } => {
            if let Some(why) = unknown_connector(store.as_ref(), &connectors).await? {
                return Err(Error::Command(why));
            }
            let destination = match (prefix, country) {
                (Some(prefix), _) => Some(Destination::prefix(&prefix).map_err(Error::Command)?),
                (None, Some(country)) => Some(Destination::country(&country).map_err(Error::Command)?),
                (None, None) => None,
            };
            let account = match account {
                Some(name) => Some(
                    store
                        .account_by_name(&name)
                        .await?
                        .ok_or_else(|| Error::Command(format!("no account called {name:?}")))?,
                ),
                None => None,
            };
            let pushtype = pushtype
                .map(|p| {
                    PushType::parse(&p).ok_or_else(|| Error::Command(format!("--pushtype {p}: alert or marketing")))
                })
                .transpose()?;
            let plan = match plan {
                Some(plan) => Some(known_plan(store.as_ref(), &plan).await?.map_err(Error::Command)?),
                None => None,
            };
            let route = Route { id: 0, priority, destination, account, pushtype, plan, connectors };
            let id = store.add_route(&route).await?;
            Ok(format!("route {id} added"))
        }
        RouteAction::List => {
            let mut out = format!(
                "{:>4} {:>8} {:<12} {:<16} {:<10} {:<10} {}\n",
                "ID", "PRIORITY", "TO", "ACCOUNT", "PUSHTYPE", "PLAN", "CONNECTORS"
            );
            for record in store.routes().await? {
                let route = &record.route;
                let _ = writeln!(
                    out,
                    "{:>4} {:>8} {:<12} {:<16} {:<10} {:<10} {}",
                    route.id,
                    route.priority,
                    route.destination.as_ref().map_or("any".to_owned(), ToString::to_string),
                    record.account_name.as_deref().unwrap_or("any"),
                    route.pushtype.map_or("any", PushType::as_str),
                    route.plan.as_deref().unwrap_or("any"),
                    route.connectors.iter().map(ConnectorName::as_str).collect::<Vec<_>>().join(" → "),
                );
            }
            let _ = write!(out, "(anything else goes to default)");
            Ok(out)
        }
        RouteAction::Remove { id } => match store.remove_route(id).await? {
            true => Ok(format!("route {id} removed")),
            false => Err(Error::Command(format!("no route {id}"))),
        },
    }
}
