//! Accounts, tokens and the ledger in SQLite.

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};
use texto_core::{Country, Credits, FloodLimits};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId, AccountStore, CountryRule, CountryRuleChange,
        accounts::read_country_rule,
        money::{self, Movement},
    },
};

#[async_trait]
impl AccountStore for SqliteStore {
    async fn create_account(&self, name: &str, credits: Credits) -> Result<AccountId, Error> {
        let name = name.to_owned();
        self.db
            .write(move |db| {
                let id: i64 = db
                    .query_row("INSERT INTO accounts (name) VALUES (?) RETURNING id", [&name], |row| row.get(0))
                    .map_err(|e| match e.sqlite_error_code() {
                        Some(rusqlite::ErrorCode::ConstraintViolation) => {
                            Error::Command(format!("an account called {name:?} already exists"))
                        }
                        _ => e.into(),
                    })?;
                move_money(db, &money::top_up(id, credits))?;
                Ok(id)
            })
            .await
    }

    async fn account_by_name(&self, name: &str) -> Result<Option<AccountId>, Error> {
        let name = name.to_owned();
        self.db
            .read(move |db| {
                Ok(db.query_row("SELECT id FROM accounts WHERE name = ?", [name], |row| row.get(0)).optional()?)
            })
            .await
    }

    async fn account_name(&self, account: AccountId) -> Result<String, Error> {
        self.db
            .read(move |db| Ok(db.query_row("SELECT name FROM accounts WHERE id = ?", [account], |row| row.get(0))?))
            .await
    }

    async fn top_up(&self, account: AccountId, credits: Credits) -> Result<Credits, Error> {
        self.db
            .write(move |db| {
                move_money(db, &money::top_up(account, credits))?;
                Ok(Credits::from_hundredths(balance(db, account)?))
            })
            .await
    }

    async fn balance(&self, account: AccountId) -> Result<Credits, Error> {
        self.db.read(move |db| Ok(Credits::from_hundredths(balance(db, account)?))).await
    }

    async fn update_flood_limits(
        &self,
        account: AccountId,
        identical_per_hour: Option<u32>,
        any_per_hour: Option<u32>,
    ) -> Result<FloodLimits, Error> {
        self.db
            .write(move |db| {
                db.execute(
                    "UPDATE accounts SET flood_identical_per_hour = COALESCE(?, flood_identical_per_hour),
                         flood_any_per_hour = COALESCE(?, flood_any_per_hour) WHERE id = ?",
                    params![identical_per_hour, any_per_hour, account],
                )?;
                Ok(flood_limits(db, account)?)
            })
            .await
    }

    async fn update_country_rule(
        &self,
        account: AccountId,
        country: Country,
        change: CountryRuleChange,
    ) -> Result<CountryRule, Error> {
        let iso2 = country.iso2();
        self.db
            .write(move |db| {
                let select = "SELECT allowed, monthly_cap FROM account_countries WHERE account_id = ? AND country = ?";
                let current = db
                    .query_row(select, params![account, iso2], |row| read_country_rule(row))
                    .optional()?
                    .unwrap_or(CountryRule { allowed: true, monthly_cap: None });
                let rule = CountryRule {
                    allowed: change.allowed.unwrap_or(current.allowed),
                    monthly_cap: change.monthly_cap.unwrap_or(current.monthly_cap),
                };
                db.execute(
                    "INSERT INTO account_countries (account_id, country, allowed, monthly_cap) VALUES (?, ?, ?, ?)
                     ON CONFLICT (account_id, country) DO UPDATE SET allowed = excluded.allowed, monthly_cap = excluded.monthly_cap",
                    params![account, iso2, rule.allowed, rule.monthly_cap],
                )?;
                Ok(rule)
            })
            .await
    }

    async fn close(&self) -> Result<(), Error> {
        if !self.db.truncate_wal().await? {
            tracing::warn!("the WAL was not emptied at shutdown: a reader held it");
        }
        Ok(())
    }

    async fn ping(&self) -> Result<(), Error> {
        self.db.read(|db| Ok(db.query_row("SELECT 1", [], |_| Ok(()))?)).await?;
        // Writes that failed just now tell more than one small write that may fit.
        if let Some(fault) = self.db.recent_fault() {
            return Err(Error::DatabaseDown(fault));
        }
        // A write that reaches the disk: the writer thread is alive, holds the write lock and
        // can add to its journal.
        self.db
            .write(|db| {
                db.prepare_cached("INSERT OR REPLACE INTO health_probe (id, checked_at) VALUES (1, ?)")?
                    .execute([super::time::store(chrono::Utc::now())])?;
                Ok(())
            })
            .await
    }
}

/// The account's anti-flood limits: its own, or the reference defaults.
pub(super) fn flood_limits(db: &rusqlite::Connection, account: AccountId) -> rusqlite::Result<FloodLimits> {
    let defaults = FloodLimits::default();
    db.prepare_cached("SELECT flood_identical_per_hour, flood_any_per_hour FROM accounts WHERE id = ?")?.query_row(
        [account],
        |row| {
            Ok(FloodLimits {
                identical_per_hour: row.get::<_, Option<u32>>(0)?.unwrap_or(defaults.identical_per_hour),
                any_per_hour: row.get::<_, Option<u32>>(1)?.unwrap_or(defaults.any_per_hour),
            })
        },
    )
}

/// Writes `movements` to the ledger and moves each account's balance by its net (the one way
/// money moves, [`money`]).
pub(super) fn move_money(db: &rusqlite::Connection, movements: &[Movement]) -> Result<(), Error> {
    let mut record = db.prepare_cached(&numbered(money::RECORD))?;
    for movement in movements {
        record.execute(params![
            movement.account,
            movement.amount,
            movement.kind(),
            movement.campaign(),
            movement.counterpart()
        ])?;
    }
    let mut moved = db.prepare_cached(&numbered(money::MOVE_BALANCE))?;
    for (account, amount) in money::net(movements) {
        if moved.execute(params![account, amount])? == 0 {
            return Err(rusqlite::Error::QueryReturnedNoRows.into());
        }
    }
    Ok(())
}

/// The account's balance in hundredths (moved only by [`move_money`]).
pub(super) fn balance(db: &rusqlite::Connection, account: AccountId) -> rusqlite::Result<i64> {
    db.prepare_cached("SELECT balance FROM accounts WHERE id = ?")?.query_row([account], |row| row.get(0))
}
