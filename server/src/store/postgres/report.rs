//! Reports in PostgreSQL (the statements shared with SQLite).

use async_trait::async_trait;
use texto_core::DeliveryCode;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId,
        conversions::CAMPAIGN_CONVERSIONS,
        report::{
            CLICK_HOURS, CLICKERS_BY_COUNTRY, COUNTRIES, COUNTRIES_GROUPED, DELIVERED_HOURS, DELIVERED_HOURS_GROUPED,
            HEAD, REPLIERS, ReportRows, ReportStore, STOPS, read_country, read_head, read_hour,
        },
    },
};

#[async_trait]
impl ReportStore for PgStore {
    async fn report_rows(&self, account: AccountId, ticket: i64) -> Result<Option<ReportRows>, Error> {
        let client = self.pool.get().await?;
        let Some(head) = query(&client, HEAD, &[&ticket, &account]).await?.first().map(read_head).transpose()? else {
            return Ok(None);
        };
        let (text, send_at, sent) = head;
        let hours = |rows: Vec<tokio_postgres::Row>| rows.iter().map(read_hour).collect::<Result<Vec<_>, _>>();
        let countries_of =
            |rows: Vec<tokio_postgres::Row>| rows.iter().map(read_country).collect::<Result<Vec<_>, _>>();
        let mut countries = countries_of(query(&client, COUNTRIES, &[&ticket, &account]).await?)?;
        let mut delivered_hours = hours(query(&client, DELIVERED_HOURS, &[&ticket, &account]).await?)?;
        // A small campaign keeps no counts: grouped from its messages.
        if countries.is_empty() {
            let delivered = DeliveryCode::Delivered.code();
            countries = countries_of(query(&client, COUNTRIES_GROUPED, &[&ticket, &account, &delivered]).await?)?;
            delivered_hours = hours(query(&client, DELIVERED_HOURS_GROUPED, &[&ticket, &account, &delivered]).await?)?;
        }
        let rows = ReportRows {
            text,
            send_at,
            sent,
            stops: client.query_one(STOPS, &[&ticket]).await?.try_get(0)?,
            countries,
            delivered_hours,
            click_hours: hours(query(&client, CLICK_HOURS, &[&ticket, &account]).await?)?,
            clickers: 0,
            repliers: query(&client, REPLIERS, &[&ticket, &account])
                .await?
                .first()
                .map_or(Ok(0), |row| row.try_get(0))?,
            conversions: {
                let row = client.query_one(CAMPAIGN_CONVERSIONS, &[&ticket, &account]).await?;
                (row.try_get(0)?, row.try_get(1)?)
            },
        };
        Ok(Some(rows.with_clickers(hours(query(&client, CLICKERS_BY_COUNTRY, &[&ticket, &account]).await?)?)))
    }
}
