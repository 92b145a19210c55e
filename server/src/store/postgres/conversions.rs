//! Conversions in PostgreSQL (the statements shared with SQLite).

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{PgStore, time};
use crate::{
    Error,
    store::conversions::{
        CONVERTIBLE, ConversionRecord, ConversionStore, Converter, RECORD, RECORDED, converter_account, read_conversion,
    },
};

#[async_trait]
impl ConversionStore for PgStore {
    async fn convert(
        &self,
        by: Converter,
        (message, link): (i64, i64),
        hundredths: i64,
        now: DateTime<Utc>,
    ) -> Result<Option<ConversionRecord>, Error> {
        let account = converter_account(by);
        let client = self.pool.get().await?;
        let Some(owner) = client.query_opt(CONVERTIBLE, &[&message, &link, &account]).await? else { return Ok(None) };
        let (owner, campaign): (i64, i64) = (owner.get(0), owner.get(1));
        let now = time::store(now);
        // One statement: two nodes recording the same click at once leave one row.
        client.execute(RECORD, &[&owner, &campaign, &message, &link, &hundredths, &now]).await?;
        let recorded = client.query_one(RECORDED, &[&message, &link]).await?;
        Ok(Some(read_conversion(&recorded)?))
    }
}
