//! Sub-accounts and transfers of credits in SQLite (the statements shared with PostgreSQL,
//! their `$n` written `?n`).

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};
use texto_core::{Credits, Role};

use super::{SqliteStore, accounts::balance, numbered};
use crate::{
    Error,
    store::{
        AccountId, money,
        sub_accounts::{
            Family, NewSubAccount, SUB_ACCOUNT_COLUMNS, SubAccountRecord, SubAccountStore, email_taken, name_taken,
            read_family, read_sub_account,
        },
        time,
    },
};

#[async_trait]
impl SubAccountStore for SqliteStore {
    async fn create_sub_account(&self, new: &NewSubAccount) -> Result<AccountId, Error> {
        let new = new.clone();
        self.db
            .write(move |db| {
                let account: Option<AccountId> = db
                    .query_row(
                        "INSERT INTO accounts (name, parent_id, unlimited, moderated) VALUES (?, ?, ?, ?)
                         ON CONFLICT (name) DO NOTHING RETURNING id",
                        params![new.name, new.parent, new.unlimited, new.moderated],
                        |row| row.get(0),
                    )
                    .optional()?;
                let account = account.ok_or_else(name_taken)?;
                let user: Option<i64> = db
                    .query_row(
                        "INSERT INTO users (account_id, email, name, password_hash, role, created_at)
                         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING id",
                        params![
                            account,
                            new.owner_email.as_str(),
                            new.owner_name.as_str(),
                            new.password_hash,
                            Role::Owner.as_str(),
                            time::store(new.now)
                        ],
                        |row| row.get(0),
                    )
                    .optional()?;
                user.ok_or_else(email_taken)?;
                Ok(account)
            })
            .await
    }

    async fn sub_accounts(&self, parent: AccountId) -> Result<Vec<SubAccountRecord>, Error> {
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(&format!("{SUB_ACCOUNT_COLUMNS} ORDER BY a.id")))?;
                Ok(statement.query_map([parent], |row| read_sub_account(row))?.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn sub_account(&self, parent: AccountId, id: AccountId) -> Result<Option<SubAccountRecord>, Error> {
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(&format!("{SUB_ACCOUNT_COLUMNS} AND a.id = $2")))?;
                Ok(statement.query_row(params![parent, id], |row| read_sub_account(row)).optional()?)
            })
            .await
    }

    async fn family(&self, account: AccountId) -> Result<Family, Error> {
        self.db
            .read(move |db| {
                Ok(db
                    .prepare_cached("SELECT parent_id, unlimited FROM accounts WHERE id = ?")?
                    .query_row([account], |row| read_family(row))
                    .optional()?
                    .unwrap_or_default())
            })
            .await
    }

    async fn transfer(&self, from: AccountId, to: AccountId, credits: Credits) -> Result<(Credits, Credits), Error> {
        self.db
            .write(move |db| {
                let available = Credits::from_hundredths(balance(db, from)?);
                super::accounts::move_money(db, &money::transfer(from, to, credits, available)?)?;
                let after = (Credits::from_hundredths(balance(db, from)?), Credits::from_hundredths(balance(db, to)?));
                Ok(after)
            })
            .await
    }
}
