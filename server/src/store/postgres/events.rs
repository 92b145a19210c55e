//! The outbox: each event written, in the transaction of the change that raised it, once per
//! webhook (live or paused) of its type that the account has.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use deadpool_postgres::GenericClient;
use serde::Serialize;

use super::time;
use crate::{Error, store::AccountId};

/// Writes events for one transaction: knows the time once, and which accounts listen to what.
pub(super) struct Outbox {
    now: DateTime<Utc>,
    at: String,
    listening: HashMap<(AccountId, &'static str), bool>,
}

impl Outbox {
    /// An outbox for events raised at `now`.
    pub(super) fn new(now: DateTime<Utc>) -> Outbox {
        Outbox { now, at: time::store(now), listening: HashMap::new() }
    }

    /// The time the events are raised.
    pub(super) fn now(&self) -> DateTime<Utc> {
        self.now
    }

    /// The stored form of the time the events are raised.
    pub(super) fn at(&self) -> &str {
        &self.at
    }

    /// Learns in one statement which of `accounts` listen to `event`, before it is raised for
    /// many of them (each probe is planned again inside a wave's transaction).
    pub(super) async fn learn(&mut self, tx: &impl GenericClient, accounts: impl IntoIterator<Item = AccountId>, event: &'static str) -> Result<(), Error> {
        let mut unknown: Vec<AccountId> = accounts.into_iter().filter(|account| !self.listening.contains_key(&(*account, event))).collect();
        unknown.sort_unstable();
        unknown.dedup();
        if unknown.len() < 2 {
            return Ok(());
        }
        let query = tx.prepare_cached("SELECT DISTINCT account_id FROM webhooks WHERE account_id = ANY($1) AND type = $2").await?;
        let listening: HashSet<AccountId> = tx.query(&query, &[&unknown, &event]).await?.iter().map(|row| row.get(0)).collect();
        for account in unknown {
            self.listening.insert((account, event), listening.contains(&account));
        }
        Ok(())
    }

    /// Writes `body` to the outbox of every webhook of `account` listening to `event`.
    pub(super) async fn raise(&mut self, tx: &impl GenericClient, account: AccountId, event: &'static str, body: &impl Serialize) -> Result<(), Error> {
        let listening = match self.listening.get(&(account, event)) {
            Some(listening) => *listening,
            None => {
                let query = tx.prepare_cached("SELECT EXISTS (SELECT 1 FROM webhooks WHERE account_id = $1 AND type = $2)").await?;
                let listening: bool = tx.query_one(&query, &[&account, &event]).await?.get(0);
                self.listening.insert((account, event), listening);
                listening
            }
        };
        if !listening {
            return Ok(());
        }
        let body = serde_json::to_string(body).map_err(|_| Error::Unavailable("an event body could not be written"))?;
        let insert = tx
            .prepare_cached(
                "INSERT INTO outbox (webhook_id, event, body, created_at)
                 SELECT id, $1, $2, $3 FROM webhooks WHERE account_id = $4 AND type = $1 ORDER BY id",
            )
            .await?;
        tx.execute(&insert, &[&event, &body, &self.at, &account]).await?;
        Ok(())
    }
}
