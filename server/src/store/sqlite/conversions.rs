//! Conversions in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        conversions::{
            CONVERTIBLE, ConversionRecord, ConversionStore, Converter, RECORD, RECORDED, converter_account,
            read_conversion,
        },
        time,
    },
};

#[async_trait]
impl ConversionStore for SqliteStore {
    async fn convert(
        &self,
        by: Converter,
        (message, link): (i64, i64),
        hundredths: i64,
        now: DateTime<Utc>,
    ) -> Result<Option<ConversionRecord>, Error> {
        let (account, now) = (converter_account(by), time::store(now));
        self.db
            .write(move |db| {
                let owner: Option<(i64, i64)> = db
                    .prepare_cached(&numbered(CONVERTIBLE))?
                    .query_row(params![message, link, account], |row| Ok((row.get(0)?, row.get(1)?)))
                    .optional()?;
                let Some((owner, campaign)) = owner else { return Ok(None) };
                db.prepare_cached(&numbered(RECORD))?
                    .execute(params![owner, campaign, message, link, hundredths, now])?;
                let recorded = db
                    .prepare_cached(&numbered(RECORDED))?
                    .query_row(params![message, link], |row| read_conversion(row))?;
                Ok(Some(recorded))
            })
            .await
    }
}
