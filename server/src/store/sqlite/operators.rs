//! Operators in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};
use texto_core::Credits;

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        operators::{
            AccountOverview, BY_TOKEN, CREATE, LEDGER, LedgerLine, OVERVIEWS, OperatorRecord, OperatorStore,
            SET_SUSPENDED,
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

    async fn operator_by_token(&self, token_hash: &[u8; 32]) -> Result<Option<OperatorRecord>, Error> {
        let hash = token_hash.to_vec();
        self.db
            .read(move |db| {
                Ok(db
                    .prepare_cached(&numbered(BY_TOKEN))?
                    .query_row([hash], |row| Ok(OperatorRecord { id: row.get(0)?, name: row.get(1)? }))
                    .optional()?)
            })
            .await
    }

    async fn account_overviews(&self) -> Result<Vec<AccountOverview>, Error> {
        self.db
            .read(|db| {
                let mut statement = db.prepare_cached(OVERVIEWS)?;
                let rows = statement.query_map([], |row| {
                    Ok(AccountOverview {
                        id: row.get(0)?,
                        name: row.get(1)?,
                        balance: Credits::from_hundredths(row.get(2)?),
                        plan: row.get(3)?,
                        parent: row.get(4)?,
                        moderated: row.get(5)?,
                        per_second: row.get(6)?,
                        suspended: row.get(7)?,
                    })
                })?;
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

    async fn ledger(&self, account: AccountId, limit: i64) -> Result<Vec<LedgerLine>, Error> {
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(LEDGER))?;
                let rows = statement.query_map(params![account, limit], |row| {
                    Ok(LedgerLine {
                        at: time::load(&row.get::<_, String>(0)?),
                        amount: Credits::from_hundredths(row.get(1)?),
                        kind: row.get(2)?,
                        campaign: row.get(3)?,
                    })
                })?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }
}
