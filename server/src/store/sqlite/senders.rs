//! Registered senders in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use chrono::Utc;
use rusqlite::params;

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        senders::{ADD, HAS, REMOVE, SENDERS, SET_DEFAULT, SenderRecord, SenderStore, read_sender},
        time,
    },
};

#[async_trait]
impl SenderStore for SqliteStore {
    /// A point read by the primary key's prefix, run on the calling thread: every send reads
    /// it, and an account has the few senders an operator registered for it.
    async fn senders(&self, account: AccountId) -> Result<Vec<SenderRecord>, Error> {
        self.db
            .look_up(|db| {
                let mut statement = db.prepare_cached(&numbered(SENDERS))?;
                let rows = statement.query_map([account], |row| read_sender(row))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn add_sender(&self, account: AccountId, name: &str) -> Result<bool, Error> {
        let (name, now) = (name.to_owned(), time::store(Utc::now()));
        self.db.write(move |db| Ok(db.prepare_cached(&numbered(ADD))?.execute(params![account, name, now])? > 0)).await
    }

    async fn remove_sender(&self, account: AccountId, name: &str) -> Result<bool, Error> {
        let name = name.to_owned();
        self.db.write(move |db| Ok(db.prepare_cached(&numbered(REMOVE))?.execute(params![account, name])? > 0)).await
    }

    async fn set_default_sender(&self, account: AccountId, name: Option<&str>) -> Result<bool, Error> {
        let name = name.map(str::to_owned);
        self.db
            .write(move |db| {
                if let Some(name) = &name
                    && !db
                        .prepare_cached(&numbered(HAS))?
                        .query_row(params![account, name], |row| row.get::<_, bool>(0))?
                {
                    return Ok(false);
                }
                db.prepare_cached(&numbered(SET_DEFAULT))?.execute(params![account, name])?;
                Ok(true)
            })
            .await
    }
}
