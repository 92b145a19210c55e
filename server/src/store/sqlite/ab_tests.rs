//! A/B tests in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};
use texto_core::{Credits, DeliveryCode, SampleHours, VariantCounts};

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        ab_tests::{
            AbTestStore, ONE, PRICE_THE_REST, REFUND_OF_THE_REST, SAMPLE_CLICK_HOURS, SAMPLE_COUNTS,
            SAMPLE_DELIVERED_HOURS, StoredTest, TAKE_WINNER, WAITING, byte_of, hours_in_text_order, in_text_order,
            read_counts, read_test, read_text_hour,
        },
        money,
    },
};

#[async_trait]
impl AbTestStore for SqliteStore {
    async fn waiting_tests(&self) -> Result<Vec<StoredTest>, Error> {
        self.db
            .read(move |db| {
                let mut waiting = db.prepare_cached(&numbered(WAITING))?;
                let rows = waiting.query_map([], |row| read_test(row))?;
                Ok(rows.filter_map(Result::transpose).collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn ab_test(&self, account: AccountId, ticket: i64) -> Result<Option<StoredTest>, Error> {
        self.db
            .read(move |db| {
                let found =
                    db.prepare_cached(&numbered(ONE))?.query_row(params![ticket, account], |row| read_test(row));
                Ok(found.optional()?.flatten())
            })
            .await
    }

    async fn sample_counts(&self, ticket: i64, texts: usize) -> Result<Vec<VariantCounts>, Error> {
        let delivered = DeliveryCode::Delivered.code();
        self.db
            .read(move |db| {
                let mut counts = db.prepare_cached(&numbered(SAMPLE_COUNTS))?;
                let rows = counts.query_map(params![ticket, delivered], |row| read_counts(row))?;
                Ok(in_text_order(texts, rows.collect::<Result<_, _>>()?))
            })
            .await
    }

    async fn sample_hours(&self, ticket: i64, texts: usize) -> Result<Vec<SampleHours>, Error> {
        let delivered = DeliveryCode::Delivered.code();
        self.db
            .read(move |db| {
                let mut hours = db.prepare_cached(&numbered(SAMPLE_DELIVERED_HOURS))?;
                let delivered = hours
                    .query_map(params![ticket, delivered], |row| read_text_hour(row))?
                    .collect::<Result<_, _>>()?;
                let mut clicks = db.prepare_cached(&numbered(SAMPLE_CLICK_HOURS))?;
                let clicks = clicks.query_map(params![ticket], |row| read_text_hour(row))?.collect::<Result<_, _>>()?;
                Ok(hours_in_text_order(texts, delivered, clicks))
            })
            .await
    }

    async fn choose_winner(&self, test: &StoredTest, winner: u8) -> Result<Option<Credits>, Error> {
        let (ticket, account, byte) = (test.campaign, test.account, byte_of(winner));
        self.db
            .write(move |db| {
                let refund: i64 = db
                    .prepare_cached(&numbered(REFUND_OF_THE_REST))?
                    .query_row(params![ticket, byte], |row| row.get(0))?;
                let taken = db.prepare_cached(&numbered(TAKE_WINNER))?.execute(params![ticket, winner, refund])?;
                if taken == 0 {
                    return Ok(None);
                }
                db.prepare_cached(&numbered(PRICE_THE_REST))?.execute(params![ticket, byte])?;
                let refund = Credits::from_hundredths(refund);
                super::accounts::move_money(db, &money::refund(account, ticket, refund))?;
                Ok(Some(refund))
            })
            .await
    }
}
