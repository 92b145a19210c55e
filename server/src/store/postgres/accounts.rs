//! Accounts, tokens and the ledger in PostgreSQL. There is no trigger: every ledger row is
//! written with the `accounts.balance` move it makes, in one transaction.

use std::collections::BTreeMap;

use async_trait::async_trait;
use deadpool_postgres::{GenericClient, Transaction};
use texto_core::{Country, Credits, FloodLimits};
use tokio_postgres::error::SqlState;

use super::PgStore;
use crate::{
    Error,
    store::{
        AccountId, AccountStore, CountryRule, CountryRuleChange,
        accounts::read_country_rule,
        money::{self, Movement},
    },
};

#[async_trait]
impl AccountStore for PgStore {
    async fn create_account(&self, name: &str, credits: Credits) -> Result<AccountId, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let id: i64 = tx
            .query_one("INSERT INTO accounts (name) VALUES ($1) RETURNING id", &[&name])
            .await
            .map_err(|e| match e.code() {
                Some(&SqlState::UNIQUE_VIOLATION) => {
                    Error::Command(format!("an account called {name:?} already exists"))
                }
                _ => e.into(),
            })?
            .get(0);
        move_money(&tx, &money::top_up(id, credits)).await?;
        tx.commit().await?;
        Ok(id)
    }

    async fn account_by_name(&self, name: &str) -> Result<Option<AccountId>, Error> {
        let client = self.pool.get().await?;
        Ok(client.query_opt("SELECT id FROM accounts WHERE name = $1", &[&name]).await?.map(|row| row.get(0)))
    }

    async fn account_name(&self, account: AccountId) -> Result<String, Error> {
        let client = self.pool.get().await?;
        Ok(client.query_one("SELECT name FROM accounts WHERE id = $1", &[&account]).await?.get(0))
    }

    async fn top_up(&self, account: AccountId, credits: Credits) -> Result<Credits, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let balance = top_up_in(&tx, account, credits).await?;
        tx.commit().await?;
        Ok(Credits::from_hundredths(balance))
    }

    async fn balance(&self, account: AccountId) -> Result<Credits, Error> {
        let client = self.pool.get().await?;
        Ok(Credits::from_hundredths(balance(&client, account).await?))
    }

    async fn update_flood_limits(
        &self,
        account: AccountId,
        identical_per_hour: Option<u32>,
        any_per_hour: Option<u32>,
    ) -> Result<FloodLimits, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        tx.execute(
            "UPDATE accounts SET flood_identical_per_hour = COALESCE($1, flood_identical_per_hour),
                 flood_any_per_hour = COALESCE($2, flood_any_per_hour) WHERE id = $3",
            &[&identical_per_hour.map(i64::from), &any_per_hour.map(i64::from), &account],
        )
        .await?;
        let limits = flood_limits(&tx, account).await?;
        changed(&tx, account).await?;
        tx.commit().await?;
        Ok(limits)
    }

    async fn update_country_rule(
        &self,
        account: AccountId,
        country: Country,
        change: CountryRuleChange,
    ) -> Result<CountryRule, Error> {
        // One upsert: the row is locked while the kept fields are read, so two changes of
        // different fields made at once by two nodes both stay.
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let cap_changes = change.monthly_cap.is_some();
        let cap = change.monthly_cap.flatten().map(cap_to_db);
        let row = tx
            .query_one(
                "INSERT INTO account_countries (account_id, country, allowed, monthly_cap)
                 VALUES ($1, $2, COALESCE($3::boolean, true), CASE WHEN $4::boolean THEN $5::bigint END)
                 ON CONFLICT (account_id, country) DO UPDATE SET
                     allowed = COALESCE($3::boolean, account_countries.allowed),
                     monthly_cap = CASE WHEN $4::boolean THEN $5::bigint ELSE account_countries.monthly_cap END
                 RETURNING allowed, monthly_cap",
                &[&account, &country.iso2(), &change.allowed, &cap_changes, &cap],
            )
            .await?;
        changed(&tx, account).await?;
        tx.commit().await?;
        Ok(read_country_rule(&row)?)
    }

    async fn close(&self) -> Result<(), Error> {
        Ok(())
    }

    async fn ping(&self) -> Result<(), Error> {
        let client = self.pool.get().await?;
        // A standby (or a database set read-only) answers reads but takes no writes.
        let read_only: String = client.query_one("SELECT current_setting('transaction_read_only')", &[]).await?.get(0);
        if read_only == "on" {
            return Err(Error::Unavailable("the database is read-only"));
        }
        Ok(())
    }
}

