//! Reports in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};
use texto_core::DeliveryCode;

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        conversions::CAMPAIGN_CONVERSIONS,
        report::{
            CLICK_HOURS, CLICKERS_BY_COUNTRY, COUNTRIES, COUNTRIES_GROUPED, CountryRow, DELIVERED_HOURS,
            DELIVERED_HOURS_GROUPED, HEAD, REPLIERS, ReportRows, ReportStore, STOPS, read_country, read_head,
            read_hour,
        },
    },
};

#[async_trait]
impl ReportStore for SqliteStore {
    async fn report_rows(&self, account: AccountId, ticket: i64) -> Result<Option<ReportRows>, Error> {
        self.db
            .read(move |db| {
                let head =
                    db.prepare_cached(&numbered(HEAD))?.query_row(params![ticket, account], |row| read_head(row));
                let Some((text, send_at, sent)) = head.optional()? else { return Ok(None) };
                let mut countries: Vec<CountryRow> = db
                    .prepare_cached(&numbered(COUNTRIES))?
                    .query_map(params![ticket, account], |row| read_country(row))?
                    .collect::<Result<_, _>>()?;
                let mut delivered_hours: Vec<(String, i64)> = db
                    .prepare_cached(&numbered(DELIVERED_HOURS))?
                    .query_map(params![ticket, account], |row| read_hour(row))?
                    .collect::<Result<_, _>>()?;
                // A small campaign keeps no counts: grouped from its messages.
                if countries.is_empty() {
                    let delivered = DeliveryCode::Delivered.code();
                    countries = db
                        .prepare_cached(&numbered(COUNTRIES_GROUPED))?
                        .query_map(params![ticket, account, delivered], |row| read_country(row))?
                        .collect::<Result<_, _>>()?;
                    delivered_hours = db
                        .prepare_cached(&numbered(DELIVERED_HOURS_GROUPED))?
                        .query_map(params![ticket, account, delivered], |row| read_hour(row))?
                        .collect::<Result<_, _>>()?;
                }
                let mut clicks = db.prepare_cached(&numbered(CLICK_HOURS))?;
                let click_hours = clicks.query_map(params![ticket, account], |row| read_hour(row))?;
                let rows = ReportRows {
                    text,
                    send_at,
                    sent,
                    stops: db.prepare_cached(&numbered(STOPS))?.query_row(params![ticket], |row| row.get(0))?,
                    countries,
                    delivered_hours,
                    click_hours: click_hours.collect::<Result<_, _>>()?,
                    clickers: 0,
                    repliers: db
                        .prepare_cached(&numbered(REPLIERS))?
                        .query_row(params![ticket, account], |row| row.get(0))?,
                    conversions: db
                        .prepare_cached(&numbered(CAMPAIGN_CONVERSIONS))?
                        .query_row(params![ticket, account], |row| Ok((row.get(0)?, row.get(1)?)))?,
                };
                let mut by_country = db.prepare_cached(&numbered(CLICKERS_BY_COUNTRY))?;
                let by_country = by_country.query_map(params![ticket, account], |row| read_hour(row))?;
                Ok(Some(rows.with_clickers(by_country.collect::<Result<_, _>>()?)))
            })
            .await
    }
}
