//! A/B tests in PostgreSQL (the statements shared with SQLite).

use async_trait::async_trait;
use texto_core::{Credits, DeliveryCode, SampleHours, VariantCounts};

use super::{PgStore, accounts};
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
impl AbTestStore for PgStore {
    async fn waiting_tests(&self) -> Result<Vec<StoredTest>, Error> {
        let client = self.pool.get().await?;
        let rows = client.query(WAITING, &[]).await?;
        Ok(rows.iter().map(read_test).filter_map(Result::transpose).collect::<Result<_, _>>()?)
    }

    async fn ab_test(&self, account: AccountId, ticket: i64) -> Result<Option<StoredTest>, Error> {
        let client = self.pool.get().await?;
        match client.query_opt(ONE, &[&ticket, &account]).await? {
            Some(row) => Ok(read_test(&row)?),
            None => Ok(None),
        }
    }

    async fn sample_counts(&self, ticket: i64, texts: usize) -> Result<Vec<VariantCounts>, Error> {
        let delivered = DeliveryCode::Delivered.code();
        let client = self.pool.get().await?;
        let rows = client.query(SAMPLE_COUNTS, &[&ticket, &delivered]).await?;
        Ok(in_text_order(texts, rows.iter().map(read_counts).collect::<Result<_, _>>()?))
    }

    async fn sample_hours(&self, ticket: i64, texts: usize) -> Result<Vec<SampleHours>, Error> {
        let delivered = DeliveryCode::Delivered.code();
        let client = self.pool.get().await?;
        let rows = client.query(SAMPLE_DELIVERED_HOURS, &[&ticket, &delivered]).await?;
        let delivered = rows.iter().map(read_text_hour).collect::<Result<_, _>>()?;
        let rows = client.query(SAMPLE_CLICK_HOURS, &[&ticket]).await?;
        let clicks = rows.iter().map(read_text_hour).collect::<Result<_, _>>()?;
        Ok(hours_in_text_order(texts, delivered, clicks))
    }

    async fn choose_winner(&self, test: &StoredTest, winner: u8) -> Result<Option<Credits>, Error> {
        let (ticket, account, byte, variant) = (test.campaign, test.account, byte_of(winner), i64::from(winner));
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // The campaign's row first, locked until the commit: two nodes deciding at once, one wins.
        let locked = tx
            .query_opt(
                "SELECT id FROM campaigns WHERE id = $1 AND ab_hold IS NOT NULL AND ab_winner IS NULL AND status = 'sending' FOR UPDATE",
                &[&ticket],
            )
            .await?;
        if locked.is_none() {
            return Ok(None);
        }
        let refund: i64 = tx.query_one(REFUND_OF_THE_REST, &[&ticket, &byte]).await?.get(0);
        tx.execute(TAKE_WINNER, &[&ticket, &variant, &refund]).await?;
        tx.execute(PRICE_THE_REST, &[&ticket, &byte]).await?;
        let refund = Credits::from_hundredths(refund);
        accounts::move_money(&tx, &money::refund(account, ticket, refund)).await?;
        tx.commit().await?;
        Ok(Some(refund))
    }
}
