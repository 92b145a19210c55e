//! Retention settings and the retention pass's batches in SQLite (the statements are shared
//! with PostgreSQL: [`numbered`]).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId, Cursor, Expiry, RetentionSettings, RetentionStore, expiry_statement, retention::read_settings, time,
    },
};

const COLUMNS: &str = "message, list, survey, campaign, mo, lookup";

#[async_trait]
impl RetentionStore for SqliteStore {
    async fn retention(&self, account: AccountId) -> Result<RetentionSettings, Error> {
        self.db
            .read(move |db| {
                let sql = format!("SELECT {COLUMNS} FROM retention WHERE account_id = ?");
                Ok(db
                    .prepare_cached(&sql)?
                    .query_row([account], |row| read_settings(row, 0))
                    .optional()?
                    .unwrap_or_default())
            })
            .await
    }

    async fn set_retention(&self, account: AccountId, settings: RetentionSettings) -> Result<(), Error> {
        let [a, b, c, d, e, f] = settings.periods().map(|p| p.map(|p| p.to_string()));
        self.db
            .write(move |db| {
                db.execute(
                    &format!("INSERT OR REPLACE INTO retention (account_id, {COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"),
                    params![account, a, b, c, d, e, f],
                )?;
                Ok(())
            })
            .await
    }

    async fn retained_accounts(&self) -> Result<Vec<(AccountId, RetentionSettings)>, Error> {
        self.db
            .read(move |db| {
                let sql = format!("SELECT account_id, {COLUMNS} FROM retention");
                let mut statement = db.prepare_cached(&sql)?;
                let rows = statement.query_map([], |row| Ok((row.get(0)?, read_settings(row, 1)?)))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn expire(
        &self,
        account: AccountId,
        expiry: Expiry,
        before: DateTime<Utc>,
        batch: i64,
        after: &Cursor,
    ) -> Result<(i64, Cursor), Error> {
        let after = after.clone();
        self.db
            .write(move |db| {
                let sql = numbered(expiry_statement(expiry));
                let before = time::store(before);
                let mut statement = db.prepare_cached(&sql)?;
                let mut last = after.clone();
                let mut changed = 0;
                match expiry {
                    Expiry::MessageNumbers | Expiry::CampaignTexts => {
                        let mut rows = match expiry {
                            Expiry::MessageNumbers => {
                                statement.query(params![account, before, batch, after.at, after.id])?
                            }
                            _ => statement.query(params![account, before, batch, after.id])?,
                        };
                        while let Some(row) = rows.next()? {
                            let (at, id): (String, i64) = (row.get(0)?, row.get(1)?);
                            changed += 1;
                            if (&at, id) > (&last.at, last.id) {
                                last = Cursor { at, id };
                            }
                        }
                    }
                    Expiry::Replies | Expiry::ListContacts | Expiry::EmptyContacts => {
                        changed = statement.execute(params![account, before, batch])? as i64;
                    }
                }
                Ok((changed, last))
            })
            .await
    }
}
