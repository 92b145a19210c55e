//! Clock-triggered journey entries in PostgreSQL (the statements shared with SQLite).

use async_trait::async_trait;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId,
        journey_plans::{
            ENTER_PLANNED, JourneyPlanStore, MARK, Plan, TIMED, TimedJourney, dated_sql, read_timed, two_dates,
        },
        segment_sql::Dialect,
        time,
    },
};

#[async_trait]
impl JourneyPlanStore for PgStore {
    async fn timed_journeys(&self) -> Result<Vec<TimedJourney>, Error> {
        let client = self.pool.get().await?;
        query(&client, TIMED, &[]).await?.iter().map(|row| read_timed(row)?).collect()
    }

    async fn dated_numbers(
        &self,
        account: AccountId,
        field: String,
        dates: Vec<String>,
        yearly: bool,
    ) -> Result<Vec<i64>, Error> {
        let (first, second) = two_dates(&dates);
        let client = self.pool.get().await?;
        let sql = dated_sql(&field, yearly, Dialect::Postgres);
        Ok(client.query(&sql, &[&account, &first, &second]).await?.iter().map(|row| row.get(0)).collect())
    }

    async fn enter_planned(&self, plan: Plan) -> Result<bool, Error> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let (was, mark) = (plan.was.stored(), plan.mark.stored());
        // The mark's row lock makes a second node wait, then find the mark moved: it plans nothing.
        let marked = tx.execute(&tx.prepare_cached(MARK).await?, &[&plan.journey, &was, &mark]).await?;
        if marked == 0 {
            return Ok(false);
        }
        let statement = tx.prepare_cached(ENTER_PLANNED).await?;
        for (number, at) in &plan.entries {
            let at = time::store(*at);
            tx.execute(&statement, &[&plan.journey, &plan.version, &plan.account, number, &at, &plan.once]).await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}
