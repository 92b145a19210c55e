//! Clock-triggered journey entries in PostgreSQL (the statements shared with SQLite).

use async_trait::async_trait;

use super::{PgStore, query};
use crate::{
    Error,
    store::{
        AccountId,
        journey_plans::{
            ENTER_PLANNED, JourneyPlanStore, MARK, Plan, SEEN, TIMED, TimedJourney, dated_sql, read_timed, two_dates,
        },
        segment_sql::Dialect,
        time,
    },
};

/// Notes the numbers now seen in a segment (`$1` journey, `$2` the numbers).
const SEE_ALL: &str = "INSERT INTO journey_segment_members (journey_id, number) SELECT $1, unnest($2::BIGINT[])
     ON CONFLICT DO NOTHING";

/// Forgets the numbers no longer in a segment (`$1` journey, `$2` the numbers).
const UNSEE_ALL: &str = "DELETE FROM journey_segment_members WHERE journey_id = $1 AND number = ANY($2)";

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
        let (ever, since) = plan.keep_out.columns();
        let statement = tx.prepare_cached(ENTER_PLANNED).await?;
        for (number, at) in &plan.entries {
            let at = time::store(*at);
            tx.execute(&statement, &[&plan.journey, &plan.version, &plan.account, number, &at, &ever, &since]).await?;
        }
        // A segment's members in two statements, however many (a first look sees them all).
        let (seen, gone) = &plan.members;
        if !seen.is_empty() {
            tx.execute(SEE_ALL, &[&plan.journey, seen]).await?;
        }
        if !gone.is_empty() {
            tx.execute(UNSEE_ALL, &[&plan.journey, gone]).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn segment_seen(&self, journey: i64) -> Result<Vec<i64>, Error> {
        let client = self.pool.get().await?;
        Ok(query(&client, SEEN, &[&journey]).await?.iter().map(|row| row.get(0)).collect())
    }
}
