//! The SQLite implementation of the store, over [`crate::db::Database`]: each store
//! operation is one read or one write job, whatever number of statements it runs.

mod ab_tests;
mod account_contacts;
mod accounts;
mod approval;
mod arrivals;
mod audit;
mod balance_alert;
mod campaigns;
mod clicks;
mod consumption;
mod conversations;
mod conversions;
mod daily;
mod delivery;
mod drafts;
mod events;
mod idempotency;
mod journey_plans;
mod journeys;
mod keyword_replies;
mod keywords;
mod list_upkeep;
mod lists;
mod messages;
mod moderation;
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

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

use super::{flood_window::FloodWindow, time};
use crate::{Error, db::Database};

/// SQLite behind the [`super::Store`] traits.
#[derive(Clone)]
pub(crate) struct SqliteStore {
    db: Database,
    flood: Arc<FloodWindow>,
}

/// A statement shared with PostgreSQL, its `$n` parameters written as SQLite's `?n`.
fn numbered(statement: &str) -> String {
    statement.replace('$', "?")
}

#[cfg(test)]
impl SqliteStore {
    /// Runs `sql` as a test's set-up.
    pub(crate) async fn execute_batch(&self, sql: &str) -> Result<(), Error> {
        let sql = sql.to_owned();
        self.db.write(move |db| Ok(db.execute_batch(&sql)?)).await
    }
}

impl SqliteStore {
    /// A store for the operator's commands, which send nothing: its anti-flood window stays empty.
    pub(crate) fn for_commands(db: Database) -> SqliteStore {
        SqliteStore { db, flood: Arc::default() }
    }

    /// A store for the service, with the anti-flood window filled from the last hour of messages.
    pub(crate) async fn for_serving(db: Database, now: DateTime<Utc>) -> Result<SqliteStore, Error> {
        let since = time::store(now - Duration::hours(1));
        let flood = Arc::new(FloodWindow::default());
        let window = Arc::clone(&flood);
        db.read(move |connection| {
            let mut query = connection
                // Account by account, on the index by account and time.
                .prepare(
                    "SELECT m.account_id, m.number, m.text_hash, m.created_at FROM accounts a
                     JOIN messages m ON m.account_id = a.id AND m.created_at >= ?",
                )?;
            let mut rows = query.query([since])?;
            while let Some(row) = rows.next()? {
                let at = time::load(&row.get::<_, String>(3)?);
                window.record(row.get(0)?, [row.get::<_, i64>(1)? as u64], row.get(2)?, at);
            }
            Ok(())
        })
        .await?;
        Ok(SqliteStore { db, flood })
    }
}