/// Writes a top-up of `credits` to the ledger and moves the balance; returns the new balance
/// in hundredths.
async fn top_up_in(tx: &Transaction<'_>, account: AccountId, credits: Credits) -> Result<i64, Error> {
    match move_money(tx, &money::top_up(account, credits)).await?.get(&account) {
        Some(&after) => Ok(after),
        None => balance(tx, account).await,
    }
}

/// Writes `movements` to the ledger and moves each account's balance by its net (the one way
/// money moves, [`money`]), in account order as every writer locks them; the nodes' copies of
/// each account moved are told. The balances after, by account.
pub(super) async fn move_money(
    tx: &Transaction<'_>,
    movements: &[Movement],
) -> Result<BTreeMap<AccountId, i64>, Error> {
    let record = tx.prepare_cached(money::RECORD).await?;
    for movement in movements {
        let (campaign, counterpart) = (movement.campaign(), movement.counterpart());
        tx.execute(&record, &[&movement.account, &movement.amount, &movement.kind(), &campaign, &counterpart]).await?;
    }
    let moved = tx.prepare_cached(money::MOVE_BALANCE_RETURNING).await?;
    let mut after = BTreeMap::new();
    for (account, amount) in money::net(movements) {
        after.insert(account, tx.query_one(&moved, &[&account, &amount]).await?.get(0));
        changed(tx, account).await?;
    }
    Ok(after)
}

/// Moves `account`'s change counter (`account_changes`), in the transaction of a change that
/// the nodes' copies of the account must see: the balance going up or its settings changing.
pub(super) async fn changed(db: &impl GenericClient, account: AccountId) -> Result<(), Error> {
    let statement = db
        .prepare_cached(
            "INSERT INTO account_changes (account_id, version) VALUES ($1, 1)
             ON CONFLICT (account_id) DO UPDATE SET version = account_changes.version + 1",
        )
        .await?;
    db.execute(&statement, &[&account]).await?;
    Ok(())
}

/// A monthly cap as stored (caps beyond `i64::MAX` are stored as `i64::MAX`).
fn cap_to_db(cap: u64) -> i64 {
    i64::try_from(cap).unwrap_or(i64::MAX)
}

/// A stored flood limit (one beyond `u32::MAX`, which texto never writes, reads as `u32::MAX`;
/// the schema refuses negative ones).
fn limit_from_db(limit: i64) -> u32 {
    u32::try_from(limit.max(0)).unwrap_or(u32::MAX)
}

/// The account's anti-flood limits: its own, or the reference defaults.
pub(super) async fn flood_limits(db: &impl GenericClient, account: AccountId) -> Result<FloodLimits, Error> {
    let query =
        db.prepare_cached("SELECT flood_identical_per_hour, flood_any_per_hour FROM accounts WHERE id = $1").await?;
    let row = db.query_one(&query, &[&account]).await?;
    Ok(limits_from_db(row.get(0), row.get(1)))
}

/// The anti-flood limits of an account's stored columns (the reference defaults where unset).
pub(super) fn limits_from_db(identical_per_hour: Option<i64>, any_per_hour: Option<i64>) -> FloodLimits {
    let defaults = FloodLimits::default();
    FloodLimits {
        identical_per_hour: identical_per_hour.map_or(defaults.identical_per_hour, limit_from_db),
        any_per_hour: any_per_hour.map_or(defaults.any_per_hour, limit_from_db),
    }
}

/// The account's balance in hundredths (moved with every ledger row the store writes).
pub(super) async fn balance(db: &impl GenericClient, account: AccountId) -> Result<i64, Error> {
    let query = db.prepare_cached("SELECT balance FROM accounts WHERE id = $1").await?;
    Ok(db.query_one(&query, &[&account]).await?.get(0))
}
