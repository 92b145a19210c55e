//! Operators in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        operators::{
            ADD_SESSION, AccountOverview, BY_TOKEN, CREATE, END_SESSION, FORGET_SESSIONS, LEDGER, LedgerLine,
            OVERVIEWS, OperatorRecord, OperatorStore, SET_PASSWORD, SET_SUSPENDED, SIGN_IN, read_ledger_line,
            read_operator, read_overview,
        },
        time,
    },
};

#[async_trait]
impl OperatorStore for SqliteStore {
    async fn create_operator(&self, name: &str, token_hash: &[u8; 32]) -> Result<bool, Error> {
        let (name, hash, now) = (name.to_owned(), token_hash.to_vec(), time::store(Utc::now()));
        self.db.write(move |db| Ok(db.prepare_cached(&numbered(CREATE))?.execute(params![name, hash, now])? > 0)).await
    }

    async fn operator_by_token(
        &self,
        token_hash: &[u8; 32],
        now: DateTime<Utc>,
    ) -> Result<Option<OperatorRecord>, Error> {
        let (hash, now) = (token_hash.to_vec(), time::store(now));
        self.db
            .read(move |db| {
                Ok(db
                    .prepare_cached(&numbered(BY_TOKEN))?
                    .query_row(params![hash, now], |row| read_operator(row))
                    .optional()?)
            })
            .await
    }

    async fn set_operator_password(&self, name: &str, password_hash: &str) -> Result<bool, Error> {
        let (name, hash) = (name.to_owned(), password_hash.to_owned());
        self.db.write(move |db| Ok(db.prepare_cached(&numbered(SET_PASSWORD))?.execute(params![name, hash])? > 0)).await
    }

    async fn operator_sign_in(&self, name: &str) -> Result<Option<(OperatorRecord, Option<String>)>, Error> {
        let name = name.to_owned();
        self.db
            .read(move |db| {
                Ok(db
                    .prepare_cached(&numbered(SIGN_IN))?
                    .query_row([name], |row| Ok((OperatorRecord { id: row.get(0)?, name: row.get(1)? }, row.get(2)?)))
                    .optional()?)
            })
            .await
    }

    async fn add_operator_session(
        &self,
        token_hash: &[u8; 32],
        operator: i64,
        expires_at: DateTime<Utc>,
    ) -> Result<(), Error> {
        let (hash, expires, now) = (token_hash.to_vec(), time::store(expires_at), time::store(Utc::now()));
        self.db
            .write(move |db| {
                db.prepare_cached(&numbered(FORGET_SESSIONS))?.execute([now])?;
                db.prepare_cached(&numbered(ADD_SESSION))?.execute(params![hash, operator, expires])?;
                Ok(())
            })
            .await
    }

    async fn end_operator_session(&self, token_hash: &[u8; 32]) -> Result<(), Error> {
        let hash = token_hash.to_vec();
        self.db
            .write(move |db| {
                db.prepare_cached(&numbered(END_SESSION))?.execute([hash])?;
                Ok(())
            })
            .await
    }

    async fn account_overviews(&self) -> Result<Vec<AccountOverview>, Error> {
        self.db
            .read(|db| {
                let mut statement = db.prepare_cached(OVERVIEWS)?;
                let rows = statement.query_map([], |row| read_overview(row))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn set_suspended(&self, account: AccountId, at: Option<DateTime<Utc>>) -> Result<(), Error> {
        let at = at.map(time::store);
        self.db
            .write(move |db| {
                db.prepare_cached(&numbered(SET_SUSPENDED))?.execute(params![account, at])?;
                Ok(())
            })
            .await
    }

    async fn ledger(&self, account: AccountId, limit: i64, skip: i64) -> Result<Vec<LedgerLine>, Error> {
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(LEDGER))?;
                let rows = statement.query_map(params![account, limit, skip], |row| read_ledger_line(row))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }
}
